/**
 * Experiments (API §9.5): one block of a workflow (extract, classifier or split) over a set of
 * documents, each run `n_consensus` times at once; a run (./experiment-runs.ts) measures how far
 * the votes agree, document by document and target by target (./metrics.ts). The documents are
 * handle inputs, given (`documents`) or captured from workflow runs (`document_captures`: what the
 * block received in that run's step); they are stored as one JSON object per version of the set,
 * which each run refers to, so editing the set never changes a run.
 */
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { ACTIVE_STATUSES } from '../platform/schemas.ts';
import type { RunData } from '../runs/service.ts';
import { canonicalJson, type Graph, type GraphBlock } from '../workflows/graph.ts';
import { requireCapability, requireReady } from '../workflows/service.ts';
import { blockExecutionFingerprint, blockOf, capturedHandles, checkInputsFit, draftIfAny, fingerprintOf, sha, storedHandles, workflowFor } from './common.ts';
import { EXPERIMENT_RUN_TYPE } from './kind.ts';
import type { StoredHandles } from './schema.ts';

export const EXPERIMENT_TYPE = 'workflow_experiment';
/** The blocks an experiment can run: those whose runs vote (n_consensus). */
export const EXPERIMENT_BLOCKS = ['extract', 'classifier', 'split'];
export const DEFAULT_N_CONSENSUS = 3;

export interface ExperimentDocument {
  id: string;
  filename: string;
  handle_inputs: StoredHandles;
  provenance: { run_id: string | null; step_id: string | null } | null;
}

export interface ExperimentData {
  id: string;
  workflow_id: string;
  block_id: string;
  block_type: string;
  n_consensus: number;
  name: string;
  last_run_id: string | null;
  created_at: string;
  updated_at: string;
  document_count: number;
  documents_fingerprint: string;
  /** The stored document set (a JSON list of ExperimentDocument), and every set stored so far (deleted with the experiment). */
  _documents_key: string;
  _document_keys: string[];
}

type Captures = Array<{ run_id: string; step_id?: string | null | undefined }>;
type Documents = Array<{ handle_inputs: Record<string, unknown>; provenance?: { run_id?: string | null | undefined; step_id?: string | null | undefined } | null | undefined }>;

export async function readExperiment(p: Platform, scope: Scope, id: string): Promise<ExperimentData> {
  const record = await p.store.getRecord<ExperimentData>(scope, EXPERIMENT_TYPE, id);
  if (!record) throw NotFound.of('Experiment', id);
  return record.data;
}

export async function readDocuments(p: Platform, key: string): Promise<ExperimentDocument[]> {
  const bytes = await p.blobs.get(key);
  if (!bytes) throw new Error(`The experiment documents ${key} are missing`);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as ExperimentDocument[];
}

function experimentBlock(graph: Graph, blockId: string, loc: Array<string | number>, workflowId: string): GraphBlock {
  const block = blockOf(graph, blockId, loc, workflowId);
  if (!EXPERIMENT_BLOCKS.includes(block.type)) {
    throw Invalid.at(loc, `Block ${blockId} is a ${block.type} block: an experiment runs a block whose runs vote (${EXPERIMENT_BLOCKS.join(', ')})${block.type === 'for_each' ? '; for_each experiments are not built in Quire yet' : ''}`, 'value_error', blockId);
  }
  return block;
}

