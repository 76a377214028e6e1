/**
 * The dashboard's own routes across organizations, environments and roles (over HTTP, real local
 * cloud): a run, a file or a key of another organization or of the other environment answers
 * exactly like an unknown one (404); a viewer cannot create or revoke keys (403), a developer only
 * in test; a removed member is signed out at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, removeMember, getMembership } from '../../../functions/members/members.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { cookiesOf, dash, signIn, type Member } from '../../support/dashboard.ts';

let cloud: TestCloud;
let otherOrgId: string;
let owner: Member;
let stranger: Member;
let parseId: string;
let fileId: string;
let testKeyId: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  otherOrgId = (await cloud.api('GET', '/v1/auth/status', { key: cloud.keys.otherOrgTest })).body.organization_id;
  testKeyId = (await cloud.api('GET', '/v1/auth/status', { key: cloud.keys.test })).body.key.id;
  owner = await signIn(cloud.url, cloud.orgId, 'owner@a.example');
  stranger = await signIn(cloud.url, otherOrgId, 'owner@b.example');
  const parse = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'note.png', url: dataUrl('image/png', Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')) } } });
  expect(parse.status, parse.text).toBe(201);
  parseId = parse.body.id;
  fileId = parse.body.file.id;
});
afterAll(() => cloud?.close());

/** The 404 page's message with ids blanked, so answers for different ids compare. */
const shape = (text: string) => (/role="alert">([^<]*)</.exec(text)?.[1] ?? text).replace(/[a-z]+_[0-9a-z]{26}/g, '<id>');

describe('other organization, other environment → 404, like an unknown id', () => {
  const unknownRun = 'prs_01m7z0qenejn1pv4p44vpcbwww';
  const unknownFile = 'file_01m7z0qenejn1pv4p44vpcbwww';

  it('the owner sees the run and its file in its own environment', async () => {
    const run = await dash(cloud.url, owner, 'GET', `/dashboard/run?env=test&kind=parse&id=${parseId}`);
    expect(run.status).toBe(200);
    expect(run.text).toContain(parseId);
    expect((await dash(cloud.url, owner, 'GET', `/dashboard/file?env=test&id=${fileId}`)).status).toBe(200);
    const list = await dash(cloud.url, owner, 'GET', '/dashboard/runs?env=test');
    expect(list.text).toContain(parseId);
  });

  it.each([
    ['the same organization, the other environment', () => owner, 'production'],
    ['another organization, the same environment name', () => stranger, 'test'],
    ['another organization, the other environment', () => stranger, 'production'],
  ])('%s: run page and file answer 404 as for unknown ids; lists do not show them', async (_who, member, env) => {
    const m = member();
    const run = await dash(cloud.url, m, 'GET', `/dashboard/run?env=${env}&kind=parse&id=${parseId}`);
    const unknown = await dash(cloud.url, m, 'GET', `/dashboard/run?env=${env}&kind=parse&id=${unknownRun}`);
    expect(run.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(shape(run.text)).toBe(shape(unknown.text));
    const file = await dash(cloud.url, m, 'GET', `/dashboard/file?env=${env}&id=${fileId}`, {}, { accept: 'application/json' });
    const unknownFileAnswer = await dash(cloud.url, m, 'GET', `/dashboard/file?env=${env}&id=${unknownFile}`, {}, { accept: 'application/json' });
    expect(file.status).toBe(404);
    expect(JSON.parse(file.text).detail.replace(fileId, '<id>')).toBe(JSON.parse(unknownFileAnswer.text).detail.replace(unknownFile, '<id>'));
    const list = await dash(cloud.url, m, 'GET', `/dashboard/runs?env=${env}`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(parseId);
  });

  it("tables: another environment's or organization's table cannot be validated or downloaded (404, as an unknown one) and is not listed", async () => {
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'ledger', document: { filename: 'ledger.csv', url: dataUrl('text/csv', 'id,amount\n1,5\n') } } });
    expect(created.status, created.text).toBe(201);
    const tableId = created.body.tables[0].id as string;
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/tables/validate', { env: 'test', table_id: tableId, rules: '{}' })).status).toBe(200);
    const unknown = await dash(cloud.url, owner, 'POST', '/dashboard/tables/validate', { env: 'production', table_id: 'tbl_01m7z0qenejn1pv4p44vpcbwww', rules: '{}' });
    expect(unknown.status).toBe(404);
    for (const [m, env] of [[owner, 'production'], [stranger, 'test'], [stranger, 'production']] as const) {
      const answer = await dash(cloud.url, m, 'POST', '/dashboard/tables/validate', { env, table_id: tableId, rules: '{}' });
      expect(answer.status).toBe(404);
      expect(shape(answer.text)).toBe(shape(unknown.text));
      expect((await dash(cloud.url, m, 'GET', `/dashboard/tables?env=${env}`)).text).not.toContain(tableId);
      // Nor downloaded.
      const download = await dash(cloud.url, m, 'GET', `/dashboard/tables/download?env=${env}&table_id=${tableId}`);
      expect(download.status).toBe(404);
      expect(download.text).not.toContain('amount');
    }
    expect((await dash(cloud.url, owner, 'GET', `/dashboard/tables/download?env=test&table_id=${tableId}`)).text).toBe('id,amount\n1,5\n');
  });

  it("workflow runs: another environment's or organization's run page answers 404, as an unknown one", async () => {
    const project = await cloud.api('POST', '/v1/projects', { body: { name: 'iso' } });
    const workflow = await cloud.api('POST', '/v1/workflows', { body: { project_id: project.body.id, name: 'iso flow' } });
    const draft = { blocks: [{ id: 'in', type: 'start_json', config: {} }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'out' }] };
    expect((await cloud.api('PUT', `/v1/workflows/${workflow.body.id}/draft`, { body: draft })).status).toBe(200);
    const run = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflow.body.id, version: 'draft', json_inputs: { in: {} } } });
    expect(run.status, run.text).toBe(201);
    expect((await dash(cloud.url, owner, 'GET', `/dashboard/workflow-run?env=test&id=${run.body.id}`)).status).toBe(200);
    const unknown = await dash(cloud.url, owner, 'GET', '/dashboard/workflow-run?env=production&id=run_01m7z0qenejn1pv4p44vpcbwww');
    expect(unknown.status).toBe(404);
    for (const [m, env] of [[owner, 'production'], [stranger, 'test'], [stranger, 'production']] as const) {
      const answer = await dash(cloud.url, m, 'GET', `/dashboard/workflow-run?env=${env}&id=${run.body.id}`);
      expect(answer.status).toBe(404);
      expect(shape(answer.text)).toBe(shape(unknown.text));
    }
  });

  it("keys: another environment's or organization's key cannot be revoked (404) and is not listed", async () => {
    const keysProd = await dash(cloud.url, owner, 'GET', '/dashboard/keys?env=production');
    expect(keysProd.text).not.toContain(testKeyId);
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/keys/revoke', { env: 'production', key_id: testKeyId })).status).toBe(404);
    expect((await dash(cloud.url, stranger, 'POST', '/dashboard/keys/revoke', { env: 'test', key_id: testKeyId })).status).toBe(404);
    expect((await dash(cloud.url, stranger, 'GET', '/dashboard/keys?env=test')).text).not.toContain(testKeyId);
    expect((await cloud.api('GET', '/v1/auth/status')).status).toBe(200);
  });
});

