/**
 * Streamed answers (a route with `stream: true`, ./route.ts): the handler writes its answer as it
 * goes — for ./streaming.ts `streamingApi`, one JSON event per line (`application/stream+json`, each line ended by
 * `\n`, so line readers such as the Python SDK's work) — instead of returning it whole.
 *
 * A streaming handler is `(event, sink, context)`: the API Gateway HTTP API event (payload 2.0, which
 * a Lambda function URL sends too), a `ResponseSink` and the Lambda context. Three hosts give it a
 * sink, and the handler cannot tell them apart:
 * - the local HTTP server (lib/local/http-server.ts), which writes each chunk to the socket as it
 *   comes, the handler running in a worker thread (lib/local/worker.ts relays the chunks);
 * - on AWS, a Lambda function URL in RESPONSE_STREAM mode (`lambdaStreamingHandler`, the entry
 *   lib/cloud/bundling.ts writes for the route);
 * - API Gateway's HTTP API, which cannot stream: the group's dispatcher (./dispatcher.ts) collects
 *   the chunks and answers them whole (`bufferedStream`).
 * A client that goes away aborts `sink.cut`: writes are dropped from then on, and the handler stops
 * waiting (the work it started goes on: a run ends on its own).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** Where a streaming handler writes its answer. */
export interface ResponseSink {
  /** The status and headers: once, before the first write. */
  head(statusCode: number, headers: Record<string, string>): void;
  write(chunk: string): void;
  end(): void;
  /** Aborted when the client has gone away: writes are dropped from then on. */
  readonly cut: AbortSignal;
}

export type StreamingHandler = ((event: APIGatewayProxyEventV2, sink: ResponseSink, context: Context) => Promise<void>) & { readonly streaming: true };

export function isStreamingHandler(fn: unknown): fn is StreamingHandler {
  return typeof fn === 'function' && (fn as { streaming?: unknown }).streaming === true;
}

/** The media type of a stream of JSON events, one per line. */
export const STREAM_CONTENT_TYPE = 'application/stream+json';

/**
 * A streaming handler behind a host that cannot stream (API Gateway's HTTP API): the chunks are
 * collected and answered at once, as one response.
 */
export async function bufferedStream(fn: StreamingHandler, event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> {
  let statusCode = 200;
  let headers: Record<string, string> = {};
  const chunks: string[] = [];
  await fn(
    event,
    {
      head(status, h) {
        statusCode = status;
        headers = h;
      },
      write: (chunk) => void chunks.push(chunk),
      end() {},
      cut: new AbortController().signal,
    },
    context,
  );
  return { statusCode, headers, body: chunks.join('') };
}

/** What the Lambda Node.js runtime gives a function URL in RESPONSE_STREAM mode (a global there, nowhere else). */
interface LambdaStreamingRuntime {
  streamifyResponse(fn: (event: APIGatewayProxyEventV2, responseStream: NodeJS.WritableStream, context: Context) => Promise<void>): unknown;
  HttpResponseStream: { from(stream: NodeJS.WritableStream, prelude: { statusCode: number; headers: Record<string, string> }): NodeJS.WritableStream };
}

/**
 * The handler of a Lambda function URL in RESPONSE_STREAM mode: the runtime's response stream as a
 * ResponseSink (status and headers through HttpResponseStream's prelude).
 */
export function lambdaStreamingHandler(fn: StreamingHandler): unknown {
  const runtime = (globalThis as { awslambda?: Partial<LambdaStreamingRuntime> }).awslambda;
  if (typeof runtime?.streamifyResponse !== 'function' || !runtime.HttpResponseStream) {
    // Loaded outside Lambda (a bundle check): a handler that says what it needs.
    return async () => {
      throw new Error('Response streaming needs the Lambda Node.js runtime (its awslambda global)');
    };
  }
  return runtime.streamifyResponse(async (event, responseStream, context) => {
    const cut = new AbortController();
    let out: NodeJS.WritableStream = responseStream;
    let ended = false;
    const gone = () => {
      if (!ended) cut.abort();
    };
    responseStream.on('close', gone);
    responseStream.on('error', gone);
    await fn(
      event,
      {
        head(statusCode, headers) {
          out = runtime.HttpResponseStream!.from(responseStream, { statusCode, headers });
        },
        write(chunk) {
          if (!cut.signal.aborted) out.write(chunk);
        },
        end() {
          ended = true;
          out.end();
        },
        cut: cut.signal,
      },
      context,
    );
  });
}
