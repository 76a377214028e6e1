/**
 * Running a workflow's blocks (task code only), each in dependency order, fed by the blocks whose
 * edges are followed (a classifier's or a conditional's edge only for the handle it took). Every
 * block writes its step (./steps.ts) and, where it does something worth keeping, its artifact.
 *
 *   start_document, start_json   the run's inputs
 *   parse, split, classifier, extract, edit
 *                                the primitives' own prepare + task code (a workflow parse is a parse)
 *   conditional                  the first branch whose condition matches (./conditions.ts), else the default
 *   function                     an expression over `input` (./expressions.ts): no I/O, a step budget
 *   merge_dicts                  the objects reaching it, merged in edge order (later wins)
 *   api_call                     posts to the configured URL under the webhook URL rules
 *   while_loop, for_each         containers: their children (parent_id) run per iteration / per item
 *   end                          collects what reaches it;  note: nothing (never runs)
 *
 * A block whose `config.review.predicate` fires on its output stops the run there: the review is
 * opened (./reviews.ts) and `executeRun` answers `awaiting`. Executed again after the decision, the
 * run reuses every completed step and goes on with the approved snapshot, or ends if rejected.
 */
import { blockTypes, loadRunTask } from '../features.ts';
import { ModelFailure } from '../models/engine.ts';
import { RunFailure } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { FileRef } from '../platform/schemas.ts';
import type { RunContext } from '../runs/kinds.ts';
import { call } from '../webhooks/post.ts';
import { urlProblem } from '../webhooks/urls.ts';
import { evaluateCondition, valuesAt, type ConditionResult } from './conditions.ts';
import { CONTAINER_TYPES, conditionalDefault, executionOrder, resolveSecrets, type RunBlock as Block, type RunDefinition as Definition, type RunEdge } from './definition.ts';
import { evaluate, ExpressionError } from './expressions.ts';
import { predicateFires } from './predicates.ts';
import { approvedSnapshot, openReview, outputOfSnapshot, readReview } from './reviews.ts';
import { artifactIdOf, putArtifact, putStep, readHandles, stepIdOf, type Handles, type StepData, type StepLifecycle } from './steps.ts';

