/**
 * Experiment metrics (API §9.5): how far a block's `n_consensus` votes agree with their consensus.
 *
 * Per document (computed by the run task when the document completes, `documentMetrics`):
 *   extract     the votes reconciled by models/shared/consensus.ts (list items aligned by content, as
 *               POST /v1/consensus does); a target is a leaf path ("line_items.0.amount"), its score
 *               the share of votes that gave the consensus value; the document's score their mean
 *   classifier  a target is a category; its score the share of votes that agree with the consensus on
 *               whether the document is that category; the document's score the share of votes for
 *               the consensus category; confusion counts consensus → voted category
 *   split       a target is a subdocument name; its score the mean over votes of the IoU of its pages
 *               with the consensus's; the document's score the mean over pages of the share of votes
 *               that put the page where the consensus does; confusion counts page by page
 * Views (GET /v1/workflows/experiments/metrics): `summary` (the run: mean document score, each
 * document's, and the block's aggregate: mean likelihood per path, or the confusion's diagonal and
 * flows), `by_document` (one document's targets), `by_target` (one target across documents; a path
 * that is an object or list scores the mean of the leaves under it), `votes` (one document and
 * target: the consensus and every vote, a row per list item or subdocument instance). Prior scores
 * come from another run of the same experiment (`prior_run_id`, or the run before with
 * `include_prior=true`). A run with no completed document answers `no_metrics`.
 */
