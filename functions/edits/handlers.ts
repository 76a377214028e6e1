import { api } from '../platform/http.ts';
import { runHandlers } from '../runs/handlers-kit.ts';
import { editKind } from './kind.ts';
import { editOperations as ops } from './operations.ts';
import { createTemplate as create, deleteTemplate as remove, getTemplate as read, listTemplates as list, prepareEdit, updateTemplate as update } from './service.ts';

const handlers = runHandlers(
  editKind,
  ops,
  'edit_id',
  ({ platform, caller, body }) => prepareEdit(platform, caller, body),
  (query) => ({ template_id: query.template_id }) as Record<string, string>,
);

export const createEdit = handlers.create;
export const getEdit = handlers.get;
export const listEdits = handlers.list;
export const deleteEdit = handlers.delete;
export const cancelEdit = handlers.cancel;

export const createTemplate = api(ops.createTemplate, ({ platform, caller, body }) => create(platform, caller, body));
export const listTemplates = api(ops.listTemplates, ({ platform, caller, query }) => list(platform, caller, query));
export const getTemplate = api(ops.getTemplate, ({ platform, caller, params }) => read(platform, caller, params.template_id));
export const updateTemplate = api(ops.updateTemplate, ({ platform, caller, params, body }) => update(platform, caller, params.template_id, body));
export const deleteTemplate = api(ops.deleteTemplate, async ({ platform, caller, params }) => {
  await remove(platform, caller, params.template_id);
  return undefined;
});