/** Why a block failed: the run's lifecycle error names it. */
export class BlockFailure extends Error {
  constructor(
    readonly blockId: string,
    readonly code: string,
    message: string,
    readonly category: 'transient' | 'permanent' = 'permanent',
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface BlockResult {
  output: unknown;
  /** The document flowing on from this block (start_document and the blocks that read it). */
  document?: FileRef | undefined;
  /** The output handle taken: only edges with this source_handle (or none) are followed. */
  handle?: string | undefined;
  /** What it did, kept as its artifact. */
  artifact?: { operation: string; body: Record<string, unknown>; hidden?: Record<string, unknown> };
  model?: string;
  /** For review predicates: likelihoods of the values, the JSON Schema. */
  likelihoods?: unknown;
}

export interface WorkflowInputs {
  documents: Record<string, FileRef>;
  json_data: Record<string, unknown>;
}

export interface BlockEnvironment {
  platform: Platform;
  scope: Scope;
  runId: string;
  workflowId: string;
  workflowVersionId: string;
  deadline: number;
  secrets: Record<string, string>;
  /** Whether api_call may reach http:// and private addresses (the local runtime). */
  allowPrivateUrls: boolean;
  stillWanted(): Promise<boolean>;
  /** The steps an earlier execution of this run wrote, by step id. */
  previous: Map<string, StepData>;
  /** A gate fired: the run waits (running → awaiting_review). */
  onAwait(blockId: string): Promise<void>;
  /** A gate was approved: the run goes on (awaiting_review → running). */
  onResume(): Promise<void>;
}

export type Outcome =
  | { done: true; outputs: Record<string, unknown> }
  | { stopped: true }
  | { awaiting: { review_id: string; block_id: string } }
  | { rejected: { review_id: string; block_id: string; reason: string } };

const DOCUMENT_OPERATIONS: Record<string, string> = { parse: 'parse', split: 'split', classifier: 'classification', extract: 'extraction', edit: 'edit' };

/**
 * A document block: the run kind of the feature that provides the block type (the feature list's
 * `blockTypes`), started from the block's config and the document reaching it, its prepare step and
 * task run here, inside the workflow's own task.
 */
async function runDocumentBlock(env: BlockEnvironment, block: Block, config: Record<string, unknown>, document: FileRef | undefined, input: unknown): Promise<BlockResult> {
  const blockType = blockTypes.find((b) => b.type === block.type);
  if (!blockType) throw new BlockFailure(block.id, 'configuration_error', `Block "${block.id}" has an unknown type ${block.type}`);
  const spec = await blockType.load();
  const usesTemplate = spec.usesTemplate?.(config) === true;
  if (!document && !usesTemplate) throw new BlockFailure(block.id, 'configuration_error', `Block "${block.id}" (${block.type}) has no document: connect it after a start_document block`);
  const { review: _review, ...runConfig } = config;
  const body = spec.body ? spec.body(runConfig, input) : runConfig;
  const parsed = spec.schema.safeParse({ ...body, document: usesTemplate ? undefined : document, background: true });
  if (!parsed.success) {
    const problems = parsed.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new BlockFailure(block.id, 'configuration_error', `Block "${block.id}" has an invalid config: ${problems}`);
  }
  const prepared = await spec.prepare(env.platform, env.scope, parsed.data);
  const task = await loadRunTask(blockType.kind);
  try {
    const result = await task.execute({
      platform: env.platform,
      scope: env.scope,
      runId: env.runId,
      record: { ...prepared.fields, _input: prepared.input ?? null },
      stillWanted: env.stillWanted,
      deadline: env.deadline,
    });
    const flowing = spec.result ? spec.result(result, document) : { output: result.output, document };
    const fields = Object.fromEntries(Object.entries(prepared.fields).filter(([k]) => !k.startsWith('_')));
    const extras = result.extras ?? {};
    const consensus = extras.consensus as { likelihoods?: unknown } | undefined;
    return {
      ...flowing,
      model: typeof fields.model === 'string' ? fields.model : undefined,
      likelihoods: consensus?.likelihoods ?? (extras.scores as unknown),
      artifact: {
        operation: DOCUMENT_OPERATIONS[block.type] ?? block.type,
        body: { ...fields, ...extras, ...(result.fields ?? {}), output: result.output, status: 'completed', error: null, usage: result.usage, created_at: timestamp(env.platform.clock.now()) },
        hidden: result.hidden ?? {},
      },
    };
  } catch (error) {
    if (error instanceof RunFailure || error instanceof ModelFailure) {
      const transient = error.code === 'model_unavailable' || error.code === 'timeout';
      throw new BlockFailure(block.id, error.code, error.message, transient ? 'transient' : 'permanent');
    }
    throw error;
  }
}

/**
 * A document block's primitive in the usage ledger (GET /v1/usage/blocks, /runs, /primitives):
 * one entry per step, keyed by the step's id (a resumed execution writes the same entry again).
 * A failure to write it is logged, never the block's.
 */
async function recordBlockUsage(
  env: BlockEnvironment,
  block: Block,
  stepId: string,
  operation: string,
  status: 'completed' | 'failed',
  usage: { credits: number; page_count?: number },
  at: { document: FileRef | undefined; startedAt: string; model?: string | null },
): Promise<void> {
  const documents = at.document ? [{ file_id: at.document.id, filename: at.document.filename }] : [];
  try {
    await env.platform.ledger.record(env.platform, env.scope, {
      runId: stepId,
      operation,
      status,
      usage,
      origin: { workflow_id: env.workflowId, workflow_run_id: env.runId, block_id: block.id, block_type: block.type, model: at.model ?? null, documents, started_at: at.startedAt },
    });
  } catch (error) {
    logger.error('block usage could not be recorded', { run_id: env.runId, block_id: block.id, error_type: (error as Error).name });
  }
}

const API_CALL_TIMEOUT_MS = 10_000;
const API_CALL_MAX_ANSWER_BYTES = 5 * 1024 * 1024;

async function apiCall(env: BlockEnvironment, block: Block, config: Record<string, unknown>, input: unknown): Promise<BlockResult> {
  const url = String(config.url);
  // Messages name the origin only: a URL path or query could carry a resolved secret.
  const origin = new URL(url).origin;
  const problem = urlProblem(url, env.allowPrivateUrls);
  if (problem) throw new BlockFailure(block.id, 'configuration_error', `Block "${block.id}" cannot call ${origin}: ${problem}`);
  const method = config.method === 'GET' ? 'GET' : 'POST';
  const headers: Record<string, string> = { ...(config.headers as Record<string, string> | undefined) };
  if (method === 'POST') headers['content-type'] ??= 'application/json';
  const started = Date.now();
  let answer: { status: number; text: string };
  try {
    answer = await call(method, url, headers, method === 'POST' ? JSON.stringify(config.body ?? input ?? null) : undefined, {
      timeoutMs: Math.min(API_CALL_TIMEOUT_MS, Math.max(1, env.deadline - Date.now())),
      allowPrivate: env.allowPrivateUrls,
      maxBytes: API_CALL_MAX_ANSWER_BYTES,
    });
  } catch (error) {
    const e = error as { name?: string; code?: string; message: string };
    if (e.name === 'TimeoutError') throw new BlockFailure(block.id, 'timeout', `${method} ${origin} timed out after 10 s`, 'transient');
    if (e.code === 'EPRIVATE') throw new BlockFailure(block.id, 'configuration_error', `${origin} resolves to a private address`);
    if (e.code === 'ETOOLARGE') throw new BlockFailure(block.id, 'api_call_failed', `${method} ${origin}: ${e.message}`);
    throw new BlockFailure(block.id, 'api_call_failed', `${method} ${origin} failed: ${e.code ?? 'connection error'}`, 'transient');
  }
  if (answer.status < 200 || answer.status >= 300) {
    const transient = answer.status >= 500 || answer.status === 429;
    throw new BlockFailure(block.id, 'api_call_failed', `${method} ${origin} answered HTTP ${answer.status}`, transient ? 'transient' : 'permanent', { status_code: answer.status });
  }
  let output: unknown = answer.text;
  try {
    output = answer.text ? JSON.parse(answer.text) : null;
  } catch {
    // Not JSON: passed on as text.
  }
  const attempt = { attempt_number: 1, request_method: method, request_url: origin, response_status: answer.status, duration_ms: Date.now() - started, error: null };
  return { output, artifact: { operation: 'api_call_invocation', body: { attempts: [attempt], error: null } } };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Record<string, unknown>, v) : v;
  return out;
}

function mergeDicts(block: Block, sources: Array<readonly [string, BlockResult]>): BlockResult {
  let merged: Record<string, unknown> = {};
  for (const [id, r] of sources) {
    if (r.output === null || r.output === undefined) continue;
    if (!isObject(r.output)) throw new BlockFailure(block.id, 'configuration_error', `merge_dicts "${block.id}" merges objects; what "${id}" passes is ${Array.isArray(r.output) ? 'a list' : typeof r.output}`);
    merged = block.config.strategy === 'deep' ? deepMerge(merged, r.output) : { ...merged, ...r.output };
  }
  return { output: merged, document: sources.find(([, r]) => r.document)?.[1].document };
}

function conditional(block: Block, input: unknown, document: FileRef | undefined): BlockResult {
  const evaluations: Array<ConditionResult & { branch_name: string; details: Record<string, unknown> }> = [];
  let taken: string | undefined;
  let matchedId: string | null = null;
  for (const [i, branch] of (block.config.branches as Array<{ name: string; condition: Record<string, unknown> }>).entries()) {
    let result: ConditionResult;
    try {
      result = evaluateCondition(branch.condition, input, `${branch.name}`);
    } catch (error) {
      if (error instanceof ExpressionError) throw new BlockFailure(block.id, 'condition_error', `Branch ${i} ("${branch.name}") of "${block.id}": ${error.message}`);
      throw error;
    }
    const { condition_id, ...details } = result;
    evaluations.push({ ...result, branch_name: branch.name, details });
    if (result.matched && taken === undefined) {
      taken = branch.name;
      matchedId = result.condition_id;
    }
  }
  const handle = taken ?? conditionalDefault(block);
  return {
    output: input,
    document,
    handle,
    artifact: { operation: 'conditional_evaluation', body: { evaluations, selected_handles: [handle], matched_branch_id: taken ?? null, matched_condition_ids: matchedId ? [matchedId] : [] } },
  };
}

function runFunction(block: Block, input: unknown, document: FileRef | undefined): BlockResult {
  const started = Date.now();
  try {
    const output = evaluate(String(block.config.expression), { input });
    return { output, document, artifact: { operation: 'function_invocation', body: { inputs: { input }, output, duration_ms: Date.now() - started, error: null } } };
  } catch (error) {
    if (error instanceof ExpressionError) throw new BlockFailure(block.id, 'function_error', `Function "${block.id}": ${error.message}`);
    throw error;
  }
}

const json = (data: unknown) => ({ type: 'json' as const, data: data ?? null });

/** Where a block sits: its iteration key (step ids) and the containers around it. */
interface Place {
  key: string;
  containers: StepData['loop_containers'];
}

export async function executeRun(env: BlockEnvironment, definition: Definition, inputs: WorkflowInputs): Promise<Outcome> {
  const outcome = await runGraph(env, definition, null, { key: '', containers: [] }, inputs, undefined);
  if ('results' in outcome) return { done: true, outputs: Object.fromEntries([...outcome.results].map(([id, r]) => [id, r.output])) };
  return outcome;
}

type GraphOutcome = Exclude<Outcome, { done: true }> | { results: Map<string, BlockResult>; exits: BlockResult[] };

/**
 * Runs the blocks of one level: the top (parentId null) or a container's children, which get
 * `entry` (the item, the current value) where they have no incoming edge.
 */
async function runGraph(env: BlockEnvironment, definition: Definition, parentId: string | null, place: Place, inputs: WorkflowInputs, entry: BlockResult | undefined): Promise<GraphOutcome> {
  const blocks = definition.blocks.filter((b) => (b.parent_id ?? null) === parentId && b.type !== 'note');
  const ids = new Set(blocks.map((b) => b.id));
  const edges = definition.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  const results = new Map<string, BlockResult>();
  const p = env.platform;

  for (const block of executionOrder({ blocks, edges })) {
    if (!(await env.stillWanted())) return { stopped: true };
    const incoming = edges.filter((e) => e.target === block.id);
    const followed = incoming.filter((e: RunEdge) => {
      const source = results.get(e.source);
      return source !== undefined && (e.source_handle === undefined || e.source_handle === null || e.source_handle === source.handle);
    });
    const sources = followed.map((e) => [e.source, results.get(e.source)!] as const);
    const fromEntry = incoming.length === 0 && entry !== undefined;
    const input = fromEntry ? entry.output : sources.length === 1 ? sources[0]![1].output : Object.fromEntries(sources.map(([id, r]) => [id, r.output]));
    const document = fromEntry ? entry.document : sources.find(([, r]) => r.document)?.[1].document;
    const handleInputs: Handles = {};
    if (document) handleInputs.document = { type: 'file', document };
    if (fromEntry) handleInputs.input = json(entry.output);
    else if (sources.length === 1) handleInputs.input = json(sources[0]![1].output);
    else for (const [id, r] of sources) handleInputs[`input-${id}`] = json(r.output);

    const stepId = stepIdOf(env.runId, block.id, place.key);
    const now = () => timestamp(p.clock.now());
    const step = (lifecycle: StepLifecycle, extra: Partial<StepData> = {}): StepData => ({
      step_id: stepId,
      run_id: env.runId,
      workflow_id: env.workflowId,
      block_id: block.id,
      block_type: block.type,
      block_label: block.label ?? block.name ?? '',
      lifecycle,
      started_at: null,
      completed_at: null,
      model: null,
      loop_containers: place.containers,
      created_at: env.previous.get(stepId)?.created_at ?? now(),
      artifact: null,
      retry_count: env.previous.get(stepId)?.retry_count ?? 0,
      ...extra,
    });
    const isStart = block.type === 'start_document' || block.type === 'start_json';
    if (!isStart && !fromEntry && incoming.length > 0 && followed.length === 0) {
      await putStep(p, env.scope, step({ status: 'skipped', reason: 'not on the path the run took' }), { handle_inputs: {}, handle_outputs: {} });
      continue;
    }

    // A step an earlier execution of this run completed (or gated) is not done again.
    const previous = env.previous.get(stepId);
    if (previous?.lifecycle.status === 'completed') {
      const handles = await readHandles(p, previous);
      results.set(block.id, { output: handles.handle_outputs.output?.type === 'json' ? handles.handle_outputs.output.data : null, document: handles.handle_outputs.document?.type === 'file' ? handles.handle_outputs.document.document : undefined, handle: previous._handle ?? undefined });
      continue;
    }
    if (previous?.lifecycle.status === 'awaiting_review' && previous._review_id) {
      const review = await readReview(p, env.scope, previous._review_id);
      if (!review.decision) return { awaiting: { review_id: review.id, block_id: block.id } };
      const handles = await readHandles(p, previous);
      const modelOutput = handles.handle_outputs.output?.type === 'json' ? handles.handle_outputs.output.data : null;
      const flowingDocument = handles.handle_outputs.document?.type === 'file' ? handles.handle_outputs.document.document : undefined;
      if (review.decision.verdict === 'rejected') {
        const reason = `Review ${review.id} rejected: ${review.decision.reason ?? ''}`.trim();
        await putStep(p, env.scope, { ...previous, lifecycle: { status: 'cancelled', reason }, completed_at: now() }, handles);
        return { rejected: { review_id: review.id, block_id: block.id, reason } };
      }
      const output = outputOfSnapshot(block.type, await approvedSnapshot(p, env.scope, review), modelOutput);
      const handle = block.type === 'classifier' ? String((output as { category?: unknown }).category) : (previous._handle ?? undefined);
      await env.onResume();
      const outputs: Handles = { output: json(output), ...(flowingDocument ? { document: { type: 'file', document: flowingDocument } } : {}) };
      await putStep(p, env.scope, { ...previous, lifecycle: { status: 'completed' }, completed_at: now(), _handle: handle ?? null }, { handle_inputs: handles.handle_inputs, handle_outputs: outputs });
      results.set(block.id, { output, document: flowingDocument, handle });
      continue;
    }

    const startedAt = now();
    const config = resolveSecrets(block.config, env.secrets);
    let result: BlockResult;
    try {
      switch (block.type) {
        case 'start_document':
          result = { output: inputs.documents[block.id] ?? null, document: inputs.documents[block.id] };
          break;
        case 'start_json':
          result = { output: inputs.json_data[block.id] ?? null };
          break;
        case 'api_call':
          result = await apiCall(env, block, config, input);
          break;
        case 'end':
          result = { output: Object.fromEntries(sources.map(([id, r]) => [id, r.output])) };
          break;
        case 'merge_dicts':
          result = mergeDicts(block, fromEntry ? [['entry', entry!] as const] : sources);
          break;
        case 'conditional':
          result = conditional(block, input, document);
          break;
        case 'function':
          result = runFunction(block, input, document);
          break;
        case 'for_each':
        case 'while_loop': {
          const container = await runContainer(env, definition, block, place, inputs, { output: input, document });
          if (!('output' in container)) return container;
          result = container;
          break;
        }
        default:
          await putStep(p, env.scope, step({ status: 'running' }, { started_at: startedAt }), { handle_inputs: handleInputs, handle_outputs: {} });
          result = await runDocumentBlock(env, block, config, document, input);
      }
    } catch (error) {
      const failure =
        error instanceof BlockFailure ? error : new BlockFailure(block.id, 'internal', `Block "${block.id}" failed unexpectedly (${(error as Error).name})`);
      const operation = DOCUMENT_OPERATIONS[block.type];
      if (operation) await recordBlockUsage(env, block, stepId, operation, 'failed', { credits: 0 }, { document, startedAt });
      await putStep(p, env.scope, step({ status: 'error', message: failure.message, stage: 'execution', category: failure.category, details: { block_id: block.id, error_code: failure.code } }, { started_at: startedAt, completed_at: now() }), {
        handle_inputs: handleInputs,
        handle_outputs: {},
      });
      throw failure;
    }

    const handleOutputs: Handles = { output: json(result.output) };
    if (result.document) handleOutputs.document = { type: 'file', document: result.document };
    let artifact: StepData['artifact'] = null;
    if (result.artifact) {
      artifact = { operation: result.artifact.operation, id: artifactIdOf(stepId, result.artifact.operation) };
      await putArtifact(p, env.scope, { ...artifact, run_id: env.runId, step_id: stepId, block_id: block.id }, result.artifact.body, result.artifact.hidden);
      const usage = (result.artifact.body as { usage?: { credits: number; page_count?: number } }).usage;
      if (usage) await recordBlockUsage(env, block, stepId, result.artifact.operation, 'completed', usage, { document, startedAt, model: result.model });
    }
    const done = { started_at: startedAt, completed_at: now(), model: result.model ?? null, artifact, _handle: result.handle ?? null };

    // The review gate: the run waits here when the predicate fires.
    const review = parentId === null && isObject(block.config.review) ? (block.config.review as { predicate?: Record<string, unknown> }) : undefined;
    if (review?.predicate) {
      const schema = isObject(block.config.json_schema) ? block.config.json_schema : undefined;
      const fires = predicateFires(review.predicate, { output: result.output, likelihoods: result.likelihoods, ...(schema ? { jsonSchema: schema } : {}), ...(result.handle ? { handle: result.handle } : {}) });
      const evaluationId = artifactIdOf(stepId, 'review_trigger_evaluation');
      await putArtifact(p, env.scope, { id: evaluationId, operation: 'review_trigger_evaluation', run_id: env.runId, step_id: stepId, block_id: block.id }, {
        evaluations: [],
        selected_handles: [],
        matched_branch_id: null,
        matched_condition_ids: [],
        requires_human_review: fires,
        reviewer_id: null,
        review_decision: null,
        review_notes: null,
        requested_revision: false,
        reviewed_at: null,
      });
      if (fires) {
        const opened = await openReview(p, env.scope, {
          runId: env.runId,
          workflowId: env.workflowId,
          workflowVersionId: env.workflowVersionId,
          blockId: block.id,
          blockType: block.type,
          stepId,
          predicate: review.predicate,
          output: result.output,
          model: result.model ?? 'quire-local',
          blockConfig: block.config,
        });
        await putStep(p, env.scope, step({ status: 'awaiting_review' }, { ...done, completed_at: null, _review_id: opened.id }), { handle_inputs: handleInputs, handle_outputs: handleOutputs });
        await env.onAwait(block.id);
        return { awaiting: { review_id: opened.id, block_id: block.id } };
      }
    }
    await putStep(p, env.scope, step({ status: 'completed' }, done), { handle_inputs: handleInputs, handle_outputs: handleOutputs });
    results.set(block.id, result);
  }

  // What leaves this level: the blocks that ran and have no outgoing edge.
  const exits = [...results].filter(([id]) => !edges.some((e) => e.source === id && results.has(e.target))).map(([, r]) => r);
  return { results, exits };
}

const MAX_FOR_EACH_ITEMS = 100;

/** A container: its children per item (for_each) or until its condition matches (while_loop). */
async function runContainer(env: BlockEnvironment, definition: Definition, block: Block, place: Place, inputs: WorkflowInputs, entry: BlockResult): Promise<BlockResult | Exclude<GraphOutcome, { results: unknown }>> {
  const exitOf = (exits: BlockResult[]) => (exits.length === 1 ? exits[0]!.output : exits.length === 0 ? null : exits.map((r) => r.output));
  const inner = (i: number) => ({ key: `${place.key}/${block.id}:${i}`, containers: [...place.containers, { container_id: block.id, iteration: i, is_parallel: block.type === 'for_each', parallel_item_index: block.type === 'for_each' ? i : null }] });
  if (!definition.blocks.some((b) => b.parent_id === block.id)) throw new BlockFailure(block.id, 'configuration_error', `${block.type} "${block.id}" has no blocks inside it (blocks with parent_id "${block.id}")`);
  if (block.type === 'for_each') {
    const path = typeof block.config.items_path === 'string' ? block.config.items_path : '';
    const items = valuesAt(entry.output, path)[0];
    if (!Array.isArray(items)) throw new BlockFailure(block.id, 'configuration_error', `for_each "${block.id}": ${path ? `"${path}" of its input` : 'its input'} is not a list`);
    const max = Number(block.config.max_items ?? MAX_FOR_EACH_ITEMS);
    if (items.length > max) throw new BlockFailure(block.id, 'configuration_error', `for_each "${block.id}": ${items.length} items, more than max_items (${max})`);
    const outputs: unknown[] = [];
    for (const [i, item] of items.entries()) {
      const outcome = await runGraph(env, definition, block.id, inner(i), inputs, { output: item, document: entry.document });
      if (!('results' in outcome)) return outcome;
      outputs.push(exitOf(outcome.exits));
    }
    return { output: outputs, document: entry.document };
  }
  let value = entry.output;
  const condition = block.config.condition as Record<string, unknown>;
  const max = Number(block.config.max_iterations);
  const evaluations: ConditionResult[] = [];
  let reason: 'max_iterations_reached' | 'condition_matched' = 'max_iterations_reached';
  for (let i = 0; i < max; i++) {
    const outcome = await runGraph(env, definition, block.id, inner(i), inputs, { output: value, document: entry.document });
    if (!('results' in outcome)) return outcome;
    value = exitOf(outcome.exits);
    let evaluation: ConditionResult;
    try {
      evaluation = evaluateCondition(condition, value, `iteration_${i}`);
    } catch (error) {
      if (error instanceof ExpressionError) throw new BlockFailure(block.id, 'condition_error', `while_loop "${block.id}": ${error.message}`);
      throw error;
    }
    evaluations.push(evaluation);
    if (evaluation.matched) {
      reason = 'condition_matched';
      break;
    }
  }
  return { output: value, document: entry.document, artifact: { operation: 'while_loop_termination', body: { termination_reason: reason, evaluations: evaluations.map((e) => ({ ...e, branch_name: '', details: e })) } } };
}

/** What reaches a block run alone: its input, the inputs of several sources (a merge), the document. */
export interface BlockEntry {
  input: unknown;
  /** The outputs of several source blocks reaching it (the handles `input-<source>`), by source id. */
  sources?: Array<readonly [string, unknown]>;
  document?: FileRef | undefined;
}

/** The block types a block run alone can be (`runBlockAlone`). */
export const RUNNABLE_ALONE = ['parse', 'split', 'classifier', 'extract', 'edit', 'function', 'conditional', 'merge_dicts', 'api_call'];

/**
 * The environment of one block run alone inside a run of the run kit (block executions, evals and
 * experiments): no earlier steps, no review to wait for.
 */
export function aloneEnvironment(ctx: RunContext, at: { runId: string; workflowId: string; workflowVersionId: string; secrets: Record<string, string> }): BlockEnvironment {
  return {
    platform: ctx.platform,
    scope: ctx.scope,
    ...at,
    deadline: ctx.deadline,
    allowPrivateUrls: ctx.platform.config.allowPrivateUrls,
    stillWanted: ctx.stillWanted,
    previous: new Map(),
    onAwait: async () => undefined,
    onResume: async () => undefined,
  };
}

/**
 * Runs one block alone on what reaches it (evals and experiments, functions/evals/): the code a run
 * uses for that block, without a step, an artifact record or a review gate — the caller keeps what
 * it needs of the result (its output, document, handle, artifact body). Inputs (start_*), `end`,
 * `note` and containers are not run alone (configuration_error).
 */
export async function runBlockAlone(env: BlockEnvironment, block: Block, entry: BlockEntry): Promise<BlockResult> {
  const config = resolveSecrets(block.config, env.secrets);
  const sources = (entry.sources ?? []).map(([id, output]) => [id, { output, document: entry.document }] as const);
  switch (block.type) {
    case 'api_call':
      return apiCall(env, block, config, entry.input);
    case 'merge_dicts':
      return mergeDicts(block, sources.length > 0 ? sources : [['input', { output: entry.input, document: entry.document }] as const]);
    case 'conditional':
      return conditional(block, entry.input, entry.document);
    case 'function':
      return runFunction(block, entry.input, entry.document);
    case 'parse':
    case 'split':
    case 'classifier':
    case 'extract':
    case 'edit':
      return runDocumentBlock(env, block, config, entry.document, entry.input);
    default:
      throw new BlockFailure(block.id, 'configuration_error', `A ${block.type} block cannot run alone (blocks that can: ${RUNNABLE_ALONE.join(', ')})`);
  }
}

export { CONTAINER_TYPES };