/** The document set of a request: given documents, then captured ones; each with an id that follows from its inputs. */
async function documentsOf(p: Platform, scope: Scope, workflowId: string, block: GraphBlock, documents: Documents, captures: Captures): Promise<ExperimentDocument[]> {
  const out: ExperimentDocument[] = [];
  const seen = new Map<string, Array<string | number>>();
  const add = (handles: StoredHandles, provenance: ExperimentDocument['provenance'], loc: Array<string | number>) => {
    const id = `exdoc_${sha(canonicalJson(handles), 20)}`;
    const earlier = seen.get(id);
    if (earlier) throw Invalid.at(loc, `The same document (the same handle inputs) as at ${earlier.join('.')}: each document of an experiment is different`, 'value_error');
    seen.set(id, loc);
    const file = Object.values(handles).find((h) => h.type === 'file');
    out.push({ id, filename: file?.type === 'file' ? file.document.filename : `json input ${out.length + 1}`, handle_inputs: handles, provenance });
  };
  for (const [i, doc] of documents.entries()) {
    const loc = ['body', 'documents', i, 'handle_inputs'];
    const handles = await storedHandles(p, scope, doc.handle_inputs as never, loc, block);
    add(handles, doc.provenance ? { run_id: doc.provenance.run_id ?? null, step_id: doc.provenance.step_id ?? null } : null, loc);
  }
  for (const [i, capture] of captures.entries()) {
    const loc = ['body', 'document_captures', i];
    const { handles, stepId } = await capturedHandles(p, scope, workflowId, block.id, capture.run_id, capture.step_id, loc);
    checkInputsFit(handles, block, loc);
    add(handles, { run_id: capture.run_id, step_id: stepId }, loc);
  }
  return out;
}

const documentsKeyOf = (scope: Scope, experimentId: string, fingerprint: string) => `${scope.orgId}/${scope.envId}/experiments/${experimentId}/documents-${fingerprint.replace(/^sha256:/, '').slice(0, 32)}.json`;
export const documentsFingerprintOf = (documents: ExperimentDocument[]) => fingerprintOf(documents.map((d) => d.id));

async function storeDocuments(p: Platform, scope: Scope, experimentId: string, documents: ExperimentDocument[]): Promise<{ key: string; fingerprint: string }> {
  const fingerprint = documentsFingerprintOf(documents);
  const key = documentsKeyOf(scope, experimentId, fingerprint);
  await p.blobs.put(key, JSON.stringify(documents), 'application/json');
  return { key, fingerprint };
}

export async function createExperiment(
  p: Platform,
  caller: Caller,
  body: { workflow_id: string; block_id?: string | null | undefined; document_captures?: Captures | null | undefined; documents?: Documents | null | undefined; n_consensus?: number | null | undefined; name?: string | null | undefined; source_experiment_id?: string | null | undefined },
) {
  const { workflow, graph } = await workflowFor(p, caller, body.workflow_id, 'workflow:edit');
  requireReady(workflow);
  let source: ExperimentData | undefined;
  if (body.source_experiment_id) {
    source = await readExperiment(p, caller, body.source_experiment_id).catch((error) => {
      if (error instanceof NotFound) throw Invalid.at(['body', 'source_experiment_id'], `Experiment ${body.source_experiment_id} not found`, 'value_error', body.source_experiment_id);
      throw error;
    });
    if (source.workflow_id !== workflow.id) throw Invalid.at(['body', 'source_experiment_id'], `Experiment ${source.id} is an experiment of workflow ${source.workflow_id}, not ${workflow.id}`, 'value_error', source.id);
  }
  const blockId = body.block_id ?? source?.block_id;
  if (!blockId) throw Invalid.at(['body', 'block_id'], 'Name the block the experiment runs (block_id), or copy an experiment (source_experiment_id)', 'missing');
  const block = experimentBlock(graph, blockId, ['body', 'block_id'], workflow.id);
  const given = body.documents != null || body.document_captures != null;
  let documents: ExperimentDocument[];
  if (given) documents = await documentsOf(p, caller, workflow.id, block, body.documents ?? [], body.document_captures ?? []);
  else if (source) documents = await readDocuments(p, source._documents_key);
  else documents = [];
  const id = p.ids.next('exp');
  const stored = await storeDocuments(p, caller, id, documents);
  const now = timestamp(p.clock.now());
  const data: ExperimentData = {
    id,
    workflow_id: workflow.id,
    block_id: block.id,
    block_type: block.type,
    n_consensus: body.n_consensus ?? source?.n_consensus ?? DEFAULT_N_CONSENSUS,
    name: body.name ?? (source ? `Copy of ${source.name}` : `${block.label || block.id} experiment`),
    last_run_id: null,
    created_at: now,
    updated_at: now,
    document_count: documents.length,
    documents_fingerprint: stored.fingerprint,
    _documents_key: stored.key,
    _document_keys: [stored.key],
  };
  await p.store.putRecord(caller, { type: EXPERIMENT_TYPE, id, createdAt: now, attrs: { workflow_id: workflow.id, block_id: block.id }, data }, { ifAbsent: true });
  return experimentToWire(p, caller, data, graph);
}

