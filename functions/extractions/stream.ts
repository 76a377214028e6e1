/**
 * Streamed extractions (POST /v1/extractions/stream): the body of POST /v1/extractions, answered as
 * JSON events, one per line (`application/stream+json`), as the extraction's values become known.
 *
 * The extraction is an ordinary run (stored, executed by its state machine, read back with GET
 * /v1/extractions/{id}): the stream reports on it. Events, each a JSON object with a `type`:
 * - `started`: `{extraction}` — the run as stored (status `queued`, or `completed` when the result
 *   cache answered), so a client knows its id at once;
 * - `status`: `{extraction_id, status}` — each status the run moves to while it works;
 * - `delta`: `{extraction_id, path, value, likelihood}` — one value of the output, by its dot path
 *   (`line_items.0.amount`), with its likelihood (API §6.1 consensus.likelihoods), as it becomes
 *   known. (The built-in engine reads the whole document before it answers: its values all become
 *   known when the run completes, and come then, in document order.)
 * - `done`: `{extraction}` — last: the whole extraction as GET answers it (completed, failed with its
 *   `error`, cancelled, or still `in_progress` when the stream's time ran out: then poll the GET).
 * A client that goes away stops the stream, not the extraction: it completes and is read with GET.
 */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { Invalid } from '../platform/errors.ts';
import type { EventStream } from '../platform/streaming.ts';
import { followRun, startRun } from '../runs/service.ts';
import { extractionKind } from './kind.ts';
import type { CreateExtractionBody } from './schema.ts';
import { prepareExtraction } from './service.ts';

export interface OpenedStream {
  id: string;
  wire: Record<string, unknown>;
}

/** Checks the request and starts its run: every refusal is the 4xx a create would answer, before anything is streamed. */
export async function openExtractionStream(p: Platform, scope: Scope, body: CreateExtractionBody): Promise<OpenedStream> {
  if (body.background) {
    throw Invalid.at(['body', 'background'], 'background cannot be combined with streaming: stream the extraction, or create it with POST /v1/extractions and background true', 'value_error', true);
  }
  const run = await startRun(p, scope, extractionKind, await prepareExtraction(p, scope, body));
  return { id: run.id, wire: run.wire };
}

/** Reports on the run as it goes: see the module's comment for the events. */
export async function streamExtraction(p: Platform, scope: Scope, opened: OpenedStream, events: EventStream): Promise<void> {
  events.send({ type: 'started', extraction: opened.wire });
  let last = opened.wire.status;
  const followed = await followRun(p, scope, extractionKind, opened.id, {
    until: events.deadline,
    signal: events.cut,
    onStatus(data) {
      if (data.status === last) return;
      last = data.status;
      events.send({ type: 'status', extraction_id: opened.id, status: data.status });
    },
  });
  if (events.cut.aborted) return;
  const { wire } = followed;
  if (wire.status === 'completed') {
    const likelihoods = (wire.consensus as { likelihoods?: unknown } | undefined)?.likelihoods;
    for (const leaf of leavesOf(wire.output, likelihoods, '')) events.send({ type: 'delta', extraction_id: opened.id, ...leaf });
  }
  events.send({ type: 'done', extraction: wire });
}

/** Every leaf of an output (scalars, nulls, empty lists and objects), in document order, with the likelihood at its path. */
function* leavesOf(value: unknown, likelihoods: unknown, path: string): Generator<{ path: string; value: unknown; likelihood: number | null }> {
  const isObject = value !== null && typeof value === 'object';
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : isObject ? Object.entries(value) : [];
  if (entries.length === 0) {
    if (path !== '') yield { path, value, likelihood: typeof likelihoods === 'number' ? likelihoods : null };
    return;
  }
  for (const [key, child] of entries) {
    const childLikelihoods = likelihoods !== null && typeof likelihoods === 'object' ? (likelihoods as Record<string | number, unknown>)[key] : undefined;
    yield* leavesOf(child, childLikelihoods, path === '' ? String(key) : `${path}.${key}`);
  }
}
