/** The workflow's `parse` block: a parse of the document reaching it, configured by the block (the same body as `POST /v1/parses`). */
import type { DocumentBlock } from '../feature.ts';
import { CreateParseBody } from './schema.ts';
import { prepareParse } from './service.ts';

export const parseBlock: DocumentBlock = { schema: CreateParseBody, prepare: prepareParse };
