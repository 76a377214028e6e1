/**
 * The route table: the single source for the API Gateway routes built by CDK (lib/cloud), the local
 * HTTP server (lib/local) and the OpenAPI document. Nothing else lists routes.
 *
 * `module` is relative to functions/; the folder is the resource group, and each group is one Lambda
 * on AWS (its routes dispatched by route key). `size` picks memory and timeout (see `SIZES`).
 */
import type { Operation } from './platform/operation.ts';
import { fileOperations as files } from './files/operations.ts';
import { authOperations as auth } from './auth/operations.ts';
import { modelOperations as models } from './model-catalog/operations.ts';
import { docsOperations as docs } from './docs/operations.ts';
import { parseOperations as parses } from './parses/operations.ts';
import { classificationOperations as classifications } from './classifications/operations.ts';
import { splitOperations as splits } from './splits/operations.ts';
import { partitionOperations as partitions } from './partitions/operations.ts';
import { extractionOperations as extractions } from './extractions/operations.ts';
import { schemaGenerationOperations as schemas } from './schemas/operations.ts';
import { editOperations as edits } from './edits/operations.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type SizeClass = 'small' | 'document';

export interface Route {
  method: HttpMethod;
  /** API Gateway path syntax: /v1/files/{file_id} */
  path: string;
  /** Handler module, relative to functions/ (or absolute, for routes defined by tests). */
  module: string;
  /** Export name of the handler in `module`. */
  handler: string;
  size: SizeClass;
  op: Operation;
}

/** Memory (MB) and timeout (s) of each size class; API Gateway ends requests at 29 s anyway. */
export const SIZES: Record<SizeClass, { memoryMb: number; timeoutSeconds: number }> = {
  small: { memoryMb: 512, timeoutSeconds: 29 },
  document: { memoryMb: 2048, timeoutSeconds: 29 },
};

