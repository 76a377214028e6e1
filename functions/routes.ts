/**
 * The route table: the single source for the API Gateway routes built by CDK (lib/cloud), the local
 * HTTP server (lib/local) and the OpenAPI document. Nothing else lists routes.
 *
 * `module` is relative to functions/; the folder is the resource group, and each group is one Lambda
 * on AWS (its routes dispatched by route key). `size` picks memory and timeout (see `SIZES`).
 */
import type { Operation } from './platform/operation.ts';
import { fileOperations as files } from './files/operations.ts';
import { authOperations as auth } from './auth/operations.ts';
import { modelOperations as models } from './model-catalog/operations.ts';
import { docsOperations as docs } from './docs/operations.ts';
import { parseOperations as parses } from './parses/operations.ts';
import { classificationOperations as classifications } from './classifications/operations.ts';
import { splitOperations as splits } from './splits/operations.ts';
import { partitionOperations as partitions } from './partitions/operations.ts';
import { extractionOperations as extractions } from './extractions/operations.ts';
import { schemaGenerationOperations as schemas } from './schemas/operations.ts';
import { projectOperations as projects } from './projects/operations.ts';
import { workflowOperations as workflows } from './workflows/operations.ts';
import { secretOperations as secrets } from './secrets/operations.ts';
import { webhookOperations as webhooks } from './webhooks/operations.ts';
import { usageOperations as usage } from './usage/operations.ts';
import { tableOperations as tables } from './tables/operations.ts';
import { editOperations as edits } from './edits/operations.ts';
import { dashboardOperations as dash } from './dashboard/operations.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type SizeClass = 'small' | 'document';

export interface Route {
  method: HttpMethod;
  /** API Gateway path syntax: /v1/files/{file_id} */
  path: string;
  /** Handler module, relative to functions/ (or absolute, for routes defined by tests). */
  module: string;
  /** Export name of the handler in `module`. */
  handler: string;
  size: SizeClass;
  op: Operation;
}

/** Memory (MB) and timeout (s) of each size class; API Gateway ends requests at 29 s anyway. */
export const SIZES: Record<SizeClass, { memoryMb: number; timeoutSeconds: number }> = {
  small: { memoryMb: 512, timeoutSeconds: 29 },
  document: { memoryMb: 2048, timeoutSeconds: 29 },
};

