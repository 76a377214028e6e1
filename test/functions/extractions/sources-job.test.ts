/**
 * POST /v1/extractions/{id}/sources (Retab's Python SDK: `extractions.sources.create`, "create or
 * join a durable sources computation") and its poll, GET …/sources?mode&job_id, through the API.
 * Quire computes sources with the extraction: the job is complete once the extraction is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const TEXT = ['ACME Supplies Ltd', 'Invoice number: INV-2044', 'Invoice date: 2024-03-05', 'Total due: 1,250.00 EUR'].join('\n');
const document = { filename: 'invoice.txt', url: dataUrl('text/plain', TEXT) };
const SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: ['string', 'null'] },
    total: { type: ['number', 'null'] },
    purchase_order: { type: ['string', 'null'] },
  },
  required: ['invoice_number', 'total', 'purchase_order'],
};
const UNKNOWN = 'extr_01m7z0qenejn1pv4p44vpcbwww';

/** The job id Quire gives an extraction's sources: `src_` and the extraction id's time-sortable part. */
const jobIdOf = (extractionId: string) => `src_${extractionId.slice('extr_'.length)}`;

async function completedExtraction(): Promise<{ id: string; created_at: string; output: unknown }> {
  const r = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA } });
  expect(r.status, r.text).toBe(201);
  expect(r.body.status).toBe('completed');
  return r.body;
}

