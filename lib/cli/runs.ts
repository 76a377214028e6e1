/**
 * Runs from the terminal: which route serves an id (by its prefix), waiting for a terminal status with
 * a live status line (Ctrl-C offers to cancel), and a readable rendering of each kind's output.
 */
import { createInterface } from 'node:readline';
import type { ApiClient } from './api-client.ts';
import { renderTable, StatusLine, UsageError } from './output.ts';

export interface RunKind {
  /** Singular name, as in event types and messages. */
  name: string;
  prefix: string;
  path: string;
  /** Workflow runs report `lifecycle.status`; the primitives report `status`. */
  workflow?: boolean;
}

let runKindsLoaded: Promise<RunKind[]> | undefined;

/**
 * Every kind of run with a collection route (from the feature list), and workflow runs. The feature
 * list is loaded only by the commands that meet a run: importing it costs a process about 0.8 s,
 * which a `whoami` or `files list` should not pay.
 */
export function runKinds(): Promise<RunKind[]> {
  runKindsLoaded ??= import('../../functions/features.ts').then(({ runCollections }) => [
    ...runCollections.map(({ kind, path }) => ({ name: kind.name, prefix: `${kind.idPrefix}_`, path })),
    { name: 'workflow_run', prefix: 'run_', path: '/v1/workflows/runs', workflow: true },
  ]);
  return runKindsLoaded;
}

export async function kindOfId(id: string): Promise<RunKind> {
  const kinds = await runKinds();
  const kind = kinds.find((k) => id.startsWith(k.prefix));
  if (!kind) throw new UsageError(`"${id}" is not a run id (expected one of the prefixes ${kinds.map((k) => k.prefix).join(' ')})`);
  return kind;
}

export async function kindNamed(name: string): Promise<RunKind> {
  const kinds = await runKinds();
  const kind = kinds.find((k) => k.name === name);
  if (!kind) throw new UsageError(`Unknown run type "${name}" (one of: ${kinds.map((k) => k.name).join(', ')})`);
  return kind;
}

type Run = Record<string, any>;

export function statusOf(run: Run): string {
  return run.lifecycle?.status ?? run.status ?? 'unknown';
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'error']);
export const isTerminal = (run: Run) => TERMINAL.has(statusOf(run));
export const succeeded = (run: Run) => statusOf(run) === 'completed';

/** Asks a yes/no question on stderr and reads the answer from stdin. */
function ask(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
    process.stderr.write(question);
    rl.once('line', (line) => {
      resolve(/^y(es)?$/i.test(line.trim()));
      rl.close();
    });
    rl.once('close', () => resolve(false));
  });
}

/**
 * Polls the run until it is terminal, showing its status. Ctrl-C asks whether to cancel the run; a
 * second Ctrl-C leaves at once (the run goes on).
 */
export async function waitForRun(client: ApiClient, run: Run, options: { intervalMs?: number; quiet?: boolean } = {}): Promise<Run> {
  const kind = await kindOfId(run.id);
  const line = new StatusLine();
  const started = Date.now();
  let interrupted = false;
  let cancelled: Run | undefined;
  const onInterrupt = async () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    line.done();
    const yes = await ask(`\nCancel ${run.id}? [y/N] `);
    if (yes) {
      try {
        const answer = await client.call<Run>('POST', `${kind.path}/${run.id}/cancel`, { json: {} });
        cancelled = kind.workflow ? answer.run : answer;
        process.stderr.write(`Cancelled ${run.id}\n`);
      } catch (error) {
        process.stderr.write(`Could not cancel ${run.id}: ${(error as Error).message}\n`);
        process.exit(130);
      }
    } else {
      process.stderr.write(`${run.id} goes on; follow it with: quire runs wait ${run.id}\n`);
      process.exit(130);
    }
  };
  process.on('SIGINT', onInterrupt);
  try {
    let current = run;
    let delay = options.intervalMs ?? 250;
    while (!isTerminal(current) && !cancelled) {
      if (!options.quiet) line.update(`${run.id}  ${statusOf(current)}  ${((Date.now() - started) / 1000).toFixed(0)}s`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 1.5, 2000);
      if (interrupted && !cancelled) continue;
      current = await client.call<Run>('GET', `${kind.path}/${run.id}`);
    }
    if (!options.quiet) line.update(`${run.id}  ${statusOf(cancelled ?? current)}`);
    line.done();
    return cancelled ?? current;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/** The run's output, readable. */
export async function renderRun(run: Run): Promise<string> {
  const status = statusOf(run);
  if (status === 'failed' || status === 'error') {
    const error = run.error ?? run.lifecycle;
    return `${run.id} failed: ${error?.code ?? error?.details?.error_code ?? 'error'}: ${error?.message ?? ''}`;
  }
  if (status !== 'completed') return `${run.id}  ${status}`;
  const kind = await kindOfId(run.id);
  const output = run.output;
  switch (kind.name) {
    case 'parse':
      return output.text;
    case 'classification':
      return `${output.category}  (likelihood ${Number(run.consensus?.likelihoods ?? 0).toFixed(2)})\n${output.reasoning}`;
    case 'split':
      return renderTable(['name', 'pages'], (output as Array<{ name: string; pages: number[] }>).map((e) => [e.name, e.pages.join(',')]));
    case 'partition':
      return renderTable(['key', 'pages'], (output as Array<{ key: string; pages: number[] }>).map((e) => [e.key, e.pages.join(',')]));
    case 'schema_generation':
      return JSON.stringify(run.json_schema, null, 2);
    case 'edit':
      return renderTable(['key', 'type', 'page', 'value'], (output.form_data as Array<{ key: string; type: string; bbox: { page: number }; value: string | null }>).map((f) => [f.key, f.type, f.bbox?.page, f.value ?? '']));
    case 'workflow_run':
      return JSON.stringify(run.outputs, null, 2);
    default:
      return JSON.stringify(output, null, 2);
  }
}
