/**
 * Runs the built-in engine on corpus documents and scores it against the hand-read truth: what
 * `npm run bench -- accuracy` prints and what the floors in `npm test` check.
 */
import type { Doc } from '../../functions/documents/doc.ts';
import { DocumentProblem } from '../../functions/documents/sniff.ts';
import { localEngine } from '../../functions/models/local/index.ts';
import { extract, localExtractor } from '../../functions/models/local/extract.ts';
import type { CandidateModel } from '../../functions/models/local/learned.ts';
import { locateValues } from '../../functions/models/locate.ts';
import { parseDate } from '../../functions/models/local/extract-values.ts';
import { secondReading } from '../../functions/models/local/two-readings.ts';
import { classify } from '../../functions/models/local/classify.ts';
import { split } from '../../functions/models/local/split.ts';
import { CLASSIFY_MODEL } from '../../functions/models/local/weights/classify-likelihood.ts';
import { SPLIT_PAGE_MODEL } from '../../functions/models/local/weights/split-pages.ts';
import { corpusDoc, type ExtractionTruth, type Fold, foldOf, manifest, type SplitTruth } from './corpus.ts';
import {
  addTo,
  type Bundle,
  CORPUS_CATEGORIES,
  expectedLabel,
  emptyTally,
  type FieldResult,
  type ItemField,
  type ItemsResult,
  mergeTally,
  normalizeText,
  SCHEMA_VARIANTS,
  type SchemaVariant,
  scoreFields,
  scoreItems,
  type Tally,
  type TruthField,
} from './corpus-score.ts';

export interface DocExtraction {
  path: string;
  type: string;
  /** Its source repository, and that source's fold. */
  source: string;
  fold: Fold;
  language: string;
  variant: string;
  fields: FieldResult[];
  items: ItemsResult;
  ms: number;
}

/**
 * `modelFor`: the learned candidate model to score each source's documents with (the benchmark's
 * held-out measurement gives each source the model fitted without it); by default the engine's own.
 */
export async function evaluateExtraction(
  truths: readonly ExtractionTruth[],
  variants: readonly SchemaVariant[],
  options: { modelFor?: (source: string) => CandidateModel | null } = {},
): Promise<DocExtraction[]> {
  const entries = new Map(manifest().map((e) => [e.path, e]));
  const out: DocExtraction[] = [];
  for (const truth of truths) {
    const entry = entries.get(truth.path);
    if (!entry) throw new Error(`${truth.path} is not in the corpus manifest`);
    const doc = await corpusDoc(truth.path);
    for (const variant of variants) {
      const started = performance.now();
      const request = { doc, schema: variant.schema, instructions: null, nConsensus: 1, seed: 'corpus' };
      const result = options.modelFor ? extract(request, { model: options.modelFor(entry.source.repo) }) : await localExtractor.extract(request);
      out.push({
        path: truth.path,
        type: entry.type,
        source: entry.source.repo,
        fold: foldOf(entry.source.repo),
        language: entry.language,
        variant: variant.name,
        fields: scoreFields(truth, variant, result.output, result.likelihoods),
        items: scoreItems(truth.line_items, variant, result.output),
        ms: performance.now() - started,
      });
    }
  }
  return out;
}

export interface ExtractionSummary {
  /** Header fields (vendor, number, dates, amounts, currency, customer), all together. */
  fields: Tally;
  /** Of those, the fields the document prints, and the fields it does not (a value there is wrong). */
  present: Tally;
  absent: Tally;
  byField: Map<TruthField, Tally>;
  byType: Map<string, Tally>;
  byLanguage: Map<string, Tally>;
  byVariant: Map<string, Tally>;
  byFold: Map<Fold, Tally>;
  bySource: Map<string, Tally>;
  items: { fields: Tally; byField: Map<ItemField, Tally>; found: number; missed: number; spurious: number };
}

const bump = <K>(map: Map<K, Tally>, key: K): Tally => {
  let t = map.get(key);
  if (!t) map.set(key, (t = emptyTally()));
  return t;
};

