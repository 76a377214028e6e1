/** Splits (API §4.1): a mixed bundle cut into the predeclared kinds of subdocument. */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { prepareDocumentRun } from '../runs/prepare.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { CreateSplitBody } from './schema.ts';

export function prepareSplit(p: Platform, scope: Scope, body: CreateSplitBody): Promise<CreateRunInput> {
  return prepareDocumentRun(p, scope, {
    kind: 'split',
    document: body.document,
    model: body.model,
    bust_cache: body.bust_cache,
    background: body.background,
    options: { subdocuments: body.subdocuments, n_consensus: body.n_consensus, instructions: body.instructions ?? null },
  });
}
