/** Parses (API §3): a create body becomes a run whose task (./task.ts) reads and renders the document. */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { prepareDocumentRun } from '../runs/prepare.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { CreateParseBody } from './schema.ts';

export function prepareParse(p: Platform, scope: Scope, body: CreateParseBody): Promise<CreateRunInput> {
  return prepareDocumentRun(p, scope, {
    kind: 'parse',
    document: body.document,
    model: body.model,
    bust_cache: body.bust_cache,
    background: body.background,
    options: { table_parsing_format: body.table_parsing_format, image_resolution_dpi: body.image_resolution_dpi, instructions: body.instructions ?? null },
    usage: { credits: 0, page_count: 0 },
  });
}