describe('POST /v1/extractions/{id}/sources', () => {
  it("a completed extraction: 200, GET's sources with the job completed, in either mode", async () => {
    const extraction = await completedExtraction();
    const plain = await cloud.api('GET', `/v1/extractions/${extraction.id}/sources`);
    expect(plain.status).toBe(200);
    expect(plain.body.job).toBeUndefined();
    expect(plain.body.sources.invoice_number.value).toBe('INV-2044');

    for (const mode of ['located', 'cited'] as const) {
      const r = await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: { mode, background: false } });
      expect(r.status, r.text).toBe(200);
      const { job, ...sources } = r.body;
      expect(sources).toEqual(plain.body);
      expect(job).toEqual({
        object: 'extraction.sources.job',
        id: jobIdOf(extraction.id),
        mode,
        status: 'completed',
        is_partial: false,
        revision: 1,
        updated_at: extraction.created_at,
        error: null,
      });
    }
  });

  it('what the Python SDK sends by default (background false, mode located), an empty body and no body answer alike', async () => {
    const extraction = await completedExtraction();
    const answers = [
      await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: { background: false, mode: 'located' } }),
      await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: {} }),
      await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`),
      // Python sends background=True for a "return at once": the job is complete all the same.
      await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: { background: true, retry: true, job_id: jobIdOf(extraction.id), unknown_field: 1 } }),
    ];
    for (const r of answers) {
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual(answers[0]!.body);
      expect(r.body.job.mode).toBe('located');
    }
  });

  it('the poll: GET …/sources with mode and job_id answers the same job', async () => {
    const extraction = await completedExtraction();
    const created = await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: { mode: 'cited' } });
    const polled = await cloud.api('GET', `/v1/extractions/${extraction.id}/sources?mode=cited&job_id=${created.body.job.id}`);
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual(created.body);
    const byIdAlone = await cloud.api('GET', `/v1/extractions/${extraction.id}/sources?job_id=${created.body.job.id}`);
    expect(byIdAlone.body.job).toMatchObject({ id: created.body.job.id, mode: 'located', status: 'completed' });
  });

  it('an unknown mode → 422 naming it, in the body and in the poll', async () => {
    const extraction = await completedExtraction();
    const r = await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: { mode: 'quoted' } });
    expect(r.status).toBe(422);
    expect(r.body.detail).toHaveLength(1);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'mode'], input: 'quoted' });
    expect(r.body.detail[0].msg).toMatch(/located.*cited/);
    const wrongType = await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: { background: 'yes' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.detail[0].loc).toEqual(['body', 'background']);
    const poll = await cloud.api('GET', `/v1/extractions/${extraction.id}/sources?mode=quoted`);
    expect(poll.status).toBe(422);
    expect(poll.body.detail[0]).toMatchObject({ loc: ['query', 'mode'], input: 'quoted' });
  });

  it('an unknown extraction → 404 naming it; a job id of another extraction → 409', async () => {
    const unknown = await cloud.api('POST', `/v1/extractions/${UNKNOWN}/sources`, { body: { mode: 'located' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: `Extraction ${UNKNOWN} not found` });
    const extraction = await completedExtraction();
    const other = jobIdOf(UNKNOWN);
    const wrongJob = await cloud.api('POST', `/v1/extractions/${extraction.id}/sources`, { body: { job_id: other } });
    expect(wrongJob.status).toBe(409);
    expect(wrongJob.body).toEqual({ detail: `Sources job ${other} is not the job of extraction ${extraction.id} (${jobIdOf(extraction.id)})` });
    expect((await cloud.api('GET', `/v1/extractions/${extraction.id}/sources?job_id=${other}`)).status).toBe(409);
  });

  it('while the extraction waits: 202, the job pending, Location to poll; cancelled → 409 as GET answers', async () => {
    const real = platform();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The runner's other methods kept (its cancel is asked below): only its start waits.
    const start: typeof real.runner.start = async (...args) => {
      await held;
      return real.runner.start(...args);
    };
    const runner = new Proxy(real.runner, { get: (target, name) => (name === 'start' ? start : Reflect.get(target, name)) });
    setPlatform({ ...real, runner });
    // bust_cache: an identical earlier request would be answered from the cache, never queued.
    const creating = cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, background: true, bust_cache: true } });
    try {
      const queued = await until(async () => (await cloud.api('GET', '/v1/extractions?status=queued&limit=1')).body.data[0]);
      const r = await cloud.api('POST', `/v1/extractions/${queued.id}/sources`, { body: { mode: 'located' } });
      expect(r.status, r.text).toBe(202);
      const location = `/v1/extractions/${queued.id}/sources?mode=located&job_id=${jobIdOf(queued.id)}`;
      expect(r.headers.get('location')).toBe(location);
      expect(r.body).toEqual({
        object: 'extraction.sources',
        extraction_id: queued.id,
        document_type: 'txt',
        file: queued.file,
        extraction: {},
        sources: {},
        job: { object: 'extraction.sources.job', id: jobIdOf(queued.id), mode: 'located', status: 'pending', is_partial: false, revision: 1, updated_at: queued.created_at, error: null },
      });
      const polled = await cloud.api('GET', location);
      expect(polled.status).toBe(200);
      expect(polled.body).toEqual(r.body);
      // GET without mode or job_id keeps its answer (API §6.2).
      expect((await cloud.api('GET', `/v1/extractions/${queued.id}/sources`)).status).toBe(409);

      expect((await cloud.api('POST', `/v1/extractions/${queued.id}/cancel`)).body.status).toBe('cancelled');
      const cancelled = await cloud.api('POST', `/v1/extractions/${queued.id}/sources`, { body: { mode: 'located' } });
      expect(cancelled.status).toBe(409);
      expect(cancelled.body).toEqual({ detail: `Extraction ${queued.id} has no output to source (status: cancelled)` });
    } finally {
      setPlatform(real);
      release();
      await creating;
    }
  });

  it('a background extraction: polling the Location ends with the job completed and the sources', async () => {
    const created = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, background: true, bust_cache: true } });
    expect(created.status).toBe(201);
    const first = await cloud.api('POST', `/v1/extractions/${created.body.id}/sources`, { body: { background: true } });
    expect([200, 202]).toContain(first.status);
    expect(first.body.job.status === 'completed').toBe(first.status === 200);
    const location = `/v1/extractions/${created.body.id}/sources?mode=located&job_id=${first.body.job.id}`;
    const done = await until(async () => {
      const polled = await cloud.api('GET', location);
      expect(polled.status).toBe(200);
      return polled.body.job.status === 'completed' ? polled.body : undefined;
    });
    const { job: _job, ...sources } = done;
    expect(sources).toEqual((await cloud.api('GET', `/v1/extractions/${created.body.id}/sources`)).body);
    expect(sources.sources.invoice_number).toMatchObject({ value: 'INV-2044', source: { content: 'INV-2044', anchor: { kind: 'text_span' } } });
  });
});