import type { Caller } from '../auth/service.ts';
import { reconcile } from '../models/shared/consensus.ts';
import { Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { RunData } from '../runs/service.ts';
import { requireCapability } from '../workflows/service.ts';
import { splitIou } from './assertions.ts';
import { metricsOf, readBlob, readExperimentRun, resultsOfExperimentRun, round, type DocumentMetrics, type DocumentVotes, type ExperimentResultData } from './experiment-runs.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const OTHER = 'other';

// ── One document ────────────────────────────────────────────────────────────────────────────────

type Entry = { name: string; pages: number[] };
const entriesOf = (v: unknown): Entry[] => (Array.isArray(v) ? v.filter((e): e is Entry => isObject(e) && typeof e.name === 'string' && Array.isArray(e.pages)) : []);
const pagesOfName = (entries: Entry[], name: string) => new Set(entries.filter((e) => e.name === name).flatMap((e) => e.pages));
function labelOfPage(entries: Entry[], page: number): string {
  return entries.find((e) => e.pages.includes(page))?.name ?? OTHER;
}

/** The metrics and votes of one document, from the block's output and its votes (the artifact's consensus choices). */
export function documentMetrics(blockType: string, output: unknown, choices: unknown[]): { metrics: DocumentMetrics; votes: DocumentVotes } {
  const voters = choices.length ? choices : [output];
  if (blockType === 'classifier') {
    const consensus = isObject(output) && typeof output.category === 'string' ? output.category : null;
    const labels = voters.map((v) => (isObject(v) && typeof v.category === 'string' ? v.category : null));
    const involved = [...new Set([consensus, ...labels].filter((l): l is string => l !== null))];
    const targets: DocumentMetrics['targets'] = {};
    for (const label of involved) targets[label] = { score: round(labels.filter((l) => (l === label) === (consensus === label)).length / labels.length), value: consensus };
    const confusion: Record<string, Record<string, number>> = {};
    if (consensus !== null) for (const l of labels) confusion[consensus] = { ...confusion[consensus], [l ?? OTHER]: (confusion[consensus]?.[l ?? OTHER] ?? 0) + 1 };
    return { metrics: { score: round(labels.filter((l) => l === consensus).length / labels.length), targets, confusion }, votes: { consensus, votes: labels } };
  }
  if (blockType === 'split') {
    const consensus = entriesOf(output);
    const votes = voters.map(entriesOf);
    const pages = [...new Set([...consensus, ...votes.flat()].flatMap((e) => e.pages))].sort((a, b) => a - b);
    const names = [...new Set([...consensus, ...votes.flat()].map((e) => e.name))];
    const targets: DocumentMetrics['targets'] = {};
    for (const name of names) {
      const c = pagesOfName(consensus, name);
      const scores = votes.map((v) => splitIou(new Map([[name, pagesOfName(v, name)]]), new Map([[name, c]])).by_name[name]).filter((s): s is number => s !== undefined);
      targets[name] = { score: scores.length ? round(mean(scores)!) : null, value: [...c].sort((a, b) => a - b) };
    }
    const confusion: Record<string, Record<string, number>> = {};
    const agreement: number[] = [];
    for (const page of pages) {
      const c = labelOfPage(consensus, page);
      const voted = votes.map((v) => labelOfPage(v, page));
      agreement.push(voted.filter((l) => l === c).length / voted.length);
      for (const l of voted) confusion[c] = { ...confusion[c], [l]: (confusion[c]?.[l] ?? 0) + 1 };
    }
    return { metrics: { score: agreement.length ? round(mean(agreement)!) : null, targets, confusion }, votes: { consensus, votes } };
  }
  // extract: the votes reconciled, list items aligned by content.
  const reconciled = reconcile(voters, { alignment: true });
  const targets: DocumentMetrics['targets'] = {};
  for (const field of reconciled.fields) targets[field.path] = { score: round(field.likelihood), value: field.value };
  const scores = reconciled.fields.map((f) => f.likelihood);
  return {
    metrics: { score: scores.length ? round(mean(scores)!) : null, targets },
    votes: { consensus: reconciled.value ?? null, votes: reconciled.alignedInputs ?? voters },
  };
}

// ── Views ───────────────────────────────────────────────────────────────────────────────────────

/** A target's score in a document: the target itself, else the mean of the leaves under it (a list or an object path). */
function targetScore(metrics: DocumentMetrics, path: string): { score: number | null; value: unknown } | undefined {
  const exact = metrics.targets[path];
  if (exact) return exact;
  const under = Object.entries(metrics.targets).filter(([p]) => p.startsWith(`${path}.`));
  if (!under.length) return undefined;
  const scores = under.map(([, t]) => t.score).filter((s): s is number => s !== null);
  return { score: scores.length ? round(mean(scores)!) : null, value: undefined };
}

function confusionOf(counts: Array<Record<string, Record<string, number>> | undefined>) {
  const sum: Record<string, Record<string, number>> = {};
  for (const c of counts) for (const [s, row] of Object.entries(c ?? {})) for (const [t, n] of Object.entries(row)) sum[s] = { ...sum[s], [t]: (sum[s]?.[t] ?? 0) + n };
  const diag: Record<string, number> = {};
  const flows: Array<{ source: string; target: string; score: number }> = [];
  for (const [s, row] of Object.entries(sum)) {
    const total = Object.values(row).reduce((a, b) => a + b, 0);
    diag[s] = round((row[s] ?? 0) / total);
    for (const [t, n] of Object.entries(row)) if (t !== s && n > 0) flows.push({ source: s, target: t, score: round(n / total) });
  }
  flows.sort((a, b) => b.score - a.score || a.source.localeCompare(b.source) || a.target.localeCompare(b.target));
  return { diag, flows };
}

interface Scored {
  result: ExperimentResultData;
  metrics: DocumentMetrics;
}

async function scoredDocuments(p: Platform, caller: Caller, runId: string): Promise<{ results: ExperimentResultData[]; scored: Scored[] }> {
  const results = await resultsOfExperimentRun(p, caller, runId);
  const scored: Scored[] = [];
  for (const result of results) {
    if (result.lifecycle.status !== 'completed') continue;
    const metrics = await metricsOf(p, result);
    if (metrics) scored.push({ result, metrics });
  }
  return { results, scored };
}

export async function experimentMetrics(
  p: Platform,
  caller: Caller,
  q: { run_id: string; view: 'summary' | 'by_document' | 'by_target' | 'votes'; document_id?: string | undefined; target_path?: string | undefined; include_prior: boolean; prior_run_id?: string | undefined },
) {
  const run = await readExperimentRun(p, caller, q.run_id);
  requireCapability(caller, 'workflow:view');
  const experimentId = run.experiment_id as string;
  const blockType = run.block_type as string;
  const { results, scored } = await scoredDocuments(p, caller, run.id);
  if (scored.length === 0) {
    const why = run.status === 'completed' ? 'no document of it completed' : run.status === 'failed' ? 'it failed before any document completed' : run.status === 'cancelled' ? 'it was cancelled before any document completed' : 'no document has completed yet';
    return { kind: 'no_metrics', error: 'no_metrics', experiment_id: experimentId, message: `Run ${run.id} has no metrics: ${why}` };
  }

  // The prior run: named, or the run before this one.
  let priorRunId: string | null = null;
  let prior = new Map<string, DocumentMetrics>();
  if (q.prior_run_id !== undefined || q.include_prior) {
    const id = q.prior_run_id ?? (run.parent_run_id as string | null);
    if (id) {
      const priorRun: RunData = await readExperimentRun(p, caller, id).catch(() => {
        throw Invalid.at(['query', 'prior_run_id'], `Experiment run ${id} not found`, 'value_error', id);
      });
      if (priorRun.experiment_id !== experimentId) throw Invalid.at(['query', 'prior_run_id'], `Run ${id} is a run of experiment ${priorRun.experiment_id as string}, not ${experimentId}`, 'value_error', id);
      priorRunId = id;
      prior = new Map((await scoredDocuments(p, caller, id)).scored.map((s) => [s.result.document_id, s.metrics]));
    }
  }
  const meanScore = (docs: Array<DocumentMetrics | undefined>) => {
    const s = docs.map((d) => d?.score).filter((x): x is number => typeof x === 'number');
    return s.length ? round(mean(s)!) : null;
  };
  const priorScore = priorRunId ? meanScore([...prior.values()]) : null;
  const confusable = blockType === 'classifier' || blockType === 'split';

  const documentOf = () => {
    if (!q.document_id) throw Invalid.at(['query', 'document_id'], `The ${q.view} view is of one document: give document_id (this run's: ${results.map((r) => r.document_id).slice(0, 10).join(', ')})`, 'missing');
    const result = results.find((r) => r.document_id === q.document_id);
    if (!result) throw Invalid.at(['query', 'document_id'], `Document ${q.document_id} is not a document of run ${run.id}`, 'value_error', q.document_id);
    const found = scored.find((s) => s.result.id === result.id);
    if (!found) throw Invalid.at(['query', 'document_id'], `Document ${q.document_id} has no metrics in run ${run.id}: it is ${result.lifecycle.status}`, 'value_error', q.document_id);
    return found;
  };
  const targetPath = () => {
    if (!q.target_path) throw Invalid.at(['query', 'target_path'], `The ${q.view} view is of one target: give target_path (a path such as "total", a category or a subdocument name)`, 'missing');
    return q.target_path;
  };
  const docRef = (s: Scored) => ({ id: s.result.document_id, filename: s.result.filename });

  switch (q.view) {
    case 'summary': {
      let aggregate: unknown = null;
      if (confusable) aggregate = confusionOf(scored.map((s) => s.metrics.confusion));
      else {
        const byPath = new Map<string, number[]>();
        for (const s of scored) for (const [path, t] of Object.entries(s.metrics.targets)) if (t.score !== null) byPath.set(path, [...(byPath.get(path) ?? []), t.score]);
        aggregate = { likelihoods: Object.fromEntries([...byPath].map(([path, xs]) => [path, round(mean(xs)!)])) };
      }
      return {
        experiment_id: experimentId,
        run_id: run.id,
        kind: 'summary',
        view: 'summary',
        block_execution_fingerprint: run.block_execution_fingerprint ?? null,
        block_type: blockType,
        score: meanScore(scored.map((s) => s.metrics)),
        prior_score: priorScore,
        documents: scored.map((s) => ({ ...docRef(s), score: s.metrics.score, prior_score: prior.get(s.result.document_id)?.score ?? null })),
        scored_document_count: scored.length,
        total_document_count: results.length,
        aggregate,
        prior_run_id: priorRunId,
      };
    }
    case 'by_document': {
      const s = documentOf();
      const before = prior.get(s.result.document_id);
      return {
        run_id: run.id,
        kind: 'by_document',
        view: 'by_document',
        document: docRef(s),
        score: s.metrics.score,
        prior_score: before?.score ?? null,
        confusion: confusable ? confusionOf([s.metrics.confusion]) : null,
        targets: Object.entries(s.metrics.targets).map(([path, t]) => ({ path, score: t.score, prior_score: before ? (targetScore(before, path)?.score ?? null) : null, value: t.value ?? null })),
      };
    }
    case 'by_target': {
      const target = targetPath();
      const rows = scored.map((s) => ({ s, t: targetScore(s.metrics, target) }));
      if (!rows.some((r) => r.t)) {
        const known = [...new Set(scored.flatMap((s) => Object.keys(s.metrics.targets)))].slice(0, 20);
        throw Invalid.at(['query', 'target_path'], `"${target}" is a target of no document of run ${run.id} (its targets: ${known.join(', ')}${known.length === 20 ? ', ...' : ''})`, 'value_error', target);
      }
      let confusion: unknown = null;
      if (confusable) {
        const { diag, flows } = confusionOf(scored.map((s) => s.metrics.confusion));
        confusion = {
          self: diag[target] ?? null,
          flow_from: Object.fromEntries(flows.filter((f) => f.target === target).map((f) => [f.source, f.score])),
          flow_to: Object.fromEntries(flows.filter((f) => f.source === target).map((f) => [f.target, f.score])),
        };
      }
      const scores = rows.map((r) => r.t?.score).filter((x): x is number => typeof x === 'number');
      const priorScores = [...prior.values()].map((m) => targetScore(m, target)?.score).filter((x): x is number => typeof x === 'number');
      return {
        run_id: run.id,
        kind: 'by_target',
        view: 'by_target',
        target,
        score: scores.length ? round(mean(scores)!) : null,
        prior_score: priorRunId && priorScores.length ? round(mean(priorScores)!) : null,
        confusion,
        documents: rows.map(({ s, t }) => {
          const before = prior.get(s.result.document_id);
          return { ...docRef(s), score: t?.score ?? null, prior_score: before ? (targetScore(before, target)?.score ?? null) : null, value: t?.value ?? null };
        }),
      };
    }
    case 'votes': {
      const s = documentOf();
      const target = targetPath();
      const t = targetScore(s.metrics, target);
      if (!t) {
        const known = Object.keys(s.metrics.targets).slice(0, 20);
        throw Invalid.at(['query', 'target_path'], `"${target}" is not a target of document ${s.result.document_id} (its targets: ${known.join(', ')})`, 'value_error', target);
      }
      const votes = await readBlob<DocumentVotes>(p, s.result._votes_key);
      const before = prior.get(s.result.document_id);
      return {
        run_id: run.id,
        kind: 'votes',
        view: 'votes',
        document: docRef(s),
        target,
        score: t.score,
        prior_score: before ? (targetScore(before, target)?.score ?? null) : null,
        rows: votes ? voteRows(blockType, votes, target, s.metrics) : [],
      };
    }
  }
}

/** The value at a dotted path ("line_items.0.amount"); undefined when absent. */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('.')) {
    if (Array.isArray(v) && /^\d+$/.test(part)) v = v[Number(part)];
    else if (isObject(v) && Object.hasOwn(v, part)) v = v[part];
    else return undefined;
  }
  return v;
}

