/** The workflow's `extract` block: an extraction from the document reaching it, configured by the block (the same body as `POST /v1/extractions`). */
import type { DocumentBlock } from '../feature.ts';
import { CreateExtractionBody } from './schema.ts';
import { prepareExtraction } from './service.ts';

export const extractBlock: DocumentBlock = { schema: CreateExtractionBody, prepare: prepareExtraction };
