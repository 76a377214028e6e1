/** Classifications (API §5): which one of the given categories a document is. */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { prepareDocumentRun } from '../runs/prepare.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { CreateClassificationBody } from './schema.ts';

export function prepareClassification(p: Platform, scope: Scope, body: CreateClassificationBody): Promise<CreateRunInput> {
  return prepareDocumentRun(p, scope, {
    kind: 'classification',
    document: body.document,
    model: body.model,
    bust_cache: body.bust_cache,
    background: body.background,
    options: {
      categories: body.categories,
      n_consensus: body.n_consensus,
      first_n_pages: body.first_n_pages ?? null,
      instructions: body.instructions ?? null,
    },
  });
}