export function summarizeExtraction(results: readonly DocExtraction[]): ExtractionSummary {
  const s: ExtractionSummary = {
    fields: emptyTally(),
    present: emptyTally(),
    absent: emptyTally(),
    byField: new Map(),
    byType: new Map(),
    byLanguage: new Map(),
    byVariant: new Map(),
    byFold: new Map(),
    bySource: new Map(),
    items: { fields: emptyTally(), byField: new Map(), found: 0, missed: 0, spurious: 0 },
  };
  for (const r of results) {
    for (const f of r.fields) {
      addTo(s.fields, f.verdict);
      addTo(f.truth === null ? s.absent : s.present, f.verdict);
      addTo(bump(s.byField, f.field), f.verdict);
      addTo(bump(s.byType, r.type), f.verdict);
      addTo(bump(s.byLanguage, r.language), f.verdict);
      addTo(bump(s.byVariant, r.variant), f.verdict);
      addTo(bump(s.byFold, r.fold), f.verdict);
      addTo(bump(s.bySource, r.source), f.verdict);
    }
    for (const [field, tally] of Object.entries(r.items.fields) as Array<[ItemField, Tally]>) {
      mergeTally(s.items.fields, tally);
      mergeTally(bump(s.items.byField, field), tally);
    }
    s.items.found += r.items.found;
    s.items.missed += r.items.missed;
    s.items.spurious += r.items.spurious;
  }
  return s;
}

// ---- classification ----

export interface ClassificationResult {
  path: string;
  fold: Fold;
  expected: string;
  got: string;
  likelihood: number;
  reasoning: string;
  /** What the likelihood was computed from (CLASSIFY_FEATURES; none for an unreadable document). */
  features: number[] | null;
  source: string;
}

export async function evaluateClassification(paths: readonly string[], categories: ReadonlyArray<{ name: string; description: string }> = CORPUS_CATEGORIES): Promise<ClassificationResult[]> {
  const entries = new Map(manifest().map((e) => [e.path, e]));
  const out: ClassificationResult[] = [];
  for (const path of paths) {
    const source = entries.get(path)!.source.repo;
    let doc: Doc;
    try {
      doc = await corpusDoc(path);
    } catch (error) {
      // A document Quire cannot read (an EPUB) is counted, as wrong: a user gets a 422 for it.
      if (!(error instanceof DocumentProblem)) throw error;
      out.push({ path, fold: foldOf(source), source, expected: entries.get(path)!.type, got: `(unreadable: ${error.code})`, likelihood: 0, reasoning: error.message, features: null });
      continue;
    }
    // (The engine's own classification, as localEngine.classify runs it, with its features kept.)
    let features: number[] = [];
    const result = classify({ doc, categories: [...categories], instructions: null, firstNPages: undefined, nConsensus: 1, seed: 'corpus' }, { model: CLASSIFY_MODEL, trace: (x) => (features = x) });
    out.push({ path, fold: foldOf(source), source, expected: entries.get(path)!.type, got: result.output.category, likelihood: result.consensus.likelihoods, reasoning: result.output.reasoning, features });
  }
  return out;
}

// ---- splits ----

let sources: Map<string, string> | undefined;
/** The source repository of a corpus document. */
function sourceOf(path: string): string {
  sources ??= new Map(manifest().map((e) => [e.path, e.source.repo]));
  return sources.get(path)!;
}

export interface SplitCase {
  name: string;
  /** The expected name of every page (1-based page i at i-1). */
  expected: string[];
  got: string[];
  /** The likelihood given with each page's name. */
  likelihoods: number[];
  /** What each page's likelihood was computed from (SPLIT_PAGE_FEATURES). */
  features: number[][];
  /** The fold of each page's source. */
  folds: Fold[];
  /** Each page's source (repository). */
  sources: string[];
}

const describe = (name: string) => CORPUS_CATEGORIES.find((c) => c.name === name)?.description ?? name.replace(/_/g, ' ');