describe('cancel and delete', () => {
  it('a run of another environment or organization cannot be deleted (404); a viewer cannot (403); a developer can', async () => {
    const doc = { filename: 'del.txt', url: dataUrl('text/plain', 'to be deleted') };
    const parse = await cloud.api('POST', '/v1/parses', { body: { document: doc, bust_cache: true } });
    expect(parse.status, parse.text).toBe(201);
    const form = { kind: 'parse', id: parse.body.id, action: 'delete' };
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/run', { ...form, env: 'production' })).status).toBe(404);
    expect((await dash(cloud.url, stranger, 'POST', '/dashboard/run', { ...form, env: 'test' })).status).toBe(404);
    const viewer = await signIn(cloud.url, cloud.orgId, 'viewer3@a.example', 'viewer');
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/run', { ...form, env: 'test' })).status).toBe(403);
    expect((await cloud.api('GET', `/v1/parses/${parse.body.id}`)).status).toBe(200);
    const developer = await signIn(cloud.url, cloud.orgId, 'dev3@a.example', 'developer');
    expect((await dash(cloud.url, developer, 'GET', `/dashboard/run?env=test&kind=parse&id=${parse.body.id}`)).text).toContain('Delete run');
    const deleted = await dash(cloud.url, developer, 'POST', '/dashboard/run', { ...form, env: 'test' });
    expect(deleted.status).toBe(303);
    expect((await cloud.api('GET', `/v1/parses/${parse.body.id}`)).status).toBe(404);
  });
});