export const routes: Route[] = [
  { method: 'GET', path: '/openapi.json', module: 'docs/handlers.ts', handler: 'openapiDocument', size: 'small', op: docs.openapiDocument },
  { method: 'GET', path: '/docs', module: 'docs/handlers.ts', handler: 'docsPage', size: 'small', op: docs.docsPage },
  { method: 'GET', path: '/docs/{asset}', module: 'docs/handlers.ts', handler: 'docsAsset', size: 'small', op: docs.docsAsset },

  { method: 'GET', path: '/v1/auth/status', module: 'auth/handlers.ts', handler: 'authStatus', size: 'small', op: auth.authStatus },
  { method: 'GET', path: '/v1/models', module: 'model-catalog/handlers.ts', handler: 'listModels', size: 'small', op: models.listModels },

  { method: 'POST', path: '/v1/files/upload', module: 'files/handlers.ts', handler: 'createUpload', size: 'small', op: files.createUpload },
  { method: 'POST', path: '/v1/files/upload/{file_id}/complete', module: 'files/handlers.ts', handler: 'completeUpload', size: 'document', op: files.completeUpload },
  { method: 'POST', path: '/v1/files', module: 'files/handlers.ts', handler: 'createFile', size: 'small', op: files.createFile },
  { method: 'GET', path: '/v1/files', module: 'files/handlers.ts', handler: 'listFiles', size: 'small', op: files.listFiles },
  { method: 'GET', path: '/v1/files/{file_id}', module: 'files/handlers.ts', handler: 'getFile', size: 'small', op: files.getFile },
  { method: 'GET', path: '/v1/files/{file_id}/download-link', module: 'files/handlers.ts', handler: 'getDownloadLink', size: 'small', op: files.getDownloadLink },

  { method: 'POST', path: '/v1/parses', module: 'parses/handlers.ts', handler: 'createParse', size: 'document', op: parses.create },
  { method: 'GET', path: '/v1/parses', module: 'parses/handlers.ts', handler: 'listParses', size: 'small', op: parses.list },
  { method: 'GET', path: '/v1/parses/{parse_id}', module: 'parses/handlers.ts', handler: 'getParse', size: 'small', op: parses.get },
  { method: 'DELETE', path: '/v1/parses/{parse_id}', module: 'parses/handlers.ts', handler: 'deleteParse', size: 'small', op: parses.delete },
  { method: 'POST', path: '/v1/parses/{parse_id}/cancel', module: 'parses/handlers.ts', handler: 'cancelParse', size: 'small', op: parses.cancel },

  { method: 'POST', path: '/v1/classifications', module: 'classifications/handlers.ts', handler: 'createClassification', size: 'document', op: classifications.create },
  { method: 'GET', path: '/v1/classifications', module: 'classifications/handlers.ts', handler: 'listClassifications', size: 'small', op: classifications.list },
  { method: 'GET', path: '/v1/classifications/{classification_id}', module: 'classifications/handlers.ts', handler: 'getClassification', size: 'small', op: classifications.get },
  { method: 'DELETE', path: '/v1/classifications/{classification_id}', module: 'classifications/handlers.ts', handler: 'deleteClassification', size: 'small', op: classifications.delete },
  { method: 'POST', path: '/v1/classifications/{classification_id}/cancel', module: 'classifications/handlers.ts', handler: 'cancelClassification', size: 'small', op: classifications.cancel },

  { method: 'POST', path: '/v1/splits', module: 'splits/handlers.ts', handler: 'createSplit', size: 'document', op: splits.create },
  { method: 'GET', path: '/v1/splits', module: 'splits/handlers.ts', handler: 'listSplits', size: 'small', op: splits.list },
  { method: 'GET', path: '/v1/splits/{split_id}', module: 'splits/handlers.ts', handler: 'getSplit', size: 'small', op: splits.get },
  { method: 'DELETE', path: '/v1/splits/{split_id}', module: 'splits/handlers.ts', handler: 'deleteSplit', size: 'small', op: splits.delete },
  { method: 'POST', path: '/v1/splits/{split_id}/cancel', module: 'splits/handlers.ts', handler: 'cancelSplit', size: 'small', op: splits.cancel },

  { method: 'POST', path: '/v1/partitions', module: 'partitions/handlers.ts', handler: 'createPartition', size: 'document', op: partitions.create },
  { method: 'GET', path: '/v1/partitions', module: 'partitions/handlers.ts', handler: 'listPartitions', size: 'small', op: partitions.list },
  { method: 'GET', path: '/v1/partitions/{partition_id}', module: 'partitions/handlers.ts', handler: 'getPartition', size: 'small', op: partitions.get },
  { method: 'DELETE', path: '/v1/partitions/{partition_id}', module: 'partitions/handlers.ts', handler: 'deletePartition', size: 'small', op: partitions.delete },
  { method: 'POST', path: '/v1/partitions/{partition_id}/cancel', module: 'partitions/handlers.ts', handler: 'cancelPartition', size: 'small', op: partitions.cancel },

  { method: 'POST', path: '/v1/extractions', module: 'extractions/handlers.ts', handler: 'createExtraction', size: 'document', op: extractions.create },
  { method: 'GET', path: '/v1/extractions', module: 'extractions/handlers.ts', handler: 'listExtractions', size: 'small', op: extractions.list },
  { method: 'GET', path: '/v1/extractions/{extraction_id}', module: 'extractions/handlers.ts', handler: 'getExtraction', size: 'small', op: extractions.get },
  { method: 'DELETE', path: '/v1/extractions/{extraction_id}', module: 'extractions/handlers.ts', handler: 'deleteExtraction', size: 'small', op: extractions.delete },
  { method: 'POST', path: '/v1/extractions/{extraction_id}/cancel', module: 'extractions/handlers.ts', handler: 'cancelExtraction', size: 'small', op: extractions.cancel },
  { method: 'GET', path: '/v1/extractions/{extraction_id}/sources', module: 'extractions/handlers.ts', handler: 'getExtractionSources', size: 'small', op: extractions.sources },

  { method: 'POST', path: '/v1/schemas/generate', module: 'schemas/handlers.ts', handler: 'createSchemaGeneration', size: 'document', op: schemas.create },
  { method: 'GET', path: '/v1/schemas/generate', module: 'schemas/handlers.ts', handler: 'listSchemaGenerations', size: 'small', op: schemas.list },
  { method: 'GET', path: '/v1/schemas/generate/{schema_generation_id}', module: 'schemas/handlers.ts', handler: 'getSchemaGeneration', size: 'small', op: schemas.get },
  { method: 'DELETE', path: '/v1/schemas/generate/{schema_generation_id}', module: 'schemas/handlers.ts', handler: 'deleteSchemaGeneration', size: 'small', op: schemas.delete },
  { method: 'POST', path: '/v1/schemas/generate/{schema_generation_id}/cancel', module: 'schemas/handlers.ts', handler: 'cancelSchemaGeneration', size: 'small', op: schemas.cancel },

  { method: 'POST', path: '/v1/projects', module: 'projects/handlers.ts', handler: 'createProject', size: 'small', op: projects.create },
  { method: 'GET', path: '/v1/projects', module: 'projects/handlers.ts', handler: 'listProjects', size: 'small', op: projects.list },
  { method: 'GET', path: '/v1/projects/{project_id}', module: 'projects/handlers.ts', handler: 'getProject', size: 'small', op: projects.get },

  { method: 'POST', path: '/v1/workflows', module: 'workflows/handlers.ts', handler: 'createWorkflow', size: 'small', op: workflows.create },
  { method: 'GET', path: '/v1/workflows', module: 'workflows/handlers.ts', handler: 'listWorkflows', size: 'small', op: workflows.list },
  { method: 'POST', path: '/v1/workflows/promotions', module: 'workflows/handlers.ts', handler: 'promoteWorkflow', size: 'small', op: workflows.promote },
  { method: 'POST', path: '/v1/workflows/runs', module: 'workflows/handlers.ts', handler: 'createRun', size: 'document', op: workflows.createRun },
  { method: 'GET', path: '/v1/workflows/runs', module: 'workflows/handlers.ts', handler: 'listRuns', size: 'small', op: workflows.listRuns },
  { method: 'GET', path: '/v1/workflows/runs/{run_id}', module: 'workflows/handlers.ts', handler: 'getRun', size: 'small', op: workflows.getRun },
  { method: 'POST', path: '/v1/workflows/runs/{run_id}/cancel', module: 'workflows/handlers.ts', handler: 'cancelRun', size: 'small', op: workflows.cancelRun },
  { method: 'GET', path: '/v1/workflows/{workflow_id}', module: 'workflows/handlers.ts', handler: 'getWorkflow', size: 'small', op: workflows.get },
  { method: 'PATCH', path: '/v1/workflows/{workflow_id}', module: 'workflows/handlers.ts', handler: 'patchWorkflow', size: 'small', op: workflows.patch },
  { method: 'DELETE', path: '/v1/workflows/{workflow_id}', module: 'workflows/handlers.ts', handler: 'deleteWorkflow', size: 'small', op: workflows.delete },
  { method: 'GET', path: '/v1/workflows/{workflow_id}/draft', module: 'workflows/handlers.ts', handler: 'getDraft', size: 'small', op: workflows.getDraft },
  { method: 'PUT', path: '/v1/workflows/{workflow_id}/draft', module: 'workflows/handlers.ts', handler: 'putDraft', size: 'small', op: workflows.putDraft },
  { method: 'POST', path: '/v1/workflows/{workflow_id}/publish', module: 'workflows/handlers.ts', handler: 'publishWorkflow', size: 'small', op: workflows.publish },
  { method: 'GET', path: '/v1/workflows/{workflow_id}/versions', module: 'workflows/handlers.ts', handler: 'listVersions', size: 'small', op: workflows.versions },
  { method: 'GET', path: '/v1/workflows/{workflow_id}/export', module: 'workflows/handlers.ts', handler: 'exportWorkflow', size: 'small', op: workflows.export },
  { method: 'GET', path: '/v1/secrets', module: 'secrets/handlers.ts', handler: 'listSecrets', size: 'small', op: secrets.list },
  { method: 'POST', path: '/v1/secrets', module: 'secrets/handlers.ts', handler: 'createSecret', size: 'small', op: secrets.create },
  { method: 'GET', path: '/v1/secrets/{name}', module: 'secrets/handlers.ts', handler: 'getSecret', size: 'small', op: secrets.get },
  { method: 'PUT', path: '/v1/secrets/{name}', module: 'secrets/handlers.ts', handler: 'putSecretValue', size: 'small', op: secrets.put },
  { method: 'DELETE', path: '/v1/secrets/{name}', module: 'secrets/handlers.ts', handler: 'deleteSecret', size: 'small', op: secrets.delete },
  { method: 'GET', path: '/v1/secrets/{name}/value', module: 'secrets/handlers.ts', handler: 'getSecretValue', size: 'small', op: secrets.value },

  { method: 'PUT', path: '/v1/webhooks/endpoint', module: 'webhooks/handlers.ts', handler: 'putEndpoint', size: 'small', op: webhooks.putEndpoint },
  { method: 'GET', path: '/v1/webhooks/endpoint', module: 'webhooks/handlers.ts', handler: 'getEndpoint', size: 'small', op: webhooks.getEndpoint },
  { method: 'DELETE', path: '/v1/webhooks/endpoint', module: 'webhooks/handlers.ts', handler: 'deleteEndpoint', size: 'small', op: webhooks.deleteEndpoint },
  { method: 'POST', path: '/v1/webhooks/endpoint/rotate-secret', module: 'webhooks/handlers.ts', handler: 'rotateSecret', size: 'small', op: webhooks.rotateSecret },
  { method: 'POST', path: '/v1/webhooks/test', module: 'webhooks/handlers.ts', handler: 'sendTestEvent', size: 'small', op: webhooks.sendTest },
  { method: 'GET', path: '/v1/webhooks/deliveries', module: 'webhooks/handlers.ts', handler: 'listDeliveries', size: 'small', op: webhooks.listDeliveries },
  { method: 'GET', path: '/v1/webhooks/deliveries/{delivery_id}', module: 'webhooks/handlers.ts', handler: 'getDelivery', size: 'small', op: webhooks.getDelivery },

  { method: 'GET', path: '/v1/usage', module: 'usage/handlers.ts', handler: 'getUsage', size: 'small', op: usage.getUsage },
  // Tables read whole CSVs (up to 1 GB) in one streaming pass: the document class (memory, CPU).
  { method: 'POST', path: '/v1/tables', module: 'tables/handlers.ts', handler: 'createTable', size: 'document', op: tables.create },
  { method: 'GET', path: '/v1/tables', module: 'tables/handlers.ts', handler: 'listTables', size: 'small', op: tables.list },
  { method: 'GET', path: '/v1/tables/{table_id}', module: 'tables/handlers.ts', handler: 'getTable', size: 'small', op: tables.get },
  { method: 'PUT', path: '/v1/tables/{table_id}', module: 'tables/handlers.ts', handler: 'replaceTable', size: 'document', op: tables.replace },
  { method: 'PATCH', path: '/v1/tables/{table_id}', module: 'tables/handlers.ts', handler: 'patchTable', size: 'small', op: tables.patch },
  { method: 'DELETE', path: '/v1/tables/{table_id}', module: 'tables/handlers.ts', handler: 'deleteTable', size: 'small', op: tables.delete },
  { method: 'GET', path: '/v1/tables/{table_id}/download', module: 'tables/handlers.ts', handler: 'downloadTable', size: 'small', op: tables.download },
  { method: 'GET', path: '/v1/tables/{table_id}/schema', module: 'tables/handlers.ts', handler: 'getTableSchema', size: 'small', op: tables.schema },
  { method: 'POST', path: '/v1/tables/{table_id}/validate', module: 'tables/handlers.ts', handler: 'validateTable', size: 'document', op: tables.validate },
  { method: 'GET', path: '/v1/tables/{table_id}/profile', module: 'tables/handlers.ts', handler: 'profileTable', size: 'small', op: tables.profile },
  // Templates first: their static path segment must win over /v1/edits/{edit_id}.
  { method: 'POST', path: '/v1/edits/templates', module: 'edits/handlers.ts', handler: 'createTemplate', size: 'document', op: edits.createTemplate },
  { method: 'GET', path: '/v1/edits/templates', module: 'edits/handlers.ts', handler: 'listTemplates', size: 'small', op: edits.listTemplates },
  { method: 'GET', path: '/v1/edits/templates/{template_id}', module: 'edits/handlers.ts', handler: 'getTemplate', size: 'small', op: edits.getTemplate },
  { method: 'PATCH', path: '/v1/edits/templates/{template_id}', module: 'edits/handlers.ts', handler: 'updateTemplate', size: 'small', op: edits.updateTemplate },
  { method: 'DELETE', path: '/v1/edits/templates/{template_id}', module: 'edits/handlers.ts', handler: 'deleteTemplate', size: 'small', op: edits.deleteTemplate },
  { method: 'POST', path: '/v1/edits', module: 'edits/handlers.ts', handler: 'createEdit', size: 'document', op: edits.create },
  { method: 'GET', path: '/v1/edits', module: 'edits/handlers.ts', handler: 'listEdits', size: 'small', op: edits.list },
  { method: 'GET', path: '/v1/edits/{edit_id}', module: 'edits/handlers.ts', handler: 'getEdit', size: 'small', op: edits.get },
  { method: 'DELETE', path: '/v1/edits/{edit_id}', module: 'edits/handlers.ts', handler: 'deleteEdit', size: 'small', op: edits.delete },
  { method: 'POST', path: '/v1/edits/{edit_id}/cancel', module: 'edits/handlers.ts', handler: 'cancelEdit', size: 'small', op: edits.cancel },

  // The dashboard (DESIGN §8): pages for members, signed in by session cookie; one Lambda of its own.
  ...dashboardRoutes(),
];

