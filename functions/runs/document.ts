/**
 * The document of a run, read in its task: the stored bytes (passed between states as a key, never
 * as bytes) into the Doc model. A reader's failure becomes the run's PrimitiveError.
 */
import { ReadFailure, type Doc } from '../documents/doc.ts';
import { readDocument } from '../documents/read.ts';
import type { DocumentKind } from '../documents/sniff.ts';
import { RunFailure } from '../platform/errors.ts';
import type { RunContext } from './kinds.ts';

/** What a run that reads one document keeps in its `_input`. */
export interface DocumentInputRef {
  blobKey: string;
  kind: DocumentKind;
}

export async function readRunDocument(ctx: RunContext, input: DocumentInputRef, dpi = 192): Promise<Doc> {
  const bytes = await ctx.platform.blobs.get(input.blobKey);
  if (!bytes) throw new RunFailure('document_invalid', 'The stored document is missing');
  try {
    return await readDocument(bytes, { kind: input.kind, dpi, deadline: ctx.deadline });
  } catch (error) {
    if (error instanceof ReadFailure) throw new RunFailure(error.code, error.message);
    throw error;
  }
}
