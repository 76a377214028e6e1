/**
 * Splitting (API §4.1): every page is scored against every subdocument (./evidence.ts), then the best
 * contiguous labelling is chosen by dynamic programming — a chain over pages where changing label
 * costs a penalty, cheaper where a page looks like a first page ("Page 1 of 2", a new document
 * number, the subdocument's name as a title) and dearer where it looks like a continuation ("Page 2
 * of 3", "continued", the same document number). A page goes to "other" when it has too little
 * evidence for any subdocument, or more for a kind of document nobody asked for (a packing list among
 * invoices: the lexicon's undeclared kinds, each a state of the chain). Each document the chain found
 * is then read again as a whole, as classification reads a document, and named by that reading
 * (relabelSegments). Runs of a multi-instance subdocument are cut into instances at first-page cues.
 *
 * Votes: pages are read and counted once; a vote re-weights features (bagging) and reruns the
 * chain, which is cheap (pages × labels²).
 */
import type { Doc, Page } from '../../documents/doc.ts';
import type { DocumentKind } from '../../documents/sniff.ts';
import type { SplitRequest, SplitResult } from '../engine.ts';
import { consolidateSplits, normalizeKey, OTHER, type SplitVote } from '../shared/consensus.ts';
import type { LayoutCue } from '../knowledge/document-types.ts';
import { layoutCues, pageFormatCues } from './cues.ts';
import { boundedLogit, type LogisticModel, probabilityOf } from './logistic-model.ts';
import { buildQueries, cueScores, labelScores, pagesEvidence, type Queries, type TextEvidence, textEvidence, titleLines } from './evidence.ts';
import { anyNumberLabel, findLabeledDates, findLabeledValues, hasDate, pageMarker, type PageMarker, sameLabel, titleNumbers } from './identifiers.ts';
import { EMAIL } from './extract-values.ts';
import { votedWeights } from './random.ts';
import { countFeatures, type PageLine, pageLines, scoreShares } from './text.ts';
import { CLASSIFY_WEIGHTS } from './weights/classify.ts';
import { EVIDENCE_WEIGHTS } from './weights/evidence.ts';
import { SPLIT_WEIGHTS } from './weights/split.ts';
import { SPLIT_PAGE_MODEL } from './weights/split-pages.ts';

/** A page on other paper that starts a document: the change costs nothing more (the start bonus made up for the rest). */
const NEW_PAPER_START = SPLIT_WEIGHTS.switchPenalty - SPLIT_WEIGHTS.startBonus;

/**
 * What a page's likelihood is learned from (`npm run train`, test/train/split-pages.ts), in the
 * order of the model's weights. All but the last two are of the document (segment) the page is in.
 */
export const SPLIT_PAGE_FEATURES = [
  /** logit of the segment's label's share of the evidence (subdocuments and the best unasked kind) */
  'segment_share',
  /** log of the label's evidence over the runner-up's (for "other": the unasked kind's over the best subdocument's) */
  'segment_margin',
  /** log(1 + the segment's pages) */
  'segment_pages',
  /** the label is "other" */
  'is_other',
  /** logit of the page's posterior, for its label before segments were read, in the chain of pages */
  'chain_posterior',
  /** reading the segment whole kept the chain's label */
  'chain_agrees',
  /** the page's own best label (subdocuments and unasked kinds as "other") is the label */
  'page_agrees',
  /** the page has fewer words than a page needs to say anything alone */
  'page_short',
  /** the share of the segment's pages whose own best label is the segment's */
  'segment_agreement',
  /** the segment runs over a change of paper (size, or scanned and born-digital) */
  'segment_mixed_paper',
  /** segment_share and segment_margin again for "other" (it is right on other terms than a subdocument) */
  'other_share',
  'other_margin',
] as const;

export interface SplitOptions {
  /** The page likelihood model (null: a page's likelihood is its segment's share of the evidence). */
  model: LogisticModel | null;
  /** Given each vote's features of every page (SPLIT_PAGE_FEATURES), for training and measuring. */
  trace?: (features: number[][]) => void;
}