function dashboardRoutes(): Route[] {
  const route = (method: HttpMethod, path: string, handler: string, op: Operation): Route => ({ method, path, module: 'dashboard/handlers.ts', handler, size: 'small', op });
  return [
    route('GET', '/dashboard', 'home', dash.home),
    route('GET', '/dashboard/app.js', 'asset', dash.asset),
    route('GET', '/dashboard/app.css', 'asset', dash.asset),
    route('GET', '/dashboard/pdf.js', 'asset', dash.asset),
    route('GET', '/dashboard/pdf.worker.js', 'asset', dash.asset),
    route('GET', '/dashboard/sign-in', 'signInPage', dash.signInPage),
    route('POST', '/dashboard/sign-in', 'signIn', dash.signIn),
    route('GET', '/dashboard/sign-in/link', 'linkPage', dash.linkPage),
    route('POST', '/dashboard/sign-in/link', 'useLink', dash.useLink),
    route('POST', '/dashboard/sign-out', 'signOut', dash.signOut),
    route('POST', '/dashboard/organization', 'switchOrganizationPost', dash.switchOrganization),
    route('GET', '/dashboard/account', 'accountPage', dash.accountPage),
    route('POST', '/dashboard/account/password', 'setPasswordPost', dash.setPassword),
    route('GET', '/dashboard/keys', 'keysPage', dash.keysPage),
    route('POST', '/dashboard/keys', 'createKeyPost', dash.createKey),
    route('POST', '/dashboard/keys/revoke', 'revokeKeyPost', dash.revokeKey),
    route('GET', '/dashboard/runs', 'runsPage', dash.runsPage),
    route('GET', '/dashboard/run', 'runPage', dash.runPage),
    route('POST', '/dashboard/run', 'changeRunPost', dash.changeRun),
    route('GET', '/dashboard/file', 'file', dash.file),
    route('GET', '/dashboard/new', 'newRunPage', dash.newRunPage),
    route('POST', '/dashboard/new', 'newRunPost', dash.startRun),
    route('GET', '/dashboard/secrets', 'secretsPage', dash.secretsPage),
    route('POST', '/dashboard/secrets', 'setSecretPost', dash.setSecret),
    route('POST', '/dashboard/secrets/delete', 'deleteSecretPost', dash.deleteSecret),
    route('GET', '/dashboard/usage', 'usagePage', dash.usagePage),
    route('GET', '/dashboard/tables', 'tablesPage', dash.tablesPage),
    route('POST', '/dashboard/tables/validate', 'validateTablePost', dash.validateTable),
    route('GET', '/dashboard/tables/download', 'tableDownload', dash.downloadTable),
    route('GET', '/dashboard/workflows', 'workflowsPage', dash.workflowsPage),
    route('GET', '/dashboard/workflow-run', 'workflowRunPage', dash.workflowRunPage),
    route('GET', '/dashboard/webhooks', 'webhooksPage', dash.webhooksPage),
    route('POST', '/dashboard/webhooks', 'saveEndpointPost', dash.saveEndpoint),
    route('POST', '/dashboard/webhooks/action', 'webhookActionPost', dash.webhookAction),
    route('GET', '/dashboard/members', 'membersPage', dash.membersPage),
    route('POST', '/dashboard/members', 'addMemberPost', dash.addMember),
    route('POST', '/dashboard/members/change', 'changeMemberPost', dash.changeMember),
  ];
}

