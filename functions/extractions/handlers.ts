import { api } from '../platform/http.ts';
import { runHandlers } from '../runs/handlers-kit.ts';
import { extractionKind } from './kind.ts';
import { extractionOperations as ops } from './operations.ts';
import { extractionSources, metadataFilter, prepareExtraction } from './service.ts';

const handlers = runHandlers(
  extractionKind,
  ops,
  'extraction_id',
  ({ platform, caller, body }) => prepareExtraction(platform, caller, body),
  (query) => metadataFilter(query),
);

export const createExtraction = handlers.create;
export const getExtraction = handlers.get;
export const listExtractions = handlers.list;
export const deleteExtraction = handlers.delete;
export const cancelExtraction = handlers.cancel;
export const getExtractionSources = api(ops.sources, ({ platform, caller, params }) => extractionSources(platform, caller, params.extraction_id));