export function split(request: SplitRequest, options: SplitOptions = { model: SPLIT_PAGE_MODEL }): SplitResult {
  const n = Math.max(1, Math.floor(request.nConsensus));
  const pageCount = request.doc.pages.length;
  const multiple = new Set(request.subdocuments.filter((s) => s.allow_multiple_instances).map((s) => s.name));
  const multipleInstances = (name: string) => multiple.has(name);
  if (pageCount === 0) {
    return consolidateSplits(Array.from({ length: n }, () => ({ entries: [], confidence: 0 })), { pageCount, multipleInstances });
  }

  const model = readPages(request.doc, request);
  const votes: SplitVote[] = [];
  for (let v = 0; v < n; v++) {
    const bag = n === 1 ? null : votedWeights(model.queries.features, request.seed, v, n, SPLIT_WEIGHTS.featureSpread);
    votes.push(runVote(model, bag, multiple, options));
  }
  return consolidateSplits(votes, { pageCount, multipleInstances });
}

// ---------------------------------------------------------------------------------------------
// What is read once per request

interface PageModel {
  queries: Queries;
  /** Per page: what its title lines and its layout cues add to each label (as in classification). */
  extra: Float64Array[];
  /** Output names of the chain's states: the subdocuments, then "other". */
  names: string[];
  evidence: TextEvidence[];
  /** Label-independent first-page cues per page (positive: starts a document). */
  start: number[];
  /** Per page: whether it is printed on the same paper as the page before (size, scanned or not). */
  samePaper: boolean[];
  /** Per page: whether its header has a labeled document number or date (what first pages print). */
  header: boolean[];
  /** Per page, per subdocument: whether one of its names is the page's title. */
  titled: Uint8Array[];
  pages: readonly Page[];
  /** The file's format (a deck's, a web page's pages are of it: pageFormatCues). */
  kind: DocumentKind;
  lines: PageLine[][];
  /** Segments read as a whole (relabelSegments), by "from:to": their evidence, title evidence and layout cue scores. */
  segments: Map<string, { evidence: TextEvidence; title: TextEvidence; cues: Float64Array }>;
  /** The chain of kinds (kindsOf), once read. */
  kinds?: Int32Array;
}

function readPages(doc: Doc, request: SplitRequest): PageModel {
  const queries = buildQueries(request.subdocuments, request.instructions, { background: true });
  const lines = doc.pages.map((page) => pageLines(page));
  const evidence = pagesEvidence(queries, lines);
  const { start, header, samePaper } = startCues(doc.pages, lines);
  const runCues = paperRunCues(doc.pages, lines, samePaper, queries);
  const extra = doc.pages.map((page, p) => {
    const title = labelScores(queries, textEvidence(queries, titleLines(lines[p]!), CLASSIFY_WEIGHTS.averagePageTokens), null);
    const cues = cueScores(queries, [...layoutCues([page], [lines[p]!]), ...pageFormatCues(doc.kind, [page])]);
    return title.map((t, l) => EVIDENCE_WEIGHTS.title * t + cues[l]! + runCues[p]![l]!);
  });
  return { queries, extra, names: [...queries.labels.slice(0, queries.visible), OTHER], evidence, start, header, samePaper, titled: lines.map((l) => titles(queries, l)), pages: doc.pages, kind: doc.kind, lines, segments: new Map() };
}

/** Layout cues only a run of pages shows (./cues.ts: landscape slides with little text, three or more). */
const RUN_CUES: ReadonlySet<LayoutCue> = new Set(['slides']);

/**
 * What the layout of each run of pages on the same paper adds to each label, for the cues one page
 * cannot show alone: a deck is slides, but a single landscape page is no deck.
 */
function paperRunCues(pages: readonly Page[], lines: readonly PageLine[][], samePaper: readonly boolean[], queries: Queries): Float64Array[] {
  const scores: Float64Array[] = pages.map(() => new Float64Array(queries.labels.length));
  let first = 0;
  for (let p = 1; p <= pages.length; p++) {
    if (p < pages.length && samePaper[p]) continue;
    const cues = layoutCues(pages.slice(first, p), lines.slice(first, p)).filter((c) => RUN_CUES.has(c.cue));
    if (cues.length > 0) {
      const run = cueScores(queries, cues);
      for (let q = first; q < p; q++) scores[q] = run;
    }
    first = p;
  }
  return scores;
}

/** A numbered heading ("5. Confidentiality", "2.1 Term") is a section, never a document title. */
const NUMBERED = /^\(?\d+(?:\.\d+)*[.)]?\s/;

/**
 * Per label: whether one of its names is the page's title — in its first two lines, on a short line
 * that is not a numbered section heading ("INVOICE", "Statement of Account", not "14. Entire Agreement").
 */