describe('roles', () => {
  it('a viewer sees keys but cannot create or revoke them (403)', async () => {
    const viewer = await signIn(cloud.url, cloud.orgId, 'viewer@a.example', 'viewer');
    const page = await dash(cloud.url, viewer, 'GET', '/dashboard/keys?env=test');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Create key');
    for (const env of ['test', 'production']) {
      const created = await dash(cloud.url, viewer, 'POST', '/dashboard/keys', { env, name: 'nope', role: 'admin' });
      expect(created.status, env).toBe(403);
    }
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/keys/revoke', { env: 'test', key_id: testKeyId })).status).toBe(403);
    expect((await cloud.api('GET', '/v1/auth/status')).status).toBe(200);
  });

  it('a developer manages keys of test only', async () => {
    const developer = await signIn(cloud.url, cloud.orgId, 'dev@a.example', 'developer');
    // Created, the POST redirects to the page that shows the key once (a reload creates no second key).
    expect((await dash(cloud.url, developer, 'POST', '/dashboard/keys', { env: 'test', name: 'dev key', role: 'operator' })).status).toBe(303);
    expect((await dash(cloud.url, developer, 'POST', '/dashboard/keys', { env: 'production', name: 'dev key', role: 'operator' })).status).toBe(403);
  });

  it('owners and admins add members (a one-time link to hand over), change roles and remove; others get 403', async () => {
    const added = await dash(cloud.url, owner, 'POST', '/dashboard/members', { env: 'test', email: 'New.Person@A.example', role: 'viewer' });
    expect(added.status).toBe(200);
    const link = /data-testid="sign-in-link" id="sign-in-link">([^<]+)</.exec(added.text)![1]!;
    expect(link).toMatch(/\/dashboard\/sign-in\/link\?token=[A-Za-z0-9_-]{43}$/);
    const landing = await fetch(link.replace(/^http:\/\/[^/]+/, cloud.url), { headers: { accept: 'text/html' } });
    expect(landing.status).toBe(200);
    const list = await dash(cloud.url, owner, 'GET', '/dashboard/members?env=test');
    expect(list.text).toContain('new.person@a.example');
    const userId = /data-member="(usr_[0-9a-z]{26})">\s*<td>new\.person@a\.example/.exec(list.text)![1]!;
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/members/change', { env: 'test', user_id: userId, role: 'developer' })).status).toBe(303);
    expect((await getMembership(platform(), cloud.orgId, userId))?.role).toBe('developer');

    const viewer = await signIn(cloud.url, cloud.orgId, 'viewer2@a.example', 'viewer');
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/members', { env: 'test', email: 'x@a.example', role: 'owner' })).status).toBe(403);
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/members/change', { env: 'test', user_id: userId, remove: '1' })).status).toBe(403);
    // Another organization's owner cannot touch this member.
    expect((await dash(cloud.url, stranger, 'POST', '/dashboard/members/change', { env: 'test', user_id: userId, remove: '1' })).status).toBe(404);
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/members/change', { env: 'test', user_id: userId, remove: '1' })).status).toBe(303);
    expect(await getMembership(platform(), cloud.orgId, userId)).toBeUndefined();
  });

  it('a member removed from the organization is signed out of it at once', async () => {
    const leaving = await signIn(cloud.url, cloud.orgId, 'leaving@a.example', 'admin');
    expect((await dash(cloud.url, leaving, 'GET', '/dashboard/keys?env=test')).status).toBe(200);
    const p = platform();
    await removeMember(p, (await getMembership(p, cloud.orgId, owner.userId))!, leaving.userId);
    expect((await dash(cloud.url, leaving, 'GET', '/dashboard/keys?env=test')).status).toBe(303);
    expect((await dash(cloud.url, leaving, 'POST', '/dashboard/keys', { env: 'test', name: 'late', role: 'admin' })).status).toBe(401);
  });
});

describe('several organizations', () => {
  it('a member of two organizations switches between them; each shows its own runs only', async () => {
    const both = await signIn(cloud.url, cloud.orgId, 'both@a.example', 'developer');
    await addMember(platform(), { orgId: otherOrgId, email: 'both@a.example', role: 'viewer' });
    const runs = await dash(cloud.url, both, 'GET', '/dashboard/runs?env=test');
    expect(runs.text).toContain(parseId);
    expect(runs.text).toContain('Organization');
    // Switching to an organization the member is not in is refused like an unknown one.
    expect((await dash(cloud.url, both, 'POST', '/dashboard/organization', { org: 'org_01m7z0qenejn1pv4p44vpcbwww' })).status).toBe(404);
    expect((await dash(cloud.url, both, 'POST', '/dashboard/organization', { org: otherOrgId })).status).toBe(303);
    const switched = await dash(cloud.url, both, 'GET', '/dashboard/runs?env=test');
    expect(switched.text).not.toContain(parseId);
    expect(switched.text).toContain('both@a.example · viewer');
    expect((await dash(cloud.url, both, 'GET', `/dashboard/run?env=test&kind=parse&id=${parseId}`)).status).toBe(404);
  });
});

describe('escaping', () => {
  it('names that look like markup are shown as text, never as markup', async () => {
    const name = '<img src=x onerror=alert(1)>"\'';
    const posted = await dash(cloud.url, owner, 'POST', '/dashboard/keys', { env: 'test', name, role: 'viewer' });
    expect(posted.status).toBe(303);
    // The page the POST redirects to shows the new key (handed over in a one-time cookie).
    const handed = Object.entries(cookiesOf(posted.response)).map(([k, v]) => `${k}=${v}`).join('; ');
    const created = await dash(cloud.url, { ...owner, cookie: `${owner.cookie}; ${handed}` }, 'GET', '/dashboard/keys?env=test');
    expect(created.text).toContain('data-testid="new-key"');
    expect(created.text).not.toContain('<img src=x');
    expect(created.text).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;');
    const list = await dash(cloud.url, owner, 'GET', '/dashboard/keys?env=test');
    expect(list.text).not.toContain('<img src=x');
    const search = await dash(cloud.url, owner, 'GET', `/dashboard/runs?env=test&q=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(search.text).not.toContain('<script>alert(1)');
    expect(search.text).toContain('&quot;&gt;&lt;script&gt;');
  });
});
