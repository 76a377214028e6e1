/**
 * Running a workflow's blocks (task code only): each block in dependency order, fed by the blocks
 * whose edges are followed (a classifier's edge only for the category that won). Document blocks run
 * the primitives' own prepare + task code, so a workflow parse is exactly a parse; `api_call` posts
 * to the configured URL under the webhook URL rules; `end` collects what reaches it.
 */
import { blockTypes, loadRunTask } from '../features.ts';
import { ModelFailure } from '../models/engine.ts';
import { RunFailure } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { FileRef } from '../platform/schemas.ts';
import { call } from '../webhooks/post.ts';
import { urlProblem } from '../webhooks/urls.ts';
import { executionOrder, resolveSecrets } from './definition.ts';
import type { Block, Definition } from './schema.ts';

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

interface BlockResult {
  output: unknown;
  /** The document flowing on from this block (start_document and the blocks that read it). */
  document?: FileRef;
  /** A classifier's winning category: only edges with this source_handle (or none) are followed. */
  handle?: string;
}

export interface WorkflowInputs {
  documents: Record<string, FileRef>;
  json_data: Record<string, unknown>;
}

export interface BlockEnvironment {
  platform: Platform;
  scope: Scope;
  runId: string;
  deadline: number;
  secrets: Record<string, string>;
  /** Whether api_call may reach http:// and private addresses (the local runtime). */
  allowPrivateUrls: boolean;
  stillWanted(): Promise<boolean>;
}

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
  const body = spec.body ? spec.body(config, input) : config;
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
    return spec.result ? spec.result(result, document) : { output: result.output, document };
  } catch (error) {
    if (error instanceof RunFailure || error instanceof ModelFailure) {
      const transient = error.code === 'model_unavailable' || error.code === 'timeout';
      throw new BlockFailure(block.id, error.code, error.message, transient ? 'transient' : 'permanent');
    }
    throw error;
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
  return { output };
}

/**
 * Runs the definition; returns every block's output by block id (skipped blocks absent).
 * Throws BlockFailure for a block that fails.
 */
export async function runBlocks(env: BlockEnvironment, definition: Definition, inputs: WorkflowInputs): Promise<Record<string, unknown>> {
  const results = new Map<string, BlockResult>();
  for (const block of executionOrder(definition)) {
    if (!(await env.stillWanted())) break;
    const incoming = definition.edges.filter((e) => e.target === block.id);
    const followed = incoming.filter((e) => {
      const source = results.get(e.source);
      return source !== undefined && (e.source_handle === undefined || e.source_handle === source.handle);
    });
    const isStart = block.type === 'start_document' || block.type === 'start_json';
    if (!isStart && incoming.length > 0 && followed.length === 0) continue; // not on the taken path
    const sources = followed.map((e) => [e.source, results.get(e.source)!] as const);
    const input = sources.length === 1 ? sources[0]![1].output : Object.fromEntries(sources.map(([id, r]) => [id, r.output]));
    const document = sources.find(([, r]) => r.document)?.[1].document;
    // Secrets are resolved into this block's config only for the call, never kept.
    const config = resolveSecrets(block.config, env.secrets);

    let result: BlockResult;
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
      default:
        result = await runDocumentBlock(env, block, config, document, input);
    }
    results.set(block.id, result);
  }
  return Object.fromEntries([...results].map(([id, r]) => [id, r.output]));
}
