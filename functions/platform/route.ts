/**
 * What a route is: an HTTP method and path served by one exported handler of a feature's
 * handlers module, described by its operation. Features list their routes (functions/<feature>/
 * feature.ts); the feature list (functions/features.ts) gathers them into the one route table that
 * CDK (lib/cloud), the local HTTP server (lib/local) and the OpenAPI document read.
 */
import type { Operation } from './operation.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type SizeClass = 'small' | 'document';

export interface Route {
  method: HttpMethod;
  /** API Gateway path syntax: /v1/files/{file_id} */
  path: string;
  /**
   * Handler module, relative to functions/ (or absolute, for routes defined by tests). Its folder is
   * the resource group, and each group is one Lambda on AWS (its routes dispatched by route key).
   */
  module: string;
  /** Export name of the handler in `module`. */
  handler: string;
  /** Picks memory and timeout (see `SIZES`). */
  size: SizeClass;
  op: Operation;
  /**
   * Streams its answer (./streaming.ts: the handler writes it as it goes, e.g. one JSON event per
   * line). Locally the HTTP server writes each chunk as it comes; on AWS the route is also served by
   * a Lambda function URL in RESPONSE_STREAM mode (lib/cloud/api.ts), and API Gateway's route
   * answers the same events buffered, all at once.
   */
  stream?: boolean;
}

/** How long a streamed answer may last: a Lambda's longest run (a function URL streams up to it). */
export const STREAM_TIMEOUT_SECONDS = 900;

/** Memory (MB) and timeout (s) of each size class; API Gateway ends requests at 29 s anyway. */
export const SIZES: Record<SizeClass, { memoryMb: number; timeoutSeconds: number }> = {
  small: { memoryMb: 512, timeoutSeconds: 29 },
  document: { memoryMb: 2048, timeoutSeconds: 29 },
};

/** The API Gateway route key of a route, e.g. "GET /v1/files/{file_id}". */
export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** A feature's routes, all served by its `handlers.ts`. */
export function routesOf(folder: string, list: ReadonlyArray<Omit<Route, 'module'>>): Route[] {
  return list.map((route) => ({ ...route, module: `${folder}/handlers.ts` }));
}

/** Background task functions: invoked by state machines, never by HTTP. Keys are the ASL substitution names. */
export interface TaskFunction {
  /** Module relative to functions/. */
  module: string;
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  /**
   * Whether it reads documents (default true). A task that does not (webhook delivery) is built
   * without the document engines' runtime packages, on arm64, and may use the table and the key
   * but not the documents bucket.
   */
  documents?: boolean;
}

/** A state machine: its ASL file (relative to the repository root) and the task functions it calls, by ASL substitution name. */
export interface StateMachine {
  definition: string;
  tasks: Record<string, TaskFunction>;
}
