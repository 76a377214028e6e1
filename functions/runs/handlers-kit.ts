/**
 * Thin HTTP handlers for the generic routes of a run resource (get, list, delete, cancel) and its
 * create, given the kind, its operations and how a create body becomes a run.
 */
import type { z } from 'zod';
import { api, type ApiRequest } from '../platform/http.ts';
import type { Operation } from '../platform/operation.ts';
import type { RunKind } from './kinds.ts';
import type { ListRunsQuery, runOperations } from './schema.ts';
import { cancelRun, createRun, deleteRun, getRun, listRuns, type CreateRunInput } from './service.ts';

type RunOps<C extends z.ZodType, L extends z.ZodType> = ReturnType<typeof runOperations<C, z.ZodType, L>>;

export function runHandlers<C extends z.ZodType, L extends z.ZodType = typeof ListRunsQuery>(
  kind: RunKind,
  ops: RunOps<C, L>,
  idParam: string,
  prepare: (req: ApiRequest<z.infer<C>, unknown, unknown>) => Promise<CreateRunInput>,
  /** Equality filters of the list beyond the common ones (e.g. metadata), from its query. */
  listAttrs?: (query: z.infer<L>) => Record<string, string>,
) {
  const idOf = (params: Record<string, string>) => params[idParam]!;
  return {
    create: api(ops.create as Operation<C>, async (req) => createRun(req.platform, req.caller, kind, await prepare(req))),
    get: api(ops.get, ({ platform, caller, params, query }) => getRun(platform, caller, kind, idOf(params), query.include_output)),
    list: api(ops.list, ({ platform, caller, query }) => listRuns(platform, caller, kind, query as z.infer<typeof ListRunsQuery>, listAttrs?.(query))),
    delete: api(ops.delete, async ({ platform, caller, params }) => {
      await deleteRun(platform, caller, kind, idOf(params));
      return undefined;
    }),
    cancel: api(ops.cancel, ({ platform, caller, params }) => cancelRun(platform, caller, kind, idOf(params))),
  };
}
