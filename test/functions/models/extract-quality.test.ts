/**
 * Extraction quality of the local engine on generated documents with known values and known places:
 * an invoice PDF, a bank statement PDF, a CSV, a two-sheet XLSX, a DOCX with a table, a TXT receipt
 * and a scanned invoice (OCR). Files are read by the real readers. Accuracies and IoU are printed.
 */
import { withNullableValues } from '../../../functions/models/nullable-schema.ts';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { ExtractResult } from '../../../functions/models/engine.ts';
import { extract } from '../../../functions/models/local/extract.ts';
import {
  type ExtractFixture,
  INVOICE_HEADER_PATHS,
  leafPaths,
  scannedInvoicePdf,
  score,
  type Score,
  textFixtures,
} from '../../support/extract-fixtures.ts';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

interface Run {
  fixture: ExtractFixture;
  doc: Doc;
  result: ExtractResult;
  ms: number;
}

const runs: Run[] = [];

async function run(fixture: ExtractFixture): Promise<Run> {
  const doc = await readDocument(fixture.bytes, { kind: fixture.kind, dpi: 200, deadline: Date.now() + 120_000 });
  const started = performance.now();
  const result = extract({ doc, schema: fixture.schema, instructions: null, nConsensus: 1, seed: `quality:${fixture.name}` });
  return { fixture, doc, result, ms: performance.now() - started };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

beforeAll(async () => {
  for (const fixture of [...(await textFixtures()), await scannedInvoicePdf()]) runs.push(await run(fixture));
}, 120_000);

describe('extraction quality (quire-local)', () => {
  it('gets every header field and every line item of the invoice PDF', () => {
    const { fixture, result } = runs.find((r) => r.fixture.name === 'invoice.pdf')!;
    const header = score(fixture, result.output, result.sources, INVOICE_HEADER_PATHS);
    const items = score(fixture, result.output, result.sources, leafPaths(fixture.expected).filter((p) => p.startsWith('line_items.')));
    console.log(`invoice.pdf: header fields ${header.right}/${header.leaves}, line-item fields ${items.right}/${items.leaves}`);
    expect(header.wrong).toEqual([]);
    expect(items.wrong).toEqual([]);
    expect((result.output.line_items as unknown[]).length).toBe((fixture.expected.line_items as unknown[]).length);
  });

  it('reaches ≥ 90% field accuracy overall (invoice, statement, CSV, XLSX, DOCX, TXT, scan)', () => {
    const scores: Score[] = runs.map(({ fixture, result }) => score(fixture, result.output, result.sources));
    for (const [i, s] of scores.entries()) {
      console.log(`${s.fixture.padEnd(20)} ${s.right}/${s.leaves} fields right (${pct(s.right / s.leaves)}), ${runs[i]!.ms.toFixed(1)} ms${s.wrong.length ? `; wrong: ${s.wrong.join('; ')}` : ''}`);
    }
    const right = scores.reduce((sum, s) => sum + s.right, 0);
    const leaves = scores.reduce((sum, s) => sum + s.leaves, 0);
    console.log(`overall field accuracy: ${right}/${leaves} (${pct(right / leaves)})`);
    expect(right / leaves).toBeGreaterThanOrEqual(0.9);
    // Each document on its own does well too (no format carried by the others).
    for (const s of scores) expect(s.right / s.leaves, s.fixture).toBeGreaterThanOrEqual(0.85);
  });

  it('locates values: PDF boxes IoU ≥ 0.7 for ≥ 95% of found leaves; cells and spans exact', () => {
    const boxes: number[] = [];
    for (const { fixture, result } of runs) {
      const s = score(fixture, result.output, result.sources);
      const box = s.provenance.filter((p) => p.kind === 'box').map((p) => p.score);
      const exact = s.provenance.filter((p) => p.kind === 'exact');
      if (box.length > 0) {
        const sorted = [...box].sort((a, b) => a - b);
        console.log(
          `${fixture.name.padEnd(20)} IoU over ${box.length} leaves: min ${sorted[0]!.toFixed(3)}, median ${sorted[sorted.length >> 1]!.toFixed(3)}, mean ${(box.reduce((a, b) => a + b, 0) / box.length).toFixed(3)}, ≥ 0.7: ${pct(box.filter((x) => x >= 0.7).length / box.length)}`,
        );
        if (!fixture.ocr) boxes.push(...box);
        else expect(box.filter((x) => x >= 0.7).length / box.length, fixture.name).toBeGreaterThanOrEqual(0.9);
      }
      if (exact.length > 0) {
        console.log(`${fixture.name.padEnd(20)} exact cells/spans: ${exact.filter((p) => p.score === 1).length}/${exact.length}`);
        expect(exact.filter((p) => p.score !== 1).map((p) => p.path), fixture.name).toEqual([]);
      }
    }
    expect(boxes.filter((x) => x >= 0.7).length / boxes.length).toBeGreaterThanOrEqual(0.95);
  });

  it('gives every output that validates against its schema, sources for found leaves only', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const { fixture, result } of runs) {
      const validate = ajv.compile(withNullableValues(fixture.schema));
      expect(validate(result.output), `${fixture.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      for (const path of leafPaths(result.output)) {
        const value = path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], result.output);
        const source = path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)?.[k], result.sources) as { content: string; context: string } | null;
        const likelihood = path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)?.[k], result.likelihoods);
        expect(typeof likelihood === 'number' && likelihood >= 0 && likelihood <= 1, `${fixture.name} ${path} likelihood`).toBe(true);
        if (value === null) expect(source, `${fixture.name} ${path}`).toBeNull();
        if (source) {
          expect(source.content.length).toBeGreaterThan(0);
          expect(source.context.length).toBeLessThanOrEqual(200);
          expect(source.context.replace(/\s+/g, ' ')).toContain(source.content.split(' ')[0]);
        }
      }
    }
  });
});