export const routes: Route[] = [
  { method: 'GET', path: '/openapi.json', module: 'docs/handlers.ts', handler: 'openapiDocument', size: 'small', op: docs.openapiDocument },
  { method: 'GET', path: '/docs', module: 'docs/handlers.ts', handler: 'docsPage', size: 'small', op: docs.docsPage },
  { method: 'GET', path: '/docs/{asset}', module: 'docs/handlers.ts', handler: 'docsAsset', size: 'small', op: docs.docsAsset },

  { method: 'GET', path: '/v1/auth/status', module: 'auth/handlers.ts', handler: 'authStatus', size: 'small', op: auth.authStatus },
  { method: 'GET', path: '/v1/models', module: 'model-catalog/handlers.ts', handler: 'listModels', size: 'small', op: models.listModels },

  { method: 'POST', path: '/v1/files/upload', module: 'files/handlers.ts', handler: 'createUpload', size: 'small', op: files.createUpload },
  { method: 'POST', path: '/v1/files/upload/{file_id}/complete', module: 'files/handlers.ts', handler: 'completeUpload', size: 'document', op: files.completeUpload },
  { method: 'POST', path: '/v1/files', module: 'files/handlers.ts', handler: 'createFile', size: 'small', op: files.createFile },
  { method: 'GET', path: '/v1/files', module: 'files/handlers.ts', handler: 'listFiles', size: 'small', op: files.listFiles },
  { method: 'GET', path: '/v1/files/{file_id}', module: 'files/handlers.ts', handler: 'getFile', size: 'small', op: files.getFile },
  { method: 'GET', path: '/v1/files/{file_id}/download-link', module: 'files/handlers.ts', handler: 'getDownloadLink', size: 'small', op: files.getDownloadLink },

  { method: 'POST', path: '/v1/parses', module: 'parses/handlers.ts', handler: 'createParse', size: 'document', op: parses.create },
  { method: 'GET', path: '/v1/parses', module: 'parses/handlers.ts', handler: 'listParses', size: 'small', op: parses.list },
  { method: 'GET', path: '/v1/parses/{parse_id}', module: 'parses/handlers.ts', handler: 'getParse', size: 'small', op: parses.get },
  { method: 'DELETE', path: '/v1/parses/{parse_id}', module: 'parses/handlers.ts', handler: 'deleteParse', size: 'small', op: parses.delete },
  { method: 'POST', path: '/v1/parses/{parse_id}/cancel', module: 'parses/handlers.ts', handler: 'cancelParse', size: 'small', op: parses.cancel },

  { method: 'POST', path: '/v1/classifications', module: 'classifications/handlers.ts', handler: 'createClassification', size: 'document', op: classifications.create },
  { method: 'GET', path: '/v1/classifications', module: 'classifications/handlers.ts', handler: 'listClassifications', size: 'small', op: classifications.list },
  { method: 'GET', path: '/v1/classifications/{classification_id}', module: 'classifications/handlers.ts', handler: 'getClassification', size: 'small', op: classifications.get },
  { method: 'DELETE', path: '/v1/classifications/{classification_id}', module: 'classifications/handlers.ts', handler: 'deleteClassification', size: 'small', op: classifications.delete },
  { method: 'POST', path: '/v1/classifications/{classification_id}/cancel', module: 'classifications/handlers.ts', handler: 'cancelClassification', size: 'small', op: classifications.cancel },

  { method: 'POST', path: '/v1/splits', module: 'splits/handlers.ts', handler: 'createSplit', size: 'document', op: splits.create },
  { method: 'GET', path: '/v1/splits', module: 'splits/handlers.ts', handler: 'listSplits', size: 'small', op: splits.list },
  { method: 'GET', path: '/v1/splits/{split_id}', module: 'splits/handlers.ts', handler: 'getSplit', size: 'small', op: splits.get },
  { method: 'DELETE', path: '/v1/splits/{split_id}', module: 'splits/handlers.ts', handler: 'deleteSplit', size: 'small', op: splits.delete },
  { method: 'POST', path: '/v1/splits/{split_id}/cancel', module: 'splits/handlers.ts', handler: 'cancelSplit', size: 'small', op: splits.cancel },

  { method: 'POST', path: '/v1/partitions', module: 'partitions/handlers.ts', handler: 'createPartition', size: 'document', op: partitions.create },
  { method: 'GET', path: '/v1/partitions', module: 'partitions/handlers.ts', handler: 'listPartitions', size: 'small', op: partitions.list },
  { method: 'GET', path: '/v1/partitions/{partition_id}', module: 'partitions/handlers.ts', handler: 'getPartition', size: 'small', op: partitions.get },
  { method: 'DELETE', path: '/v1/partitions/{partition_id}', module: 'partitions/handlers.ts', handler: 'deletePartition', size: 'small', op: partitions.delete },
  { method: 'POST', path: '/v1/partitions/{partition_id}/cancel', module: 'partitions/handlers.ts', handler: 'cancelPartition', size: 'small', op: partitions.cancel },

  { method: 'POST', path: '/v1/extractions', module: 'extractions/handlers.ts', handler: 'createExtraction', size: 'document', op: extractions.create },
  { method: 'GET', path: '/v1/extractions', module: 'extractions/handlers.ts', handler: 'listExtractions', size: 'small', op: extractions.list },
  { method: 'GET', path: '/v1/extractions/{extraction_id}', module: 'extractions/handlers.ts', handler: 'getExtraction', size: 'small', op: extractions.get },
  { method: 'DELETE', path: '/v1/extractions/{extraction_id}', module: 'extractions/handlers.ts', handler: 'deleteExtraction', size: 'small', op: extractions.delete },
  { method: 'POST', path: '/v1/extractions/{extraction_id}/cancel', module: 'extractions/handlers.ts', handler: 'cancelExtraction', size: 'small', op: extractions.cancel },
  { method: 'GET', path: '/v1/extractions/{extraction_id}/sources', module: 'extractions/handlers.ts', handler: 'getExtractionSources', size: 'small', op: extractions.sources },

  { method: 'POST', path: '/v1/schemas/generate', module: 'schemas/handlers.ts', handler: 'createSchemaGeneration', size: 'document', op: schemas.create },
  { method: 'GET', path: '/v1/schemas/generate', module: 'schemas/handlers.ts', handler: 'listSchemaGenerations', size: 'small', op: schemas.list },
  { method: 'GET', path: '/v1/schemas/generate/{schema_generation_id}', module: 'schemas/handlers.ts', handler: 'getSchemaGeneration', size: 'small', op: schemas.get },
  { method: 'DELETE', path: '/v1/schemas/generate/{schema_generation_id}', module: 'schemas/handlers.ts', handler: 'deleteSchemaGeneration', size: 'small', op: schemas.delete },
  { method: 'POST', path: '/v1/schemas/generate/{schema_generation_id}/cancel', module: 'schemas/handlers.ts', handler: 'cancelSchemaGeneration', size: 'small', op: schemas.cancel },

  // Templates first: their static path segment must win over /v1/edits/{edit_id}.
  { method: 'POST', path: '/v1/edits/templates', module: 'edits/handlers.ts', handler: 'createTemplate', size: 'document', op: edits.createTemplate },
  { method: 'GET', path: '/v1/edits/templates', module: 'edits/handlers.ts', handler: 'listTemplates', size: 'small', op: edits.listTemplates },
  { method: 'GET', path: '/v1/edits/templates/{template_id}', module: 'edits/handlers.ts', handler: 'getTemplate', size: 'small', op: edits.getTemplate },
  { method: 'PATCH', path: '/v1/edits/templates/{template_id}', module: 'edits/handlers.ts', handler: 'updateTemplate', size: 'small', op: edits.updateTemplate },
  { method: 'DELETE', path: '/v1/edits/templates/{template_id}', module: 'edits/handlers.ts', handler: 'deleteTemplate', size: 'small', op: edits.deleteTemplate },
  { method: 'POST', path: '/v1/edits', module: 'edits/handlers.ts', handler: 'createEdit', size: 'document', op: edits.create },
  { method: 'GET', path: '/v1/edits', module: 'edits/handlers.ts', handler: 'listEdits', size: 'small', op: edits.list },
  { method: 'GET', path: '/v1/edits/{edit_id}', module: 'edits/handlers.ts', handler: 'getEdit', size: 'small', op: edits.get },
  { method: 'DELETE', path: '/v1/edits/{edit_id}', module: 'edits/handlers.ts', handler: 'deleteEdit', size: 'small', op: edits.delete },
  { method: 'POST', path: '/v1/edits/{edit_id}/cancel', module: 'edits/handlers.ts', handler: 'cancelEdit', size: 'small', op: edits.cancel },
];

/** Background task functions: invoked by state machines, never by HTTP. Keys are the ASL substitution names. */
export interface TaskFunction {
  module: string;
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
}
export const taskFunctions: Record<string, TaskFunction> = {
  RunTaskFunctionArn: { module: 'runs/task.ts', handler: 'handler', memoryMb: 3008, timeoutSeconds: 900 },
};

/** State machines: ASL file (relative to the repo root) and the task functions it references. */
export const stateMachines = {
  run: { definition: 'statemachines/run.asl.json', tasks: ['RunTaskFunctionArn'] },
} as const;

/** The API Gateway route key of a route, e.g. "GET /v1/files/{file_id}". */
export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
