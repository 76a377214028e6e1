import * as z from 'zod';
import { operation } from '../platform/operation.ts';
import { runOperations } from '../runs/schema.ts';
import { CreateExtractionBody, CreateExtractionSourcesBody, Extraction, ExtractionSources, ExtractionSourcesQuery, ListExtractionsQuery } from './schema.ts';

export const extractionOperations = {
  ...runOperations({
    resource: 'extraction',
    plural: 'extractions',
    idParam: 'extraction_id',
    createBody: CreateExtractionBody,
    record: Extraction,
    tag: 'extractions',
    listQuery: ListExtractionsQuery,
  }),
  stream: operation({
    summary: 'Create an extraction and stream it: JSON events, one per line (started, status, delta per value, done with the whole extraction)',
    auth: 'api_key',
    body: CreateExtractionBody,
    status: 200,
    contentType: 'application/stream+json',
    tags: ['extractions'],
  }),
  sources: operation({
    summary: "Where every value of an extraction's output was read in the document",
    auth: 'api_key',
    params: z.object({ extraction_id: z.string() }),
    query: ExtractionSourcesQuery,
    status: 200,
    response: ExtractionSources,
    tags: ['extractions'],
  }),
  createSources: operation({
    summary:
      "Create or join an extraction's sources job (Retab's Python SDK): sources are computed with the extraction, so the job is complete once the extraction is (200); while the extraction runs, 202 with the job pending or running and a Location to poll",
    auth: 'api_key',
    params: z.object({ extraction_id: z.string() }),
    body: CreateExtractionSourcesBody,
    status: 200,
    response: ExtractionSources,
    tags: ['extractions'],
  }),
};
