import { operation } from '../platform/operation.ts';
import { listEnvelope, MIMEData } from '../platform/schemas.ts';
import { runOperations } from '../runs/schema.ts';
import {
  CompleteUploadBody,
  CreateBlueprintBody,
  FileBlueprint,
  CreateFileBody,
  CreateUploadBody,
  DownloadLink,
  File,
  FileIdParams,
  ListFilesQuery,
  UploadTicket,
} from './schema.ts';

export const fileOperations = {
  createUpload: operation({
    summary: 'Start a three-step upload: returns a presigned PUT URL',
    auth: 'api_key',
    body: CreateUploadBody,
    status: 201,
    response: UploadTicket,
    tags: ['files'],
  }),
  completeUpload: operation({
    summary: 'Finish a three-step upload: checks size and checksum, returns MIMEData',
    auth: 'api_key',
    body: CompleteUploadBody,
    params: FileIdParams,
    status: 200,
    response: MIMEData,
    tags: ['files'],
  }),
  createFile: operation({
    summary: 'Upload a file in one request (MIMEData)',
    auth: 'api_key',
    body: CreateFileBody,
    status: 201,
    response: File,
    tags: ['files'],
  }),
  listFiles: operation({
    summary: 'List files',
    auth: 'api_key',
    query: ListFilesQuery,
    status: 200,
    response: listEnvelope(File),
    tags: ['files'],
  }),
  getFile: operation({ summary: 'Get a file', auth: 'api_key', params: FileIdParams, status: 200, response: File, tags: ['files'] }),
  getDownloadLink: operation({
    summary: 'Get a presigned download link',
    auth: 'api_key',
    params: FileIdParams,
    status: 200,
    response: DownloadLink,
    tags: ['files'],
  }),
};

/** File blueprints: the create, get and cancel of a run resource (no list or delete: the SDK has none; its runs are not listed). */
export const blueprintOperations = runOperations({ resource: 'file blueprint', plural: 'file blueprints', idParam: 'blueprint_id', createBody: CreateBlueprintBody, record: FileBlueprint, tag: 'files' });