/** Background task functions: invoked by state machines, never by HTTP. Keys are the ASL substitution names. */
export interface TaskFunction {
  module: string;
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  /**
   * Whether it reads documents (default true). A task that does not (webhook delivery) is built
   * without the document engines' runtime packages, on arm64, and may use the table and the key
   * but not the documents bucket.
   */
  documents?: boolean;
}
export const taskFunctions: Record<string, TaskFunction> = {
  RunTaskFunctionArn: { module: 'runs/task.ts', handler: 'handler', memoryMb: 3008, timeoutSeconds: 900 },
  DeliverWebhookFunctionArn: { module: 'webhooks/task.ts', handler: 'handler', memoryMb: 256, timeoutSeconds: 30, documents: false },
  WorkflowTaskFunctionArn: { module: 'workflows/run-task.ts', handler: 'handler', memoryMb: 3008, timeoutSeconds: 900 },
};

/** State machines: ASL file (relative to the repo root) and the task functions it references. */
export const stateMachines = {
  run: { definition: 'statemachines/run.asl.json', tasks: ['RunTaskFunctionArn'] },
  deliver: { definition: 'statemachines/deliver-webhook.asl.json', tasks: ['DeliverWebhookFunctionArn'] },
  workflowRun: { definition: 'statemachines/workflow-run.asl.json', tasks: ['WorkflowTaskFunctionArn'] },
} as const;

/** The API Gateway route key of a route, e.g. "GET /v1/files/{file_id}". */
export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