function titles(queries: Queries, lines: readonly PageLine[]): Uint8Array {
  const titled = new Uint8Array(queries.visible);
  const heads = lines.slice(0, SPLIT_WEIGHTS.titleLines).filter((line) => !NUMBERED.test(line.text) && line.text.split(' ').length <= SPLIT_WEIGHTS.titleWords);
  if (heads.length === 0) return titled;
  for (const id of countFeatures(heads, queries.index).counts.keys()) {
    for (let l = 0; l < queries.visible; l++) if (queries.nameFeatures[l]!.has(id)) titled[l] = 1;
  }
  return titled;
}

/**
 * How much each page looks like the first page of a document, from what any document prints:
 * "Page 1 of n" (+3) or "Page k of n" (−5), "continued" (−3), its header's labeled numbers and
 * dates against those of the document so far: a changed one (+3) starts a document, the same one
 * (−3) continues it; and the running head or foot of the page before printed again (−3).
 */
function startCues(pages: readonly Page[], lines: readonly PageLine[][]): { start: number[]; header: boolean[]; samePaper: boolean[] } {
  const start: number[] = [];
  const header: boolean[] = [];
  const samePaper: boolean[] = [];
  let context = new Map<string, string>();
  // The last page with words: a blank page between two pages (read by OCR or not, it found nothing)
  // says nothing about the paper, so the page after it is compared with the page before it.
  let lastWithWords: number | undefined;
  // Whether that page printed an e-mail address in its header.
  let lastMailed = false;
  const markers = lines.map((l) => pageMarker(l));
  const contents = pages.map((page, p) => layoutCues([page], [lines[p]!]).some((c) => c.cue === 'contents'));
  pages.forEach((page, p) => {
    const marker = markers[p]!;
    let score = 0;
    // Another paper size, or a scan after born-digital pages: most likely another document. The same
    // paper with nothing that starts a document: most likely the same one.
    const blank = lines[p]!.length === 0;
    const previous = lastWithWords === undefined ? undefined : pages[lastWithWords]!;
    const otherSize = previous && (page.unit !== previous.unit || Math.abs(page.width - previous.width) > SPLIT_WEIGHTS.otherSizeShare * previous.width || Math.abs(page.height - previous.height) > SPLIT_WEIGHTS.otherSizeShare * previous.height);
    const otherPaper = previous && (otherSize || (!blank && page.ocr !== previous.ocr));
    // A blank page on other paper between two pages under the same running head (a report's blank
    // legal-size sheet before its legal-size chapters) starts nothing: it is inside the document.
    if (otherPaper && !(blank && betweenRunningHeads(lines, lastWithWords, p))) score += SPLIT_WEIGHTS.pageChange;
    samePaper.push(Boolean(previous) && !otherPaper);
    if (marker.index === 1) score += SPLIT_WEIGHTS.firstPageMarker;
    else if (marker.index !== undefined && marker.index > 1 && (!otherPaper || followsMarker(markers[p - 1], marker))) score -= SPLIT_WEIGHTS.laterPageMarker;
    if (marker.continued) score -= SPLIT_WEIGHTS.continued;
    // A table of contents running on from the page before (dot leaders to page numbers on both).
    if (p > 0 && contents[p] && contents[p - 1]) score -= SPLIT_WEIGHTS.contentsRunOn;
    const top = headerLines(lines[p]!);
    const facts = [
      ...findLabeledValues(page, lines[p]!, anyNumberLabel, { maxLines: top, requireNumberWord: true, minLength: SPLIT_WEIGHTS.headerNumberLength, below: true }),
      ...titleNumbers(lines[p]!),
      ...findLabeledDates(lines[p]!, top),
    ];
    let changed = false;
    let same = false;
    for (const { label, value } of facts) {
      for (const [knownLabel, known] of context) {
        if (!sameLabel(knownLabel, label)) continue;
        if (known === normalizeKey(value)) same = true;
        else changed = true;
      }
    }
    // One changed fact outweighs any that stayed (a monthly payslip keeps the employee number, not the date).
    if (changed) score += SPLIT_WEIGHTS.changedHeaderFact;
    else if (same) score -= SPLIT_WEIGHTS.sameHeaderFact;
    // An e-mail address in the header where the page before printed none there: a letterhead, a CV's
    // contact line, a message's sender — what a document prints over its first page.
    const mail = lines[p]!.slice(0, top).some((l) => EMAIL.test(l.text));
    if (mail && lastWithWords !== undefined && !lastMailed && marker.index === undefined) score += SPLIT_WEIGHTS.headerEmail;
    // The running head or foot of the page before (with words) printed again (a report's title over
    // every page), and nothing printed that starts a document: a page of the same document, even on
    // other paper (a report's letter pages, then its legal-size ones).
    if (lastWithWords !== undefined && !changed && marker.index !== 1 && sharesRunningLine(lines[p]!, lines[lastWithWords]!)) score -= SPLIT_WEIGHTS.runningHead;
    if (!blank) {
      lastWithWords = p;
      lastMailed = mail;
    }
    start.push(score);
    // A first page prints a number or a date in its header, or dates its opening sentence ("made on 7 July 2024").
    header.push(facts.length > 0 || (top > 0 && isProse(lines[p]![top - 1]!.text) && hasDate(lines[p]![top - 1]!.text)));
    // A new document starts a new context; otherwise the page's facts join the current one.
    if (p === 0 || score >= SPLIT_WEIGHTS.startThreshold) context = new Map();
    for (const { label, value } of facts) context.set(label, normalizeKey(value));
  });
  return { start, header, samePaper };
}

