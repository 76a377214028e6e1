/**
 * The dashboard's routes (DESIGN §8): pages and forms for members, authenticated by the session
 * cookie (`auth: 'session'`), not part of the API's OpenAPI document. No route takes a path
 * parameter: what a page shows is named in its query (`?env=test&id=...`), the environment first.
 */
import { operation } from '../platform/operation.ts';

const page = (summary: string) => operation({ summary, auth: 'session', status: 200, contentType: 'text/html', tags: ['dashboard'] });
const form = (summary: string) => operation({ summary, auth: 'session', status: 303, contentType: 'text/html', tags: ['dashboard'] });

export const dashboardOperations = {
  home: page('The dashboard: goes to the runs of the test environment'),
  asset: operation({ summary: 'A static file of the dashboard (no sign-in needed)', auth: 'session', status: 200, contentType: 'application/octet-stream', tags: ['dashboard'] }),
  signInPage: page('Sign-in form (e-mail and password)'),
  signIn: form('Sign in with e-mail and password (rate limited)'),
  linkPage: page('Landing page of a one-time sign-in link'),
  useLink: form('Sign in with a one-time link (single use, 15 minutes)'),
  signOut: form('Sign out: ends the session'),
  switchOrganization: form('Switch to another organization of the member'),
  accountPage: page('The member: set a password'),
  setPassword: form('Set the member password (scrypt)'),
  keysPage: page('API keys of one environment'),
  createKey: page('Create an API key; the page shows it once'),
  revokeKey: form('Revoke an API key'),
  runsPage: page('Runs of every kind of one environment, with status filter and search'),
  runPage: page('One run: its pages with the extracted values boxed on them'),
  changeRun: form('Cancel or delete a run'),
  file: operation({ summary: 'The bytes of a file, for the run page', auth: 'session', status: 200, contentType: 'application/octet-stream', tags: ['dashboard'] }),
  newRunPage: page('Upload a document and choose what to run'),
  startRun: form('Upload a document and start a parse, extraction, classification or split in the background'),
  secretsPage: page('Secrets of one environment: names and dates, never values'),
  setSecret: page('Set or rotate a secret'),
  deleteSecret: form('Delete a secret'),
  usagePage: page('Credits per day, test and production apart'),
  webhooksPage: page('The webhook endpoint and deliveries of one environment'),
  saveEndpoint: page('Create or change the webhook endpoint (a new one shows its signing secret)'),
  webhookAction: page('Reveal or rotate the signing secret, send a test event, delete the endpoint'),
  tablesPage: page('Tables of one environment: columns, profile, sample rows'),
  validateTable: page('Validate a table by rules (as POST /v1/tables/{table_id}/validate); the page shows the report'),
  downloadTable: operation({ summary: 'All rows of a table as its CSV snapshot (as GET /v1/tables/{table_id}/download)', auth: 'session', status: 200, contentType: 'text/csv', tags: ['dashboard'] }),
  workflowsPage: page('Workflows of one environment: published versions and runs'),
  workflowRunPage: page('One workflow run: its inputs, status and the output of each block'),
  reviewsPage: page('The review queue of one environment: workflow runs waiting for a person'),
  reviewPage: page('One review: the values on the page, editable; approve or reject'),
  decideReview: page('Approve a review (as corrected) or reject it with a reason'),
  membersPage: page('Members of the organization'),
  addMember: page('Add a member; the page shows a one-time sign-in link'),
  changeMember: form('Change the role of a member, or remove them'),
};
