/**
 * A streaming route of the API (./response-stream.ts says what a streaming handler is): its request
 * checked as any API call's, then its answer written as JSON events, one per line.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { api, type ApiRequest } from './http.ts';
import { logger } from './logger.ts';
import type { Operation } from './operation.ts';
import { STREAM_CONTENT_TYPE, type ResponseSink, type StreamingHandler } from './response-stream.ts';

/** The events of a stream, as the second phase of `streamingApi` writes them. */
export interface EventStream {
  /** Writes one event as a line of JSON (dropped once the client has gone away). */
  send(event: Record<string, unknown>): void;
  /** Aborted when the client has gone away. */
  readonly cut: AbortSignal;
  /** Epoch ms by which the stream must end: the invocation's time, less a margin to say so. */
  readonly deadline: number;
}

/** Time kept at the end of an invocation for the last events and the end of the stream. */
const END_MARGIN_MS = 2_000;

/**
 * A streaming route in two phases. `open` is an ordinary API call (./http.ts `api`: the key, the
 * body, query and path checked, every error answered as API §0.2 says, a 422 included) and does
 * what must succeed before anything is streamed (e.g. create the run). Only when it succeeds does
 * the answer start: 200, `application/stream+json`, and `stream` writes the events. An error thrown
 * by `stream` (the status is sent by then) ends the stream with an `error` event.
 */
export function streamingApi<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, S>(
  op: Operation<B, Q, P>,
  open: (req: ApiRequest<z.infer<B>, z.infer<Q>, z.infer<P>>) => Promise<S>,
  stream: (opened: S, events: EventStream, req: ApiRequest<z.infer<B>, z.infer<Q>, z.infer<P>>) => Promise<void>,
): StreamingHandler {
  // The opened streams by their event: one object per invocation, even when invocations share a process (tests).
  const opened = new WeakMap<APIGatewayProxyEventV2, { req: ApiRequest<z.infer<B>, z.infer<Q>, z.infer<P>>; value: S }>();
  const opening = api(op, async (req) => {
    opened.set(req.event, { req, value: await open(req) });
    return { streaming: true };
  });
  const handler = async (event: APIGatewayProxyEventV2, sink: ResponseSink, context: Context) => {
    const answer = (await opening(event, context)) as APIGatewayProxyStructuredResultV2;
    const started = opened.get(event);
    if (!started || (answer.statusCode ?? 200) >= 300) {
      // Refused before anything was streamed: the API's own answer, whole.
      writeWhole(sink, answer);
      return;
    }
    const { req, value } = started;
    sink.head(200, { 'content-type': STREAM_CONTENT_TYPE, 'cache-control': 'no-store', 'x-request-id': req.requestId });
    const events: EventStream = {
      send(e) {
        if (!sink.cut.aborted) sink.write(`${JSON.stringify(e)}\n`);
      },
      cut: sink.cut,
      deadline: Date.now() + Math.max(0, context.getRemainingTimeInMillis() - END_MARGIN_MS),
    };
    try {
      await stream(value, events, req);
    } catch (error) {
      logger.error('stream failed', { error: error as Error, request_id: req.requestId });
      events.send({ type: 'error', error: { code: 'internal', message: 'The stream failed; the work it reported on may still end (read it with a GET)', details: null }, request_id: req.requestId });
    } finally {
      sink.end();
    }
  };
  return Object.assign(handler, { streaming: true as const });
}

function writeWhole(sink: ResponseSink, answer: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name] = String(value);
  sink.head(answer.statusCode ?? 200, headers);
  if (answer.body) sink.write(answer.isBase64Encoded ? Buffer.from(answer.body, 'base64').toString('utf8') : answer.body);
  sink.end();
}

