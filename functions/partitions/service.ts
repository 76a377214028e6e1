/** Partitions (API §4.2): a document of one repeated kind cut into one chunk per record. */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { prepareDocumentRun } from '../runs/prepare.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { CreatePartitionBody } from './schema.ts';

export function preparePartition(p: Platform, scope: Scope, body: CreatePartitionBody): Promise<CreateRunInput> {
  return prepareDocumentRun(p, scope, {
    kind: 'partition',
    document: body.document,
    model: body.model,
    bust_cache: body.bust_cache,
    background: body.background,
    options: { key: body.key, instructions: body.instructions, n_consensus: body.n_consensus, allow_overlap: body.allow_overlap },
  });
}