async function splitPages(doc: Doc, subdocuments: readonly string[]): Promise<{ got: string[]; likelihoods: number[]; features: number[][] }> {
  let features: number[][] = [];
  const request = { doc, subdocuments: subdocuments.map((name) => ({ name, description: describe(name), allow_multiple_instances: true })), instructions: null, nConsensus: 1, seed: 'corpus' };
  // (The engine's own split, as localEngine.split runs it, with its features kept.)
  const result = split(request, { model: SPLIT_PAGE_MODEL, trace: (x) => (features = x) });
  const got = new Array<string>(doc.pages.length).fill('other');
  const likelihoods = new Array<number>(doc.pages.length).fill(0);
  result.output.forEach((entry, e) =>
    entry.pages.forEach((page, i) => {
      got[page - 1] = entry.name;
      likelihoods[page - 1] = result.consensus.likelihoods[e]!.pages[i]!;
    }),
  );
  return { got, likelihoods, features };
}

/** A bundle as one Doc: each part's first pages, one after the other, renumbered (a PDF; one part keeps its file's format). */
async function bundleDoc(bundle: Bundle): Promise<Doc> {
  const pages = [];
  let kind: Doc['kind'] = 'pdf';
  for (const part of bundle.parts) {
    const doc = await corpusDoc(part.path);
    pages.push(...doc.pages.slice(0, part.pages));
    if (bundle.parts.length === 1) kind = doc.kind;
  }
  return { kind, pages: pages.map((page, i) => ({ ...page, number: i + 1 })) };
}

export async function evaluateBundles(bundles: readonly Bundle[]): Promise<SplitCase[]> {
  const out: SplitCase[] = [];
  for (const [i, bundle] of bundles.entries()) {
    const doc = await bundleDoc(bundle);
    const expected = bundle.parts.flatMap((part) => new Array<string>(part.pages).fill(expectedLabel(part.type, bundle.subdocuments)));
    const sources = bundle.parts.flatMap((part) => new Array<string>(part.pages).fill(sourceOf(part.path)));
    const folds = sources.map(foldOf);
    const name = `bundle ${i + 1}: ${bundle.parts.map((p) => `${p.path.split('/').pop()}×${p.pages}`).join(' + ')} | asked ${bundle.subdocuments.join(', ')}`;
    out.push({ folds, sources, name, expected, ...(await splitPages(doc, bundle.subdocuments)) });
  }
  return out;
}

/** The corpus files that hold several documents, split with the types their truth names. */
export async function evaluateCorpusBundles(truths: readonly SplitTruth[]): Promise<SplitCase[]> {
  const out: SplitCase[] = [];
  for (const truth of truths) {
    const doc = await corpusDoc(truth.path);
    const expected = new Array<string>(truth.pages).fill('other');
    for (const segment of truth.segments) for (const page of segment.pages) expected[page - 1] = segment.type;
    const asked = [...new Set(truth.segments.map((s) => s.type).filter((t) => t !== 'other'))].sort();
    const sources = new Array<string>(truth.pages).fill(sourceOf(truth.path));
    out.push({ name: `${truth.path} | asked ${asked.join(', ')}`, expected, folds: sources.map(foldOf), sources, ...(await splitPages(doc, asked)) });
  }
  return out;
}

/**
 * Pages right of all pages (of the pages whose source is in `fold`, when given), and the others apart:
 * `missed`, a page of an asked type given as "other" (an honest "none of these"); `wrong`, a page
 * given a type it is not (a confident answer that is not right).
 */
export function pageAccuracy(cases: readonly SplitCase[], fold?: Fold): { right: number; missed: number; wrong: number; pages: number } {
  let right = 0;
  let missed = 0;
  let wrong = 0;
  let pages = 0;
  for (const c of cases) {
    c.expected.forEach((name, i) => {
      if (fold && c.folds[i] !== fold) return;
      pages++;
      if (c.got[i] === name) right++;
      else if (c.got[i] === 'other') missed++;
      else wrong++;
    });
  }
  return { right, missed, wrong, pages };
}

// ---- provenance of values a model returns ----

export interface LocateResult {
  values: number;
  located: number;
  /** Located, but the printed text there does not read as the value. */
  misread: number;
  missed: Array<{ path: string; field: string; value: unknown }>;
}

