/**
 * POST /v1/parses and its run routes (API §3, §0.5) through the real local stack: the parse task
 * reads the stored document in the run state machine for both sync and background creates.
 */
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionArnOf } from '../../../functions/platform/sfn-runner.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const CSV = 'name;qty;price\nApple;3;1.20\n"Pear, green";10;0.5\n';
const parse = (body: Record<string, unknown>) => cloud.api('POST', '/v1/parses', { body });
const csvDoc = { filename: 'fruit.csv', url: dataUrl('text/csv', CSV) };

describe('create', () => {
  it('parses a text file synchronously: one page, usage with page_count, every field of a Parse', async () => {
    const text = 'Quarterly report\n\nRevenue grew by 12 percent.\n';
    const r = await parse({ document: { filename: 'report.txt', url: dataUrl('text/plain', text) } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: 'completed',
      error: null,
      model: 'quire-local',
      table_parsing_format: 'html',
      image_resolution_dpi: 192,
      instructions: null,
      file: { filename: 'report.txt', mime_type: 'text/plain' },
      usage: { page_count: 1 },
    });
    expect(r.body.id).toMatch(/^prs_/);
    expect(r.body.output.pages).toHaveLength(1);
    expect(r.body.output.pages[0]).toContain('Revenue grew by 12 percent.');
    expect(r.body.output.text).toBe(r.body.output.pages.join('\n\n'));
    expect(r.body.usage.credits).toBeGreaterThan(0);
  });

  it('renders a table in each table_parsing_format; JSON parses back to the rows', async () => {
    const html = await parse({ document: csvDoc, table_parsing_format: 'html' });
    expect(html.body.output.pages[0]).toContain('<th>name</th>');
    expect(html.body.output.pages[0]).toContain('<td>Pear, green</td>');
    const md = await parse({ document: csvDoc, table_parsing_format: 'markdown' });
    expect(md.body.output.pages[0]).toMatch(/\| *name *\| *qty *\| *price *\|/);
    const json = await parse({ document: csvDoc, table_parsing_format: 'json' });
    expect(JSON.parse(json.body.output.pages[0].trim())).toEqual([
      { name: 'Apple', qty: '3', price: '1.20' },
      { name: 'Pear, green', qty: '10', price: '0.5' },
    ]);
    const yaml = await parse({ document: csvDoc, table_parsing_format: 'yaml' });
    expect(yaml.body.output.pages[0]).toContain('name: Apple');
    expect(yaml.body.table_parsing_format).toBe('yaml');
  });

  it('a background parse answers queued with the empty output, then completes', async () => {
    const r = await parse({ document: csvDoc, background: true, bust_cache: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'queued', output: { pages: [], text: '' }, error: null });
    const done = await until(async () => {
      const g = await cloud.api('GET', `/v1/parses/${r.body.id}`);
      return g.body.status === 'completed' ? g.body : undefined;
    });
    expect(done.output.pages).toHaveLength(1);
    const cheap = await cloud.api('GET', `/v1/parses/${r.body.id}?include_output=false`);
    expect(cheap.body.output).toEqual({ pages: [], text: '' });
    expect(cheap.body.usage).toEqual(done.usage);
  });

  it('answers an identical request from the cache as a new run, without running it; bust_cache runs it', async () => {
    const body = { document: { filename: 'cache.txt', url: dataUrl('text/plain', `cache me ${Date.now()}`) } };
    const first = await parse(body);
    const second = await parse(body);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.output).toEqual(first.body.output);
    expect(second.body.usage).toEqual(first.body.usage);
    const sfn = new SFNClient({ region: 'us-east-1', endpoint: cloud.endpoints.stepfunctions, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const describe = (id: string) => sfn.send(new DescribeExecutionCommand({ executionArn: executionArnOf(cloud.endpoints.runStateMachineArn, id) }));
    // The run that did the work had an execution; the cached answer never started one.
    expect((await describe(first.body.id)).name).toBe(first.body.id);
    await expect(describe(second.body.id)).rejects.toThrow(/does not exist/i);
    const busted = await parse({ ...body, bust_cache: true });
    expect((await describe(busted.body.id)).name).toBe(busted.body.id);
    // Other options are another request.
    const other = await parse({ ...body, table_parsing_format: 'markdown' });
    expect((await describe(other.body.id)).name).toBe(other.body.id);
  });
});

describe('bad input', () => {
  it('image_resolution_dpi below 72, an unknown format or model → 422 naming the field, nothing stored', async () => {
    const before = (await cloud.api('GET', '/v1/parses?limit=100')).body.data.length;
    for (const [body, loc] of [
      [{ document: csvDoc, image_resolution_dpi: 71 }, ['body', 'image_resolution_dpi']],
      [{ document: csvDoc, image_resolution_dpi: 100.5 }, ['body', 'image_resolution_dpi']],
      [{ document: csvDoc, table_parsing_format: 'xml' }, ['body', 'table_parsing_format']],
      [{ document: csvDoc, model: 'nope' }, ['body', 'model']],
      [{}, ['body', 'document']],
    ] as const) {
      const r = await parse(body as Record<string, unknown>);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
    expect((await cloud.api('GET', '/v1/parses?limit=100')).body.data.length).toBe(before);
  });

  it('a document that cannot be read: 422 synchronously, a failed run with document_invalid in the background', async () => {
    const broken = { filename: 'broken.pdf', url: dataUrl('application/pdf', '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n') };
    const sync = await parse({ document: broken });
    expect(sync.status).toBe(422);
    expect(sync.body.detail[0].loc).toEqual(['body', 'document']);
    expect(sync.body.detail[0].type).toBe('document_invalid');
    const background = await parse({ document: broken, background: true });
    expect(background.status).toBe(201);
    const done = await until(async () => {
      const g = await cloud.api('GET', `/v1/parses/${background.body.id}`);
      return g.body.status === 'failed' ? g.body : undefined;
    });
    expect(done.error.code).toBe('document_invalid');
    expect(done.error.message).toMatch(/PDF/);
  });
});

describe('list', () => {
  it('filters by filename prefix and status', async () => {
    await parse({ document: { filename: 'Zebra-notes.txt', url: dataUrl('text/plain', 'zebra') } });
    const r = await cloud.api('GET', '/v1/parses?filename=zebra&status=completed');
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThanOrEqual(1);
    expect(r.body.data.every((d: { file: { filename: string } }) => d.file.filename.toLowerCase().startsWith('zebra'))).toBe(true);
  });
});
