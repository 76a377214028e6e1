import { api } from '../platform/http.ts';
import { streamingApi } from '../platform/streaming.ts';
import { runHandlers } from '../runs/handlers-kit.ts';
import { extractionKind } from './kind.ts';
import { extractionOperations as ops } from './operations.ts';
import { extractionSources, metadataFilter, prepareExtraction } from './service.ts';
import { openExtractionStream, streamExtraction } from './stream.ts';

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

/** POST /v1/extractions/stream (a streaming route: ./stream.ts). */
export const streamExtractionRun = streamingApi(
  ops.stream,
  ({ platform, caller, body }) => openExtractionStream(platform, caller, body),
  (opened, events, { platform, caller }) => streamExtraction(platform, caller, opened, events),
);
