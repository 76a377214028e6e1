/** The workflow's `split` block: a split of the document reaching it, configured by the block (the same body as `POST /v1/splits`). */
import type { DocumentBlock } from '../feature.ts';
import { CreateSplitBody } from './schema.ts';
import { prepareSplit } from './service.ts';

export const splitBlock: DocumentBlock = { schema: CreateSplitBody, prepare: prepareSplit };