const present = (v: unknown) => v !== undefined && v !== null;

function row(consensus: unknown, votes: unknown[], score: number | null) {
  const presentCount = votes.filter(present).length;
  return { consensus: consensus ?? null, votes: votes.map((v) => v ?? null), score, row_presence_score: votes.length ? round(presentCount / votes.length) : null, present_voter_count: presentCount, total_voter_count: votes.length };
}

/** The rows of the votes view: one per list item (extract) or subdocument instance (split), else one. */
function voteRows(blockType: string, votes: DocumentVotes, target: string, metrics: DocumentMetrics) {
  if (blockType === 'classifier') {
    const labels = votes.votes as Array<string | null>;
    return [row(votes.consensus, labels, metrics.targets[target]?.score ?? null)];
  }
  if (blockType === 'split') {
    const consensus = entriesOf(votes.consensus).filter((e) => e.name === target);
    const voterPages = (votes.votes as unknown[]).map((v) => {
      const pages = [...pagesOfName(entriesOf(v), target)].sort((a, b) => a - b);
      return pages.length ? pages : null;
    });
    const instances = consensus.length ? consensus.map((e) => e.pages) : [null];
    return instances.map((pages) => {
      const ious = voterPages.map((v) => splitIou(new Map([[target, new Set(v ?? [])]]), new Map([[target, new Set(pages ?? [])]])).by_name[target]).filter((x): x is number => x !== undefined);
      return row(pages, voterPages, ious.length ? round(mean(ious)!) : null);
    });
  }
  const consensus = at(votes.consensus, target);
  const voters = votes.votes.map((v) => at(v, target));
  if (Array.isArray(consensus)) {
    return consensus.map((item, i) => row(item, voters.map((v) => (Array.isArray(v) ? v[i] : undefined)), targetScore(metrics, `${target}.${i}`)?.score ?? null));
  }
  return [row(consensus, voters, targetScore(metrics, target)?.score ?? null)];
}
