/**
 * A run kind defined by the tests ("probe") to prove the generic run machinery before the real kinds
 * exist. Its create body says how the task behaves: echo, crash, fail with a PrimitiveError, wait at a
 * gate the test opens, or fail transiently once; or fan out over three ranges of one page each
 * (`ranges`), one of which fails (`ranges-fail`) or waits at the gate (`ranges-gate`).
 */
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { resolveDocument } from '../../functions/files/service.ts';
import { ModelName } from '../../functions/models/schema.ts';
import { RunFailure, TransientError } from '../../functions/platform/errors.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../../functions/platform/schemas.ts';
import { registerRunTask, type RunKind, type RunTask } from '../../functions/runs/kinds.ts';
import { runOperations } from '../../functions/runs/schema.ts';
import type { Route } from '../../functions/platform/route.ts';

const CreateProbe = z.object({
  mode: z.enum(['echo', 'crash', 'fail', 'bad-document', 'gate', 'transient-once', 'ranges', 'ranges-fail', 'ranges-gate']).default('echo'),
  text: z.string().default(''),
  gate: z.string().optional(),
  document: DocumentInput.optional(),
  model: ModelName,
  instructions: z.string().optional(),
  background: z.boolean().default(false),
});

const Probe = z.object({
  id: z.string(),
  file: FileRef.nullable(),
  model: z.string(),
  mode: z.string(),
  instructions: z.string().nullable(),
  status: RunStatus,
  error: PrimitiveError.nullable(),
  usage: z.object({ credits: z.number() }),
  created_at: z.string(),
  output: z.object({ echo: z.string().optional() }),
});

export const probeOperations = runOperations({ resource: 'probe', plural: 'probes', idParam: 'probe_id', createBody: CreateProbe, record: Probe, tag: 'probes' });

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Gates a "gate" probe waits at; the test opens them. Shared because handlers run inline. */
export const gates = new Map<string, { reached: Deferred; open: Deferred }>();
export function gate(name: string) {
  let g = gates.get(name);
  if (!g) {
    g = { reached: deferred(), open: deferred() };
    gates.set(name, g);
  }
  return g;
}

const transientSeen = new Set<string>();
export const attempts = new Map<string, number>();

export const probeKind: RunKind = { name: 'probe', type: 'probe', idPrefix: 'prb', resource: 'Probe', emptyOutput: {} };

export const probeTask: RunTask = {
  kind: probeKind,
  async execute({ record, runId, reportProgress }) {
    attempts.set(runId, (attempts.get(runId) ?? 0) + 1);
    const mode = record.mode as string;
    if (mode === 'crash') throw new Error('boom: an internal detail that must not leak');
    if (mode === 'fail') throw new RunFailure('model_error', 'The probe model gave up', { page: 3 });
    if (mode === 'bad-document') throw new RunFailure('document_invalid', 'The probe document is damaged');
    if (mode === 'transient-once' && !transientSeen.has(runId)) {
      transientSeen.add(runId);
      throw new TransientError('briefly unavailable');
    }
    if (mode === 'gate') {
      const g = gate((record._input as { gate: string }).gate);
      // As a long read would: how far it is, shown in the record while it waits.
      if (record.text === 'progress') await reportProgress?.({ pages_done: 2, pages_total: 5 });
      g.reached.resolve();
      await g.open.promise;
    }
    return { output: { echo: record.text ?? '' }, usage: { credits: 1 } };
  },
  ranges: {
    async plan({ record }) {
      if (!String(record.mode).startsWith('ranges')) return undefined;
      return { ranges: [0, 1, 2].map((index) => ({ index, first: index + 1, last: index + 1 })), concurrency: 3, pagesTotal: 3 };
    },
    async range({ record }, range) {
      // The second range is the one that fails or waits; the others are done at once.
      if (range.index === 1 && record.mode === 'ranges-fail') throw new RunFailure('document_invalid', 'Page 2 of the probe document is damaged');
      if (range.index === 1 && record.mode === 'ranges-gate') {
        const g = gate((record._input as { gate: string }).gate);
        g.reached.resolve();
        await g.open.promise;
      }
      return { page: range.first, text: `${record.text}:${range.first}` };
    },
    async merge(_ctx, parts) {
      return { output: { echo: (parts as Array<{ text: string }>).map((part) => part.text).join(' ') }, usage: { credits: parts.length } };
    },
  },
};
registerRunTask(probeTask);

const here = fileURLToPath(new URL('./probe-handlers.ts', import.meta.url));
export const probeRoutes: Route[] = [
  { method: 'POST', path: '/v1/probes', module: here, handler: 'createProbe', size: 'small', op: probeOperations.create },
  { method: 'GET', path: '/v1/probes', module: here, handler: 'listProbes', size: 'small', op: probeOperations.list },
  { method: 'GET', path: '/v1/probes/{probe_id}', module: here, handler: 'getProbe', size: 'small', op: probeOperations.get },
  { method: 'DELETE', path: '/v1/probes/{probe_id}', module: here, handler: 'deleteProbe', size: 'small', op: probeOperations.delete },
  { method: 'POST', path: '/v1/probes/{probe_id}/cancel', module: here, handler: 'cancelProbe', size: 'small', op: probeOperations.cancel },
];

export { CreateProbe, resolveDocument };