export async function getExperiment(p: Platform, caller: Caller, id: string) {
  const data = await readExperiment(p, caller, id);
  requireCapability(caller, 'workflow:view');
  return experimentToWire(p, caller, data, await draftIfAny(p, caller, data.workflow_id));
}

export async function listExperiments(p: Platform, caller: Caller, q: { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined; workflow_id: string; block_id?: string | undefined }) {
  const { graph } = await workflowFor(p, caller, q.workflow_id, 'workflow:view');
  const page = await p.store.listRecords<ExperimentData>(caller, EXPERIMENT_TYPE, toListQuery(q, { workflow_id: q.workflow_id, block_id: q.block_id }));
  return { data: await Promise.all(page.items.map((r) => experimentToWire(p, caller, r.data, graph))), list_metadata: { before: page.before, after: page.after } };
}

export async function updateExperiment(p: Platform, caller: Caller, id: string, body: { document_captures?: Captures | null | undefined; documents?: Documents | null | undefined; n_consensus?: number | null | undefined; name?: string | null | undefined }) {
  const current = await readExperiment(p, caller, id);
  const { workflow, graph } = await workflowFor(p, caller, current.workflow_id, 'workflow:edit');
  requireReady(workflow);
  const changes: Partial<ExperimentData> = {};
  if (body.name != null) changes.name = body.name;
  if (body.n_consensus != null) changes.n_consensus = body.n_consensus;
  if (body.documents != null || body.document_captures != null) {
    const block = graph.blocks.find((b) => b.id === current.block_id);
    if (!block) throw new Conflict(`Block ${current.block_id} of experiment ${id} is no longer in the workflow's draft: its documents cannot be changed`);
    const documents = await documentsOf(p, caller, workflow.id, block, body.documents ?? [], body.document_captures ?? []);
    const stored = await storeDocuments(p, caller, id, documents);
    changes.document_count = documents.length;
    changes.documents_fingerprint = stored.fingerprint;
    changes._documents_key = stored.key;
    if (!current._document_keys.includes(stored.key)) changes._document_keys = [...current._document_keys, stored.key];
  }
  if (Object.keys(changes).length === 0) return experimentToWire(p, caller, current, graph);
  changes.updated_at = timestamp(p.clock.now());
  const updated = await p.store.updateRecord<ExperimentData>(caller, EXPERIMENT_TYPE, id, changes);
  if (!updated) throw NotFound.of('Experiment', id);
  return experimentToWire(p, caller, updated.data, graph);
}

/** The experiment's runs, newest first. */
export async function runsOfExperiment(p: Platform, scope: Scope, experimentId: string): Promise<RunData[]> {
  const out: RunData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<RunData>(scope, EXPERIMENT_RUN_TYPE, { limit: 100, order: 'desc', after, attrs: { experiment_id: experimentId } });
    out.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  return out;
}

export async function deleteExperiment(p: Platform, caller: Caller, id: string, deleteRun: (run: RunData) => Promise<void>): Promise<void> {
  const current = await readExperiment(p, caller, id);
  requireCapability(caller, 'workflow:edit');
  const runs = await runsOfExperiment(p, caller, id);
  const active = runs.find((r) => ACTIVE_STATUSES.includes(r.status));
  if (active) throw new Conflict(`Experiment ${id} has a run in progress (${active.id}): cancel it before deleting the experiment`);
  for (const run of runs) await deleteRun(run);
  for (const key of current._document_keys) await p.blobs.delete(key);
  await p.store.deleteRecord(caller, EXPERIMENT_TYPE, id);
}

