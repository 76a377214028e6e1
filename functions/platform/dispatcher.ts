/**
 * The Lambda side of dispatch: picks the handler of `event.routeKey` from a resource group's module,
 * by the group's table of route keys and handler names. The generated entry of each Lambda carries
 * that table, written from the route table at synth (lib/cloud/bundling.ts routeEntrySource), so a
 * Lambda does not bundle the route table itself (every feature's operations and their zod schemas,
 * about 40 KB of each bundle). functions/features.ts `routeDispatcher` builds the same dispatcher from the route table.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { bufferedStream, isStreamingHandler } from './response-stream.ts';

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/** `handlerNames`: route key ("POST /v1/files") → the name the group's module exports its handler under. */
export function dispatcherOf(group: string, handlers: Record<string, unknown>, handlerNames: Record<string, string>): LambdaHandler {
  const byKey = new Map<string, LambdaHandler>();
  for (const [key, name] of Object.entries(handlerNames)) {
    const fn = handlers[name];
    if (typeof fn !== 'function') throw new Error(`Route ${key}: ${group}/handlers.ts exports no ${name}`);
    byKey.set(key, fn as LambdaHandler);
  }
  if (byKey.size === 0) throw new Error(`No route of the route table is hosted by ${group}/handlers.ts`);
  return async (event, context) => {
    const fn = byKey.get(event.routeKey);
    if (!fn) return { statusCode: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: 'Not Found' }) };
    // API Gateway's HTTP API cannot stream: a streaming route's answer is collected and sent whole (./response-stream.ts).
    if (isStreamingHandler(fn)) return bufferedStream(fn, event, context);
    return fn(event, context);
  };
}
