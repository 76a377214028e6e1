/**
 * A long PDF's parse fans out over page ranges (issue 44 item 3; functions/parses/ranges.ts) through
 * the real local stack: the run machine's Ranges map, each range a task of its own, then the merge.
 * The fan-out's thresholds are lowered by environment so a real corpus document of 44 pages fans
 * out into ranges of 8 pages; with them unset the same document is read whole, and both answers must
 * be the same (running heads and feet are decided over the whole document, not per range).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseKind } from '../../../functions/parses/kind.ts';
import { pageRanges } from '../../../functions/parses/ranges.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { apartKeyOf, partKeyOf, type RunData } from '../../../functions/runs/service.ts';
import { resolveCaller } from '../../../functions/auth/service.ts';
import { CORPUS_DIR, corpusAvailable } from '../../support/corpus.ts';
import { startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
let long: Buffer;
beforeAll(async () => {
  cloud = await startTestCloud();
  // A contract with running heads and feet (38 pages), then a letter (6 pages): 44 real pages.
  const doc = await PDFDocument.create();
  for (const path of ['documents/power_purchase_agreement/ppa_sample2.pdf', 'documents/demand_letter/demand_letter_sample8.pdf']) {
    const source = await PDFDocument.load(readFileSync(join(CORPUS_DIR, path)));
    for (const page of await doc.copyPages(source, source.getPageIndices())) doc.addPage(page);
  }
  long = Buffer.from(await doc.save());
}, 60_000);
afterAll(() => cloud?.close());
afterEach(() => {
  delete process.env.QUIRE_PARSE_FAN_OUT_PAGES;
  delete process.env.QUIRE_PARSE_RANGE_PAGES;
});

const fanOutShort = () => {
  process.env.QUIRE_PARSE_FAN_OUT_PAGES = '10';
  process.env.QUIRE_PARSE_RANGE_PAGES = '8';
};
const document = (name: string) => ({ filename: name, url: `data:application/pdf;base64,${long.toString('base64')}` });
const record = async (id: string) => (await platform().store.getRecord<RunData>(await resolveCaller(platform(), cloud.keys.test), parseKind.type, id))?.data;

describe.skipIf(!corpusAvailable())('a long PDF fans out', () => {
  it('the merged output, usage and layout are those of the same document read whole', async () => {
    const whole = await cloud.api('POST', '/v1/parses', { body: { document: document('whole.pdf'), bust_cache: true } });
    expect(whole.status).toBe(201);
    expect(whole.body.status).toBe('completed');
    expect((await record(whole.body.id))?._ranges).toBeUndefined();

    fanOutShort();
    const fanned = await cloud.api('POST', '/v1/parses', { body: { document: document('fanned.pdf'), bust_cache: true } });
    expect(fanned.status).toBe(201);
    expect(fanned.body.status).toBe('completed');
    // It did fan out: 44 pages in 6 ranges, whose parts the merge deleted.
    const data = (await record(fanned.body.id))!;
    expect(data._ranges).toBe(6);
    const caller = await resolveCaller(platform(), cloud.keys.test);
    expect(await platform().blobs.head(partKeyOf(caller, parseKind, fanned.body.id, 0))).toBeUndefined();

    expect(fanned.body.output.pages).toHaveLength(44);
    expect(fanned.body.output).toEqual(whole.body.output);
    expect(fanned.body.usage).toEqual(whole.body.usage);
    expect(fanned.body.failed_pages).toEqual(whole.body.failed_pages);
    // The running foot of the contract is gone from every page, as in the whole read.
    const layout = async (id: string) => JSON.parse(Buffer.from((await platform().blobs.get(apartKeyOf(caller, parseKind, id, 'layout')))!).toString('utf8'));
    expect(await layout(fanned.body.id)).toEqual(await layout(whole.body.id));
    expect(fanned.body).not.toHaveProperty('progress');
  }, 180_000);

  it('shows pages done / total while in progress, and a cancel stops it and leaves no part behind', async () => {
    fanOutShort();
    const r = await cloud.api('POST', '/v1/parses', { body: { document: document('cancelled.pdf'), bust_cache: true, background: true } });
    expect(r.status).toBe(201);
    const going = await until(async () => {
      const g = await cloud.api('GET', `/v1/parses/${r.body.id}`);
      return g.body.progress?.pages_total === 44 ? g.body : undefined;
    }, 60_000, 'the fan-out to show its progress');
    expect(going.status).toBe('in_progress');
    expect(going.progress.pages_done).toBeGreaterThanOrEqual(0);
    expect(going.progress.pages_done).toBeLessThanOrEqual(44);
    const cancelled = await cloud.api('POST', `/v1/parses/${r.body.id}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    // Ranges running when it was cancelled stop, and whatever part was written is deleted.
    const caller = await resolveCaller(platform(), cloud.keys.test);
    await until(async () => {
      const heads = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => platform().blobs.head(partKeyOf(caller, parseKind, r.body.id, i))));
      return heads.every((head) => head === undefined) ? true : undefined;
    }, 30_000, 'the parts to be deleted');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await cloud.api('GET', `/v1/parses/${r.body.id}`)).body.status).toBe('cancelled');
  }, 180_000);
});

describe('page ranges of a fan-out', () => {
  const settings = { minPages: 200, rangePages: 100, fixedRanges: false, concurrency: 40 };
  const spans = (ranges: ReturnType<typeof pageRanges>) => ranges.map((r) => `${r.first}-${r.last}`);

  it('cuts 2,000 pages into 20 ranges of 100 on AWS (40 at once), and into one wave of longer ranges on 2 task containers', () => {
    expect(pageRanges(2000, settings)).toHaveLength(20);
    expect(spans(pageRanges(561, settings))).toEqual(['1-100', '101-200', '201-300', '301-400', '401-500', '501-561']);
    expect(spans(pageRanges(561, { ...settings, concurrency: 2 }))).toEqual(['1-281', '282-561']);
    // A range length set by environment (tests) holds whatever the concurrency.
    expect(spans(pageRanges(44, { ...settings, rangePages: 8, fixedRanges: true, concurrency: 2 }))).toEqual(['1-8', '9-16', '17-24', '25-32', '33-40', '41-44']);
  });
});