/** What a run of the experiment would measure: its block, its documents, its votes. */
export const metricsValidityOf = (block: { type: string; config: Record<string, unknown> }, documentsFingerprint: string, nConsensus: number) =>
  fingerprintOf({ block: blockExecutionFingerprint(block), documents: documentsFingerprint, n_consensus: nConsensus });
export const schemaFingerprintOf = (block: GraphBlock) => (block.type === 'extract' ? fingerprintOf(block.config.json_schema ?? null) : null);

const PUBLIC_STATUS: Record<string, 'processing' | 'completed' | 'failed' | 'cancelled'> = { pending: 'processing', queued: 'processing', in_progress: 'processing', completed: 'completed', failed: 'failed', cancelled: 'cancelled' };

/** The wire form (WorkflowExperiment): its status and score from its last run, its freshness against the draft `graph`. */
export async function experimentToWire(p: Platform, scope: Scope, data: ExperimentData, graph: Graph | undefined) {
  const last = data.last_run_id ? (await p.store.getRecord<RunData>(scope, EXPERIMENT_RUN_TYPE, data.last_run_id))?.data : undefined;
  const block = graph?.blocks.find((b) => b.id === data.block_id);
  let drift: { status: 'none' | 'drifted' | 'broken' | 'unknown'; affected_targets: string[]; detail: string | null } = { status: 'none', affected_targets: [], detail: null };
  let schemaDrift: 'none' | 'partial' | 'drifted' | 'unknown' = 'unknown';
  let schemaDriftDetail: string | null = null;
  const reasons: string[] = [];
  let validity: string | null = null;
  if (!block || block.type !== data.block_type) {
    const detail = !graph ? 'The workflow no longer exists' : !block ? `Block ${data.block_id} is no longer in the workflow's draft` : `Block ${data.block_id} is now a ${block.type} block`;
    drift = { status: 'broken', affected_targets: [data.block_id], detail };
  } else {
    validity = metricsValidityOf(block, data.documents_fingerprint, data.n_consensus);
    if (last) {
      if (last.block_execution_fingerprint !== blockExecutionFingerprint(block)) drift = { status: 'drifted', affected_targets: [block.id], detail: `Block ${block.id} changed since the last run` };
      const schema = schemaFingerprintOf(block);
      if (schema !== null) {
        schemaDrift = last._schema_fingerprint === schema ? 'none' : 'drifted';
        schemaDriftDetail = schemaDrift === 'drifted' ? `The json_schema of ${block.id} changed since the last run` : null;
      } else schemaDrift = 'none';
    }
  }
  if (!last) reasons.push('no_baseline');
  else {
    if (!block || last.block_execution_fingerprint !== blockExecutionFingerprint(block) || last.n_consensus !== data.n_consensus) reasons.push('validity_changed');
    if (last.documents_fingerprint !== data.documents_fingerprint) reasons.push('inputs_changed');
  }
  const state: 'fresh' | 'stale' | 'unknown' = !last ? 'unknown' : reasons.length ? 'stale' : 'fresh';
  const active = last !== undefined && ACTIVE_STATUSES.includes(last.status);
  const runPlanMode = drift.status === 'broken' ? 'unknown' : active ? 'conflict' : state === 'fresh' && last?.status === 'completed' ? 'noop' : 'run';
  return {
    id: data.id,
    workflow_id: data.workflow_id,
    block_id: data.block_id,
    n_consensus: data.n_consensus,
    document_count: data.document_count,
    name: data.name,
    last_run_id: data.last_run_id,
    created_at: data.created_at,
    updated_at: data.updated_at,
    status: last ? PUBLIC_STATUS[last.status] : 'draft',
    block_type: data.block_type,
    score: (last?.score as number | null | undefined) ?? null,
    is_stale: state === 'stale',
    freshness: { status: state, reasons, validity_fingerprint: validity, input_fingerprint: data.documents_fingerprint, baseline_run_id: last?.id ?? null },
    freshness_state: state,
    freshness_reasons: reasons,
    run_plan_mode: runPlanMode,
    rerunnable_document_count: runPlanMode === 'run' ? data.document_count : 0,
    schema_drift: schemaDrift,
    schema_drift_detail: schemaDriftDetail,
    drift,
  };
}