/** Whether the pages with words around blank page `p` (the last before it, the first after it) share a running head or foot. */
function betweenRunningHeads(lines: readonly PageLine[][], before: number | undefined, p: number): boolean {
  let next = p + 1;
  while (next < lines.length && lines[next]!.length === 0) next++;
  return before !== undefined && next < lines.length && sharesRunningLine(lines[next]!, lines[before]!);
}

/** A line's words of letters, for comparing running heads (their page numbers and dates left out). */
const runningWords = (line: PageLine | undefined) => (line?.text.toLowerCase().match(/\p{L}{3,}/gu) ?? []).join(' ');

/** Whether two pages print the same first line or the same last line, of SPLIT_WEIGHTS.runningHeadWords words or more. */
function sharesRunningLine(page: readonly PageLine[], before: readonly PageLine[]): boolean {
  const same = (a: PageLine | undefined, b: PageLine | undefined) => {
    const words = runningWords(a);
    return words.split(' ').length >= SPLIT_WEIGHTS.runningHeadWords && words === runningWords(b);
  };
  return same(page[0], before[0]) || same(page[page.length - 1], before[before.length - 1]);
}

/**
 * "Page 2 of 5" continues the page before when that page is on the same paper, or is marked as the
 * page before it ("Page 1 of 5"). After a page of other paper that says nothing of it, it is a page
 * whose document began elsewhere: no sign of continuing this one.
 */
function followsMarker(before: PageMarker | undefined, marker: PageMarker): boolean {
  return before?.index === marker.index! - 1 && (before.total === undefined || marker.total === undefined || before.total === marker.total);
}

/** A sentence of running text, not a field, a row or a heading. */
const isProse = (text: string) => {
  const words = text.split(' ').length;
  return (words >= SPLIT_WEIGHTS.proseWords && /[.;:]$/.test(text)) || words >= SPLIT_WEIGHTS.proseWordsAnyEnd;
};

/** A page's header: its lines up to and including the first sentence of running text (at most SPLIT_WEIGHTS.headerLines). */
function headerLines(lines: readonly PageLine[]): number {
  const limit = Math.min(lines.length, SPLIT_WEIGHTS.headerLines);
  for (let l = 0; l < limit; l++) if (isProse(lines[l]!.text)) return l + 1;
  return limit;
}

/**
 * Whether page p starts a new instance of label s: its own cues, plus its title naming s (more
 * when its header also prints a number or a date, as first pages do). A title alone is not enough:
 * running heads repeat titles on every page.
 */
function startsInstance(model: PageModel, p: number, s: number): boolean {
  const titled = model.titled[p]![s]! ? SPLIT_WEIGHTS.titleStart + (model.header[p] ? SPLIT_WEIGHTS.headerStart : 0) : 0;
  return model.start[p]! + titled >= SPLIT_WEIGHTS.startThreshold;
}

// ---------------------------------------------------------------------------------------------
// One vote