/**
 * Provenance for provider answers (./functions/models/locate.ts), measured with a model that always
 * answers right: each document's truth, written as the English schema's output, is located in the
 * Doc. A value is located when it gets a source; the source's text must read as the value.
 */
export async function evaluateLocate(truths: readonly ExtractionTruth[]): Promise<LocateResult> {
  const variant = SCHEMA_VARIANTS[0]!;
  const result: LocateResult = { values: 0, located: 0, misread: 0, missed: [] };
  for (const truth of truths) {
    const doc = await corpusDoc(truth.path);
    const output: Record<string, unknown> = {};
    for (const [field, path] of Object.entries(variant.fields)) {
      const value = truth.fields[field as keyof ExtractionTruth['fields']];
      if (value === null || value === undefined) continue;
      output[path[0]!] = Array.isArray(value) ? value[0] : value;
    }
    const sources = locateValues(doc, output, variant.schema) as Record<string, { content: string } | null>;
    for (const [key, value] of Object.entries(output)) {
      result.values++;
      const found = sources[key];
      if (!found) {
        result.missed.push({ path: truth.path, field: key, value });
        continue;
      }
      result.located++;
      const content = found.content;
      const digits = (s: string) => s.replace(/[^\d]/g, '').replace(/^0+/, '');
      const reads =
        typeof value === 'number'
          ? digits(content).includes(digits(value.toFixed(2)).replace(/0+$/, '')) || digits(content).includes(String(Math.round(value)))
          : key === 'currency' || key === 'invoice_date' || key === 'due_date'
            ? true
            : normalizeText(content).includes(normalizeText(String(value)).slice(0, 6));
      if (!reads) result.misread++;
    }
  }
  return result;
}

/**
 * What reading allows: of the header values a document prints, how many appear in its parsed text
 * (amounts as printed with or without thousands separators, names ignoring case and punctuation, dates
 * as any date the text parses to). A value the text does not hold cannot be extracted by any rule, so
 * (these + the fields the document does not print) / all fields is the ceiling of header accuracy
 * with this reading. Currencies are counted as readable (a symbol or a country settles them).
 */
/**
 * How many printed header values are in the parsed text at all (`inText`), and in the text of either
 * reading where scans were read twice (`inEither`: models/local/two-readings.ts).
 */
export async function readingCeiling(truths: readonly ExtractionTruth[]): Promise<{ printed: number; inText: number; inEither: number; absent: number }> {
  let printed = 0;
  let inText = 0;
  let inEither = 0;
  let absent = 0;
  for (const truth of truths) {
    const doc = await corpusDoc(truth.path);
    const second = secondReading(doc);
    for (const [field, want] of Object.entries(truth.fields)) {
      if (want === null) {
        absent++;
        continue;
      }
      printed++;
      const first = printedIn(doc, field, want);
      if (first) inText++;
      if (first || (second && printedIn(second, field, want))) inEither++;
    }
  }
  return { printed, inText, inEither, absent };
}

/** Whether a header value's truth is printed in the document's text (as a bench can tell: letters and digits, amounts, dates). */
function printedIn(doc: Doc, field: string, want: unknown): boolean {
  const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const lines = doc.pages.flatMap((p) => p.lines.map((l) => l.text));
  const text = lines.join('\n');
  const plain = text.replace(/(\d)[ ,.](?=\d{3}\b)/g, '$1');
  if (typeof want === 'number') return plain.includes(want.toFixed(2)) || plain.includes(want.toFixed(2).replace('.', ',')) || new RegExp(`(^|[^\\d.,])${want}([^\\d.,]|$)`).test(plain);
  if (Array.isArray(want)) return want.some((s: string) => letters(text).includes(letters(s)));
  if (field === 'currency') return true;
  if (typeof want !== 'string') return false;
  return lines.some((line) => {
    const words = line.split(/\s+/);
    return words.some((_, i) => (['mdy', 'dmy'] as const).some((order) => parseDate(words.slice(i, i + 4).join(' ').replace(/^[^\d\p{L}]+/u, ''), order)?.iso === want));
  });
}
