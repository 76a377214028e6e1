/**
 * Review on the dashboard (issue 42): the queue of pending reviews of one environment; a review on
 * its document's pages with each value boxed, editable in place, approved as corrected (the run goes
 * on with it) or rejected with a reason; read-only for a member whose role cannot review; and a key
 * created on the keys page is shown once, after a redirect (a reload creates no second key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { cookiesOf, dash, signIn, type Member } from '../../support/dashboard.ts';
import { textPdf } from '../../support/text-pdf.ts';

let cloud: TestCloud;
let owner: Member;
let viewer: Member;
beforeAll(async () => {
  cloud = await startTestCloud();
  owner = await signIn(cloud.url, cloud.orgId, 'owner@review.example');
  viewer = await signIn(cloud.url, cloud.orgId, 'viewer@review.example', 'viewer');
});
afterAll(() => cloud?.close());

async function waitingRun(workflowId: string, startId: string, pdf: string) {
  const run = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflowId, version: 'draft', documents: { [startId]: { filename: 'invoice.pdf', url: pdf } } } });
  expect(run.status, run.text).toBe(201);
  await until(async () => ((await cloud.api('GET', `/v1/workflows/runs/${run.body.id}`)).body.lifecycle.status === 'awaiting_review' ? true : undefined), 30_000, 'the run to wait');
  const review = (await cloud.api('GET', `/v1/workflows/reviews?run_id=${run.body.id}`)).body.data[0];
  return { runId: run.body.id as string, reviewId: review.id as string };
}

describe('reviews on the dashboard', () => {
  it('queue, boxed values edited in place and approved; a rejection needs a reason; viewers read only', async () => {
    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'AP' } })).body.id;
    const workflow = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'Reviewed invoices' } })).body;
    const startId = (await cloud.api('GET', `/v1/workflows/blocks?workflow_id=${workflow.id}`)).body.data[0].id;
    const schema = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };
    const extract = (await cloud.api('POST', '/v1/workflows/blocks', { body: { workflow_id: workflow.id, type: 'extract', config: { json_schema: schema, review: { predicate: { kind: 'always' } } } } })).body;
    await cloud.api('POST', '/v1/workflows/edges', { body: { workflow_id: workflow.id, source_block: startId, target_block: extract.id } });
    const pdf = dataUrl('application/pdf', Buffer.from(await textPdf([['INVOICE', 'Invoice number: INV-77', 'Total due: 12.50 EUR']])));
    const first = await waitingRun(workflow.id, startId, pdf);
    const second = await waitingRun(workflow.id, startId, pdf);

    const queue = await dash(cloud.url, owner, 'GET', '/dashboard/reviews?env=test');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain(first.reviewId);
    expect(queue.text).toContain(second.reviewId);
    expect((await dash(cloud.url, owner, 'GET', '/dashboard/reviews?env=production')).text).not.toContain(first.reviewId);

    const page = await dash(cloud.url, owner, 'GET', `/dashboard/review?env=test&id=${first.reviewId}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/data-testid="source-box"[^>]*data-value="invoice_number: INV-77"/);
    expect(page.text).toMatch(/name="v:invoice_number" value="INV-77"/);
    expect(page.text).toContain('accesskey="a"');

    // A viewer sees it read-only and cannot decide.
    const readOnly = await dash(cloud.url, viewer, 'GET', `/dashboard/review?env=test&id=${first.reviewId}`);
    expect(readOnly.text).toContain('data-testid="read-only"');
    expect(readOnly.text).not.toContain('data-testid="approve"');
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/review', { env: 'test', id: first.reviewId, action: 'approve' })).status).toBe(403);

    // Approve as corrected: a new version, and the run goes on with it.
    const approved = await dash(cloud.url, owner, 'POST', '/dashboard/review', { env: 'test', id: first.reviewId, action: 'approve', 'v:invoice_number': 'INV-77-A', 'v:total_due': '12.50 EUR', note: 'suffix' });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toContain('/dashboard/reviews?env=test&decided=');
    const done = await until(async () => {
      const run = (await cloud.api('GET', `/v1/workflows/runs/${first.runId}`)).body;
      return run.lifecycle.status === 'completed' ? run : undefined;
    }, 30_000, 'the approved run to complete');
    expect(done.outputs[extract.id]).toEqual({ invoice_number: 'INV-77-A', total_due: '12.50 EUR' });
    const versions = (await cloud.api('GET', `/v1/workflows/reviews/versions?review_id=${first.reviewId}&order=asc`)).body.data;
    expect(versions.map((v: { author: { kind: string; display_name: string }; note: string | null }) => [v.author.kind, v.author.display_name, v.note])).toEqual([
      ['model', 'quire-local', null],
      ['human', 'owner@review.example', 'suffix'],
    ]);
    expect((await dash(cloud.url, owner, 'GET', `/dashboard/review?env=test&id=${first.reviewId}`)).text).toContain('data-testid="review-decision"');

    // Rejecting needs a reason; with one, the run ends.
    const noReason = await dash(cloud.url, owner, 'POST', '/dashboard/review', { env: 'test', id: second.reviewId, action: 'reject', reason: ' ' });
    expect(noReason.status).toBe(422);
    expect(noReason.text).toContain('A rejection needs a reason');
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/review', { env: 'test', id: second.reviewId, action: 'reject', reason: 'duplicate' })).status).toBe(303);
    await until(async () => ((await cloud.api('GET', `/v1/workflows/runs/${second.runId}`)).body.lifecycle.status === 'cancelled' ? true : undefined), 30_000, 'the rejected run to end');
    expect((await dash(cloud.url, owner, 'GET', '/dashboard/reviews?env=test')).text).toContain('Nothing waits for a review.');
  });

  it('shows a new key once, after a redirect: a reload creates no second key', async () => {
    const created = await dash(cloud.url, owner, 'POST', '/dashboard/keys', { env: 'test', name: 'reload-safe', role: 'operator' });
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe('/dashboard/keys?env=test');
    const handed = cookiesOf(created.response);
    const cookie = `${owner.cookie}; ${Object.entries(handed).map(([k, v]) => `${k}=${v}`).join('; ')}`;
    const shown = await fetch(`${cloud.url}/dashboard/keys?env=test`, { headers: { cookie, accept: 'text/html' } });
    const text = await shown.text();
    const key = /data-testid="new-key" id="new-key">([^<]+)</.exec(text)?.[1];
    expect(key).toMatch(/^rt_test_/);
    expect(shown.headers.getSetCookie().some((c) => c.startsWith('quire_new_key=;') && c.includes('Max-Age=0'))).toBe(true);
    // The browser dropped the cookie: the next view shows the list only, with the one key.
    const again = await dash(cloud.url, owner, 'GET', '/dashboard/keys?env=test');
    expect(again.text).not.toContain(key!);
    expect(again.text.match(/<td>reload-safe<\/td>/g)).toHaveLength(1);
  });
});
