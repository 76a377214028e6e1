/**
 * An operation is the wire description of one route: what it accepts and what it answers. The same
 * object validates requests in the handler (`platform/http.ts`) and documents the route in the
 * OpenAPI document (`docs/openapi.ts`), so the two cannot drift apart.
 */
import type { z } from 'zod';

export interface Operation<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
> {
  summary: string;
  /**
   * `public` routes skip the API key (only the OpenAPI document and the docs page). `session` routes
   * are the dashboard's (pages for people): they read the member's session cookie where they need
   * one, never an API key, and are not part of the API (left out of the OpenAPI document).
   */
  auth: 'api_key' | 'public' | 'session';
  body?: B;
  /**
   * Schema of a multipart/form-data body, for routes that also take a form (table uploads); its output
   * is handed to the handler as `body`, like the JSON body's.
   */
  multipart?: z.ZodType;
  query?: Q;
  params?: P;
  /** Success status. */
  status: number;
  /** Success body schema; omitted for 204 and non-JSON answers. */
  response?: z.ZodType;
  /** Body media type when it is not JSON. */
  contentType?: string;
  tags?: string[];
  /**
   * Keeps the nulls of the request body (by default a null means "not given", API §0.1): for a route
   * where a null says something (a block PATCH's config merge, where `null` deletes a key).
   */
  keepNulls?: boolean;
  /**
   * A POST that only reads (its body is a question, not a change: a table query). Its key is
   * resolved as a GET's is (callers.ts resolveReader): a key the container knows is read once, after
   * the work, and a key revoked meanwhile still answers 401 before anything is shown.
   */
  reads?: boolean;
}

export function operation<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
  op: Operation<B, Q, P>,
): Operation<B, Q, P> {
  return op;
}
