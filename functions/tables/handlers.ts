import { api } from '../platform/http.ts';
import { tableOperations as ops } from './operations.ts';
import { queryTable as query } from './query-service.ts';
import type { TableUpload } from './schema.ts';
import { createTable as create, deleteTable as remove, downloadTable as download, getTable as read, listTables as list, patchTable as patch, profileTable as profile, replaceTable as replace, tableSchema as schema, validateTable as validate } from './service.ts';

// The body is the JSON body or the multipart form, whichever the request carried (operation.multipart).
export const createTable = api(ops.create, ({ platform, caller, body }) => create(platform, caller, body as TableUpload));
export const listTables = api(ops.list, ({ platform, caller, query }) => list(platform, caller, query.project_id));
export const getTable = api(ops.get, ({ platform, caller, params }) => read(platform, caller, params.table_id));
export const replaceTable = api(ops.replace, ({ platform, caller, params, body }) => replace(platform, caller, params.table_id, body as TableUpload));
export const patchTable = api(ops.patch, ({ platform, caller, params, body }) => patch(platform, caller, params.table_id, body));
export const deleteTable = api(ops.delete, ({ platform, caller, params }) => remove(platform, caller, params.table_id));
export const downloadTable = api(ops.download, ({ platform, caller, params }) => download(platform, caller, params.table_id));
export const getTableSchema = api(ops.schema, ({ platform, caller, params }) => schema(platform, caller, params.table_id));
export const validateTable = api(ops.validate, ({ platform, caller, params, body }) => validate(platform, caller, params.table_id, body));
export const profileTable = api(ops.profile, ({ platform, caller, params, query }) => profile(platform, caller, params.table_id, query.select));
export const queryTable = api(ops.query, ({ platform, caller, params, body }) => query(platform, caller, params.table_id, body));
