import { api, RawResponse } from '../platform/http.ts';
import { streamingApi } from '../platform/streaming.ts';
import { runHandlers } from '../runs/handlers-kit.ts';
import { extractionKind } from './kind.ts';
import { extractionOperations as ops } from './operations.ts';
import { extractionSources, extractionSourcesJob, metadataFilter, prepareExtraction } from './service.ts';
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
/** GET …/sources; with `mode` or `job_id` (the Python SDK's poll) the answer carries the sources job. */
export const getExtractionSources = api(ops.sources, async ({ platform, caller, params, query }) =>
  query.mode === undefined && query.job_id === undefined
    ? extractionSources(platform, caller, params.extraction_id)
    : (await extractionSourcesJob(platform, caller, params.extraction_id, { mode: query.mode ?? 'located', job_id: query.job_id })).answer,
);

/** POST …/sources: 200 with the complete job, or 202 and where to poll while the extraction runs. */
export const createExtractionSources = api(ops.createSources, async ({ platform, caller, params, body }) => {
  const job = await extractionSourcesJob(platform, caller, params.extraction_id, body);
  return job.done ? job.answer : new RawResponse(JSON.stringify(job.answer), 'application/json', 202, { location: job.location });
});

/** POST /v1/extractions/stream (a streaming route: ./stream.ts). */
export const streamExtractionRun = streamingApi(
  ops.stream,
  ({ platform, caller, body }) => openExtractionStream(platform, caller, body),
  (opened, events, { platform, caller }) => streamExtraction(platform, caller, opened, events),
);
