/**
 * Wire pieces shared by every run resource (API §0.5) and the generic operations of a run resource:
 * create, get (include_output), list, delete, cancel.
 */
import * as z from 'zod';
import { operation } from '../platform/operation.ts';
import { listEnvelope, RunListQueryParams } from '../platform/schemas.ts';

export const IncludeOutput = z
  .enum(['true', 'false'])
  .default('true')
  .transform((v) => v === 'true')
  .describe('false: the record without its output (cheap, for polling)');

export const GetRunQuery = z.object({ include_output: IncludeOutput });
export const ListRunsQuery = RunListQueryParams.extend({ include_output: IncludeOutput });

export function runOperations<C extends z.ZodType, R extends z.ZodType, L extends z.ZodType = typeof ListRunsQuery>(spec: {
  resource: string;
  plural: string;
  idParam: string;
  createBody: C;
  record: R;
  tag: string;
  /** A list query with filters of the resource's own (default: the common run filters). */
  listQuery?: L;
}) {
  const params = z.object({ [spec.idParam]: z.string() }) as z.ZodObject<Record<string, z.ZodString>>;
  return {
    create: operation({ summary: `Create a ${spec.resource} (sync, or background: true)`, auth: 'api_key', body: spec.createBody, status: 201, response: spec.record, tags: [spec.tag] }),
    get: operation({ summary: `Get a ${spec.resource}`, auth: 'api_key', params, query: GetRunQuery, status: 200, response: spec.record, tags: [spec.tag] }),
    list: operation({ summary: `List ${spec.plural}`, auth: 'api_key', query: (spec.listQuery ?? ListRunsQuery) as L, status: 200, response: listEnvelope(spec.record), tags: [spec.tag] }),
    delete: operation({ summary: `Delete a ${spec.resource}`, auth: 'api_key', params, status: 204, tags: [spec.tag] }),
    cancel: operation({ summary: `Cancel a ${spec.resource} (idempotent)`, auth: 'api_key', params, status: 200, response: spec.record, tags: [spec.tag] }),
  };
}
