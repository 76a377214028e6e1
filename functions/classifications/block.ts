/**
 * The workflow's `classifier` block: a classification of the document reaching it, configured by the
 * block (the same body as `POST /v1/classifications`). Only the edges whose source handle is the
 * winning category (or that carry none) are followed.
 */
import type { DocumentBlock } from '../feature.ts';
import { CreateClassificationBody } from './schema.ts';
import { prepareClassification } from './service.ts';

export const classifierBlock: DocumentBlock = {
  schema: CreateClassificationBody,
  prepare: prepareClassification,
  result: (result, document) => ({ output: result.output, document, handle: (result.output as { category: string }).category }),
};