/** A vote's chain over the pages: each page's evidence for every label, how it becomes a state's log share, and what a change of state costs. */
function chainOf(model: PageModel, bag: Float64Array | null) {
  const visible = model.queries.visible;
  const found: number[] = [];
  // Each page's evidence for every label (the subdocuments, then the kinds nobody asked for).
  const scored = model.evidence.map((evidence, p) => {
    const all = labelScores(model.queries, evidence, bag);
    for (let l = 0; l < all.length; l++) all[l] += model.extra[p]![l]!;
    found.push(Math.max(0, ...all));
    return all;
  });
  // A page with much less evidence than the document's typical page (a page of tables inside a press
  // release, an appendix) is read weakly: alone it cannot outweigh its neighbours.
  const strongest = scored.map((scores) => Math.max(SPLIT_WEIGHTS.otherScore, ...scores)).sort((a, b) => a - b);
  const typical = strongest[strongest.length >> 1] ?? 0;
  /** Log shares of each page's state scores; the last state is "other". */
  const emissionsOf = (states: number[][]) =>
    states.map((scores, p) => {
      // A blank page (a scan's back side) says next to nothing: it goes with the pages around it, or to
      // "other" when nothing is around it. So does a cover: a short page that starts new paper and names
      // nothing any document type uses (a title slide saying "Welcome").
      const silent = model.evidence[p]!.length < SPLIT_WEIGHTS.weakMinTokens && found[p]! <= 0 && (p === 0 || model.start[p]! >= SPLIT_WEIGHTS.startThreshold);
      if (model.evidence[p]!.length === 0 || silent) return scores.map((_, l) => (l === scores.length - 1 ? 0 : SPLIT_WEIGHTS.blankPage));
      const logs = scoreShares(scores, SPLIT_WEIGHTS.prior, SPLIT_WEIGHTS.power).map(Math.log);
      // (A page with a few words is not weak but short: it says what it says.)
      const weak = Math.max(...scores) < SPLIT_WEIGHTS.weakPage * typical && model.evidence[p]!.length >= SPLIT_WEIGHTS.weakMinTokens;
      return weak ? logs.map((l) => Math.max(SPLIT_WEIGHTS.weakFloor, l)) : logs;
    });
  const transition = (p: number, from: number, to: number) => {
    if (from === to) return 0;
    let cost = -SPLIT_WEIGHTS.switchPenalty;
    if (model.start[p]! >= SPLIT_WEIGHTS.startThreshold) cost += SPLIT_WEIGHTS.startBonus;
    // New paper with nothing that continues a document: a change here is as likely as none.
    if (model.start[p]! >= SPLIT_WEIGHTS.startThreshold && p > 0 && !model.samePaper[p]) cost += NEW_PAPER_START;
    if (model.start[p]! <= SPLIT_WEIGHTS.continuationThreshold) cost -= SPLIT_WEIGHTS.continuationPenalty;
    // The same paper with nothing that starts a document: most likely the same document.
    // (A page with next to no words is left to its own evidence.)
    else if (model.samePaper[p] && model.start[p]! < SPLIT_WEIGHTS.startThreshold && model.evidence[p]!.length >= SPLIT_WEIGHTS.weakMinTokens) cost -= SPLIT_WEIGHTS.samePaper;
    if (to < visible && model.titled[p]![to]) cost += SPLIT_WEIGHTS.titleBonus;
    // Cues make a change cheap, never a gain: a label is not worth changing for its own sake.
    return Math.min(0, cost);
  };
  return { scored, emissionsOf, transition };
}

/**
 * Where documents meet within runs of "other": the chain with each kind nobody asked for a state of
 * its own, so two such documents side by side (a fact sheet, then a contract's pages read as a
 * permit) are two. Read once per request, without a vote's weighting: every vote cuts alike.
 */
function kindsOf(model: PageModel): Int32Array {
  if (!model.kinds) {
    const { scored, emissionsOf, transition } = chainOf(model, null);
    model.kinds = viterbi(emissionsOf(scored.map((all) => [...all, SPLIT_WEIGHTS.otherScore])), transition);
  }
  return model.kinds;
}

