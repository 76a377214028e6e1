import { api } from '../platform/http.ts';
import { listEnvelopeOf, toListQuery } from '../platform/pagination.ts';
import { checkDocument } from './check.ts';
import { cancelRun, getRun } from '../runs/service.ts';
import { createBlueprint as startBlueprint } from './blueprints.ts';
import { fileBlueprintKind } from './kind.ts';
import { blueprintOperations as blueprints, fileOperations as ops } from './operations.ts';
import type { File } from './schema.ts';
import { completeUpload as complete, createUpload as startUpload, downloadLink, FILE_TYPE, getFile as readFile, uploadFile } from './service.ts';

export const createUpload = api(ops.createUpload, ({ platform, caller, body }) => startUpload(platform, caller, body));

export const completeUpload = api(ops.completeUpload, ({ platform, caller, params, body }) => complete(platform, caller, params.file_id, body, checkDocument));

export const createFile = api(ops.createFile, ({ platform, caller, body }) => uploadFile(platform, caller, body.document, checkDocument));

export const listFiles = api(ops.listFiles, async ({ platform, caller, query }) => {
  const page = await platform.store.listRecords<File>(caller, FILE_TYPE, toListQuery(query, { mime_type: query.mime_type }));
  return listEnvelopeOf(page, (file) => file);
});

export const getFile = api(ops.getFile, ({ platform, caller, params }) => readFile(platform, caller, params.file_id));

export const getDownloadLink = api(ops.getDownloadLink, ({ platform, caller, params }) => downloadLink(platform, caller, params.file_id));

export const createBlueprint = api(blueprints.create, ({ platform, caller, body }) => startBlueprint(platform, caller, body));

export const getBlueprint = api(blueprints.get, ({ platform, caller, params, query }) => getRun(platform, caller, fileBlueprintKind, params.blueprint_id!, query.include_output));

export const cancelBlueprint = api(blueprints.cancel, ({ platform, caller, params }) => cancelRun(platform, caller, fileBlueprintKind, params.blueprint_id!));
