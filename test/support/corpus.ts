/**
 * The real-document corpus (`../shared/corpus/`, beside the project): its manifest, its documents read
 * into the Doc model exactly as a run reads them, and the hand-read ground truth of `test/corpus-truth/`.
 *
 * Reading 50 scans takes minutes of OCR, so read Docs are cached under `.quire/corpus-docs/`, keyed by
 * the document's bytes and by the source of every reader (`functions/documents/`): a change to any
 * reader reads everything again. `QUIRE_CORPUS_CACHE=off` turns the cache off.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Doc } from '../../functions/documents/doc.ts';
import { readDocument } from '../../functions/documents/read.ts';
import { sniffDocument } from '../../functions/documents/sniff.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS_DIR = resolve(ROOT, process.env.QUIRE_CORPUS_DIR ?? '../shared/corpus');
export const TRUTH_DIR = join(ROOT, 'test/corpus-truth');
const CACHE_DIR = join(ROOT, '.quire/corpus-docs');

export interface ManifestEntry {
  path: string;
  type: string;
  /** Where it was copied from: the repository is the document's *source* (folds are by source). */
  source: { repo: string; commit: string; path: string };
  mime: string;
  pages: number;
  language: string;
  scanned: boolean;
  notes: string;
}

/**
 * The fold of each source (test/corpus-truth/folds.json, chosen before any tuning on the sources it
 * holds out): `tuned` (the rules were written on it: in-sample), `dev` (rules may be tuned on it),
 * `holdout` (never tuned on: the headline figures).
 */
export type Fold = 'tuned' | 'dev' | 'holdout';
export const FOLDS: readonly Fold[] = ['holdout', 'dev', 'tuned'];

let folds: Map<string, Fold> | undefined;
export function foldOf(repo: string): Fold {
  if (!folds) {
    const data = JSON.parse(readFileSync(join(TRUTH_DIR, 'folds.json'), 'utf8')) as Record<Fold, string[]>;
    folds = new Map(FOLDS.flatMap((fold) => data[fold].map((r) => [r, fold] as const)));
  }
  const fold = folds.get(repo);
  if (!fold) throw new Error(`Source ${repo} has no fold in test/corpus-truth/folds.json: give it one (dev or holdout) before measuring on it`);
  return fold;
}

export function corpusAvailable(): boolean {
  return existsSync(join(CORPUS_DIR, 'MANIFEST.json'));
}

export function manifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(join(CORPUS_DIR, 'MANIFEST.json'), 'utf8')) as ManifestEntry[];
}

export function corpusBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(CORPUS_DIR, path)));
}

let readersHash: string | undefined;
/** A hash of every reader's source: cached Docs are good only for the readers that made them. */
function readersVersion(): string {
  if (readersHash) return readersHash;
  const hash = createHash('sha256');
  const dir = join(ROOT, 'functions/documents');
  // Every file under it, data files in subfolders too (what readers know is part of what they read).
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath?: string; path?: string; isFile(): boolean }>)
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path ?? dir, entry.name))
    .sort();
  for (const file of files) hash.update(file.slice(dir.length)).update(readFileSync(file));
  // The OCR reader the environment picks (ocr.ts createOcrPool); nothing added for the default.
  hash.update(process.env.QUIRE_OCR ?? '');
  readersHash = hash.digest('hex').slice(0, 16);
  return readersHash;
}

const readInProcess = new Map<string, Promise<Doc>>();

/** The corpus document read into a Doc, as a run reads it (same readers, same OCR resolution). */
export function corpusDoc(path: string, options: { deadlineMs?: number } = {}): Promise<Doc> {
  let doc = readInProcess.get(path);
  if (!doc) {
    doc = readCorpusDoc(path, options);
    readInProcess.set(path, doc);
  }
  return doc;
}

async function readCorpusDoc(path: string, options: { deadlineMs?: number }): Promise<Doc> {
  const bytes = corpusBytes(path);
  const useCache = process.env.QUIRE_CORPUS_CACHE !== 'off';
  const key = createHash('sha256').update(bytes).update(readersVersion()).digest('hex').slice(0, 32);
  const cached = join(CACHE_DIR, `${key}.json`);
  if (useCache && existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as Doc;
  const { kind } = sniffDocument({ head: bytes.subarray(0, 65536), tail: bytes.subarray(Math.max(0, bytes.length - 65536)), size: bytes.length, filename: path });
  // Read as an extraction by the built-in engine reads it (the second reading is used only there).
  // QUIRE_CORPUS_DEADLINE_MS: a machine under other load may need longer than 10 minutes for the
  // corpus's longest OCR (a benchmark that re-reads the corpus stops at the first document over it).
  const deadlineMs = options.deadlineMs ?? Number(process.env.QUIRE_CORPUS_DEADLINE_MS ?? 600_000);
  const doc = await readDocument(bytes, { kind, dpi: 192, deadline: Date.now() + deadlineMs, secondReading: true });
  if (useCache) {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written whole, then renamed: test files running side by side never read half a file.
    const partial = `${cached}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(doc));
    renameSync(partial, cached);
  }
  return doc;
}

// ---- ground truth ----

/** Acceptable spellings, fullest first. */
export type TextTruth = string[] | null;

export interface ItemTruth {
  description: TextTruth;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
}

export interface ExtractionTruth {
  path: string;
  fields: {
    vendor_name: TextTruth;
    document_number: TextTruth;
    date: string | null;
    due_date?: string | null;
    total: number | null;
    subtotal: number | null;
    tax: number | null;
    currency: string | null;
    customer_name: TextTruth;
  };
  line_items: ItemTruth[] | null;
  notes?: string;
}

export interface SplitTruth {
  path: string;
  pages: number;
  segments: Array<{ type: string; pages: number[]; what?: string }>;
}

/** Truth folders that are not extraction truth: form filling (./form-eval.ts) and tables (./table-score.ts). */
const NOT_EXTRACTION = new Set(['form', 'tables']);

/** Every extraction truth file, by manifest path. */
export function extractionTruths(): ExtractionTruth[] {
  const out: ExtractionTruth[] = [];
  for (const type of readdirSync(TRUTH_DIR, { withFileTypes: true })) {
    if (!type.isDirectory() || NOT_EXTRACTION.has(type.name)) continue;
    for (const file of readdirSync(join(TRUTH_DIR, type.name)).sort()) {
      if (file.endsWith('.json')) out.push(JSON.parse(readFileSync(join(TRUTH_DIR, type.name, file), 'utf8')) as ExtractionTruth);
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The hand-read segments of the corpus files that hold several documents. */
export function splitTruths(): SplitTruth[] {
  const out: SplitTruth[] = [];
  for (const file of readdirSync(TRUTH_DIR).sort()) {
    if (file.startsWith('splits') && file.endsWith('.json')) out.push(...(JSON.parse(readFileSync(join(TRUTH_DIR, file), 'utf8')) as SplitTruth[]));
  }
  return out;
}