function runVote(model: PageModel, bag: Float64Array | null, multiple: ReadonlySet<string>, options: SplitOptions): SplitVote {
  const P = model.evidence.length;
  const visible = model.queries.visible;
  const { scored, emissionsOf, transition } = chainOf(model, bag);

  // The labels: the subdocuments and "other", which holds a fixed amount of evidence or what the page
  // has for a kind nobody asked for.
  const emission = emissionsOf(scored.map((all) => [...all.subarray(0, visible), Math.max(SPLIT_WEIGHTS.otherScore, ...all.subarray(visible))]));
  const labels = viterbi(emission, transition);
  rejoinInterruptions(model, labels);
  // Forward-backward on the same chain: each page's posterior for its label is its confidence.
  const posterior = marginals(emission, transition, P, visible + 1);
  const chainLabels = Int32Array.from(labels);
  const chainConfidence = Array.from(labels, (s, p) => posterior[p]![s]!);
  const segments = relabelSegments(model, labels, kindsOf(model), bag);
  const features = pageFeatures(model, scored, labels, chainLabels, chainConfidence, segments);
  options.trace?.(features);
  const pageConfidence = features.map((x, p) => (options.model ? probabilityOf(options.model, x) : segments[p]!.share));

  // Entries: runs of a multi-instance label are cut where a page looks like a first page.
  const entries: Array<{ name: string; pages: number[] }> = [];
  const single = new Map<string, { name: string; pages: number[] }>();
  let current: { name: string; pages: number[] } | undefined;
  for (let p = 0; p < P; p++) {
    const s = labels[p]!;
    const name = model.names[s]!;
    if (name !== OTHER && multiple.has(name)) {
      const startsHere = p === 0 || labels[p - 1] !== s || startsInstance(model, p, s);
      if (startsHere || !current) {
        current = { name, pages: [] };
        entries.push(current);
      }
      current.pages.push(p + 1);
      continue;
    }
    current = undefined;
    let entry = single.get(name);
    if (!entry) {
      entry = { name, pages: [] };
      single.set(name, entry);
      entries.push(entry);
    }
    entry.pages.push(p + 1);
  }
  const confidence = pageConfidence.reduce((a, b) => a + b, 0) / P;
  return { entries, confidence, pageConfidence };
}

/** The best labelling of the chain (Viterbi). */
function viterbi(emission: number[][], transition: (p: number, from: number, to: number) => number): Int32Array {
  const P = emission.length;
  const S = emission[0]!.length;
  const score = Array.from({ length: P }, () => new Float64Array(S));
  const back = Array.from({ length: P }, () => new Int32Array(S));
  for (let s = 0; s < S; s++) score[0]![s] = emission[0]![s]!;
  for (let p = 1; p < P; p++) {
    for (let s = 0; s < S; s++) {
      let best = -Infinity;
      let arg = 0;
      for (let r = 0; r < S; r++) {
        const candidate = score[p - 1]![r]! + transition(p, r, s);
        if (candidate > best) {
          best = candidate;
          arg = r;
        }
      }
      score[p]![s] = best + emission[p]![s]!;
      back[p]![s] = arg;
    }
  }
  const labels = new Int32Array(P);
  let last = 0;
  for (let s = 1; s < S; s++) if (score[P - 1]![s]! > score[P - 1]![last]!) last = s;
  labels[P - 1] = last;
  for (let p = P - 1; p > 0; p--) labels[p - 1] = back[p]![labels[p]!]!;
  return labels;
}

/**
 * A document does not stop and resume: a run of pages labelled otherwise between two runs of the
 * same subdocument, on the same paper and with nothing that starts a document where it begins or
 * where the subdocument resumes, is part of that subdocument (the schedules and tables in the middle
 * of an agreement, read as something else page by page). Nor does a document end in pages of a kind
 * nobody asked for that follow it the same way (a press release's financial statements).
 */
function rejoinInterruptions(model: PageModel, labels: Int32Array): void {
  const P = labels.length;
  const other = model.names.length - 1;
  const quiet = (q: number) => quietPage(model, q);
  let p = 1;
  while (p < P) {
    if (labels[p] === labels[p - 1]) {
      p++;
      continue;
    }
    const before = labels[p - 1]!;
    let end = p;
    while (end < P && labels[end] !== before) end++;
    const resumes = end < P;
    let joined = resumes && quiet(end);
    for (let q = p; joined && q < end; q++) if (!quiet(q)) joined = false;
    if (joined) {
      labels.fill(before, p, end);
      p = end;
      continue;
    }
    // Nor does one end in pages of a kind nobody asked for that follow it on the same paper with
    // nothing that starts a document (a press release's financial statements, a report's appendices),
    // unless the first of them is a title page (a few lines alone on the page).
    if (before !== other && labels[p] === other && model.lines[p]!.length >= SPLIT_WEIGHTS.titlePageLines) {
      let last = p;
      while (last < P && labels[last] === other && quiet(last)) last++;
      if (last > p) {
        labels.fill(before, p, last);
        p = last;
        continue;
      }
    }
    // Past a run that did not rejoin, the next change of label is looked at in its turn: a document
    // after the first one may be interrupted too.
    p++;
  }
}

/** A document the chain found, read as a whole (relabelSegments). */
interface Segment {
  /** Its label's share of the evidence (subdocuments and the best unasked kind). */
  share: number;
  /** Log of its label's evidence over the runner-up's. */
  margin: number;
  pages: number;
}

