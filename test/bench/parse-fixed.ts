/**
 * The fixed cost of a 1-page sync parse on `npm start` (issue 23: goal ≤ 40 ms): the wall time of a
 * sync POST /v1/parses through the whole API minus the time reading the same document takes in this
 * process — what the run's bookkeeping costs (authentication, the file, the run record, the state
 * machine's steps, the output), not the reading. Two documents: the smallest 1-page born-digital
 * corpus PDF and a one-line text file (whose read is next to nothing).
 *
 * Each round sends a new document (a repeated one finds its File and stored bytes and skips their
 * writes), then the same again; both are given.
 *
 * `npm run bench -- parse-fixed` (PARSE_FIXED_ROUNDS, default 25: medians of that many, after 3 warm-up runs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDocument } from '../../functions/documents/read.ts';
import { DEFAULT_DPI } from '../../functions/runs/document.ts';
import { CORPUS_DIR, manifest } from '../support/corpus.ts';
import { asNewDocument, withLocalStack } from './stack.ts';

const ROUNDS = Number(process.env.PARSE_FIXED_ROUNDS ?? 25);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

function onePagePdf(): { name: string; bytes: Buffer } {
  const files = manifest()
    .map((e) => e.path)
    .filter((p) => p.endsWith('.pdf'))
    .map((p) => ({ path: p, file: join(CORPUS_DIR, p) }))
    .filter((f) => /^Pages:\s+1$/m.test(execFileSync('pdfinfo', [f.file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })))
    .filter((f) => execFileSync('pdftotext', [f.file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(/\s+/).filter(Boolean).length >= 3)
    .sort((a, b) => readFileSync(a.file).length - readFileSync(b.file).length);
  return { name: files[0]!.path, bytes: readFileSync(files[0]!.file) };
}

export async function benchParseFixed(): Promise<void> {
  const pdf = onePagePdf();
  const documents: Array<{ label: string; kind: 'pdf' | 'txt'; mime: string; bytes: Buffer }> = [
    { label: `${pdf.name} (1 page, ${(pdf.bytes.length / 1024).toFixed(0)} KiB)`, kind: 'pdf', mime: 'application/pdf', bytes: pdf.bytes },
    { label: 'a one-line text file', kind: 'txt', mime: 'text/plain', bytes: Buffer.from('Quarterly report: revenue grew by 12 percent.\n') },
  ];
  await withLocalStack(async (stack) => {
    for (const doc of documents) {
      const bodyOf = (bytes: Buffer) => ({ document: { filename: `one.${doc.kind}`, url: `data:${doc.mime};base64,${bytes.toString('base64')}` }, bust_cache: true });
      for (let i = 0; i < 3; i++) await stack.timedRun('/v1/parses', bodyOf(asNewDocument(doc.bytes, doc.kind, 1000 + i)));
      const fresh: number[] = [];
      const again: number[] = [];
      const read: number[] = [];
      // Interleaved, so all see the same load.
      for (let round = 0; round < ROUNDS; round++) {
        const bytes = asNewDocument(doc.bytes, doc.kind, round);
        fresh.push(await stack.timedRun('/v1/parses', bodyOf(bytes)));
        again.push(await stack.timedRun('/v1/parses', bodyOf(bytes)));
        const started = performance.now();
        await readDocument(new Uint8Array(bytes), { kind: doc.kind, dpi: DEFAULT_DPI, deadline: Date.now() + 60_000 });
        read.push((performance.now() - started) / 1000);
      }
      const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
      const line = (what: string, api: number[]) =>
        `${doc.label}, ${what}: sync parse through the API median ${ms(median(api))} (p10 ${ms(quantile(api, 0.1))}, p90 ${ms(quantile(api, 0.9))}), ` +
        `reading it in process ${ms(median(read))} → fixed cost ${ms(median(api) - median(read))} (median of ${ROUNDS})`;
      console.log(line('a new document each time (what users send)', fresh));
      console.log(line('the same document again', again));
    }
  });
}