/**
 * Each document the chain found is read again as a whole, as classification reads a document. Page
 * by page, a kind nobody asked for can outscore the subdocument on most pages (a drug's fact sheet
 * reads as a calendar here, a manual there); the document's pages together say what it is. A
 * segment is a run of pages with one label and no first-page cue after its first page (in a run of
 * "other", also of one kind in `kinds`, the chain where each hidden kind is a state). It goes to
 * its best subdocument when that has evidence and at least SPLIT_WEIGHTS.segmentShare of the best
 * hidden kind's, else to "other" (readSegment); a segment gone to "other" that quietly continues a
 * subdocument's is read with it (continuesQuietly). Returns, per page, the segment it is in.
 */
function relabelSegments(model: PageModel, labels: Int32Array, kinds: Int32Array, bag: Float64Array | null): Segment[] {
  const P = labels.length;
  const other = model.names.length - 1;
  const out: Segment[] = [];
  // The segment before, once read: where it began and what it went to.
  let before: { from: number; label: number } | undefined;
  let from = 0;
  for (let p = 1; p <= P; p++) {
    // (Within a run of "other": inside a subdocument's run, pages read as other kinds are still its pages.)
    const sameKind = labels[p] !== other || kinds[p] === kinds[p - 1];
    if (p < P && labels[p] === labels[p - 1] && sameKind && model.start[p]! < SPLIT_WEIGHTS.startThreshold) continue;
    let start = from;
    let read = readSegment(model, from, p, bag);
    // Pages of kinds nobody asked for that follow a document read as a subdocument, on the same paper
    // with nothing that starts a document (a manual's pages of code after its introduction), are read
    // with it: where the whole still reads as that subdocument, they are its pages.
    if (read.label === other && before && before.label !== other && continuesQuietly(model, from, p)) {
      const whole = readSegment(model, before.from, p, bag);
      if (whole.label === before.label) {
        start = before.from;
        read = whole;
        out.length = start;
      }
    }
    for (let q = start; q < p; q++) {
      labels[q] = read.label;
      out.push(read.segment);
    }
    before = { from: start, label: read.label };
    from = p;
  }
  return out;
}

/**
 * Pages [from, to) read as one document (segmentScores): to its best subdocument when that has
 * evidence and at least SPLIT_WEIGHTS.segmentShare of the best hidden kind's, else to "other".
 */
function readSegment(model: PageModel, from: number, to: number, bag: Float64Array | null): { label: number; segment: Segment } {
  const visible = model.queries.visible;
  const other = model.names.length - 1;
  const raw = segmentScores(model, from, to, bag);
  let best = 0;
  for (let l = 1; l < visible; l++) if (raw[l]! > raw[best]!) best = l;
  let hidden = SPLIT_WEIGHTS.otherScore;
  for (let l = visible; l < raw.length; l++) hidden = Math.max(hidden, raw[l]!);
  const label = raw[best]! >= SPLIT_WEIGHTS.segmentShare * hidden ? best : other;
  const shares = scoreShares([...raw.subarray(0, visible), hidden], SPLIT_WEIGHTS.prior, SPLIT_WEIGHTS.power);
  const share = shares[label === other ? visible : label]!;
  let runnerUp = label === other ? raw[best]! : hidden;
  for (let l = 0; l < visible; l++) if (l !== label) runnerUp = Math.max(runnerUp, raw[l]!);
  const won = label === other ? hidden : raw[best]!;
  return { label, segment: { share, margin: Math.log((1 + Math.max(0, won)) / (1 + Math.max(0, runnerUp))), pages: to - from } };
}

/** Page q is on the same paper as the page before, and nothing on it starts a document. */
function quietPage(model: PageModel, q: number): boolean {
  return model.samePaper[q]! && model.start[q]! < SPLIT_WEIGHTS.startThreshold;
}

/** Whether pages [from, to) continue the page before them quietly (quietPage), the first no title page (a few lines alone). */
function continuesQuietly(model: PageModel, from: number, to: number): boolean {
  if (model.lines[from]!.length < SPLIT_WEIGHTS.titlePageLines) return false;
  for (let q = from; q < to; q++) if (!quietPage(model, q)) return false;
  return true;
}

/** Each page's SPLIT_PAGE_FEATURES: what its likelihood is learned from. */
function pageFeatures(model: PageModel, scored: readonly Float64Array[], labels: Int32Array, chainLabels: Int32Array, chainConfidence: readonly number[], segments: readonly Segment[]): number[][] {
  const visible = model.queries.visible;
  const other = model.names.length - 1;
  const pageLabels = scored.map((scores) => {
    let top = 0;
    for (let l = 1; l < scores.length; l++) if (scores[l]! > scores[top]!) top = l;
    return scores[top]! < SPLIT_WEIGHTS.otherScore || top >= visible ? other : top;
  });
  // Per segment (pages share one Segment object): its pages that agree, and whether its paper changes.
  const agreeing = new Map<Segment, number>();
  const mixed = new Set<Segment>();
  segments.forEach((segment, p) => {
    if (pageLabels[p] === labels[p]) agreeing.set(segment, (agreeing.get(segment) ?? 0) + 1);
    if (p > 0 && segments[p - 1] === segment && !model.samePaper[p]) mixed.add(segment);
  });
  return segments.map((segment, p) => {
    const pageLabel = pageLabels[p]!;
    return [
      boundedLogit(segment.share),
      segment.margin,
      Math.log(1 + segment.pages),
      labels[p] === other ? 1 : 0,
      boundedLogit(chainConfidence[p]!),
      chainLabels[p] === labels[p] ? 1 : 0,
      pageLabel === labels[p] ? 1 : 0,
      model.evidence[p]!.length < SPLIT_WEIGHTS.weakMinTokens ? 1 : 0,
      (agreeing.get(segment) ?? 0) / segment.pages,
      mixed.has(segment) ? 1 : 0,
      labels[p] === other ? boundedLogit(segment.share) : 0,
      labels[p] === other ? segment.margin : 0,
    ];
  });
}

/**
 * Each label's evidence in pages [from, to) read as one document, as classification reads a
 * document: its words together, its first page's title, its layout.
 */
function segmentScores(model: PageModel, from: number, to: number, bag: Float64Array | null): Float64Array {
  // What the segment's text holds is read once; votes only weigh it differently.
  const key = `${from}:${to}`;
  let read = model.segments.get(key);
  if (!read) {
    const lines = model.lines.slice(from, to);
    const withText = Math.max(1, lines.filter((l) => l.length > 0).length);
    read = {
      evidence: textEvidence(model.queries, lines.flat(), CLASSIFY_WEIGHTS.averagePageTokens * withText),
      title: textEvidence(model.queries, titleLines(lines[0] ?? []), CLASSIFY_WEIGHTS.averagePageTokens),
      cues: cueScores(model.queries, [...layoutCues(model.pages.slice(from, to), lines), ...pageFormatCues(model.kind, model.pages.slice(from, to))]),
    };
    model.segments.set(key, read);
  }
  const raw = labelScores(model.queries, read.evidence, bag);
  const title = labelScores(model.queries, read.title, bag);
  for (let l = 0; l < raw.length; l++) raw[l] += EVIDENCE_WEIGHTS.title * title[l]! + read.cues[l]!;
  return raw;
}

function logSumExp(values: Float64Array | number[]): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  if (max === -Infinity) return max;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - max);
  return max + Math.log(sum);
}

/** Posterior probability of each label at each page, over all labellings of the chain. */
function marginals(emission: number[][], transition: (p: number, from: number, to: number) => number, P: number, S: number): Float64Array[] {
  const alpha = Array.from({ length: P }, () => new Float64Array(S));
  const beta = Array.from({ length: P }, () => new Float64Array(S));
  const terms = new Float64Array(S);
  for (let s = 0; s < S; s++) alpha[0]![s] = emission[0]![s]!;
  for (let p = 1; p < P; p++) {
    for (let s = 0; s < S; s++) {
      for (let r = 0; r < S; r++) terms[r] = alpha[p - 1]![r]! + transition(p, r, s);
      alpha[p]![s] = logSumExp(terms) + emission[p]![s]!;
    }
  }
  for (let p = P - 2; p >= 0; p--) {
    for (let r = 0; r < S; r++) {
      for (let s = 0; s < S; s++) terms[s] = transition(p + 1, r, s) + emission[p + 1]![s]! + beta[p + 1]![s]!;
      beta[p]![r] = logSumExp(terms);
    }
  }
  return alpha.map((a, p) => {
    const joint = Array.from(a, (x, s) => x + beta[p]![s]!);
    const z = logSumExp(joint);
    return Float64Array.from(joint, (x) => Math.exp(x - z));
  });
}
