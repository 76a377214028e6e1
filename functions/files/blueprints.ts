/**
 * File blueprints (README "File blueprints"): the create body → a run on an uploaded File of the
 * caller's environment (its task, ./task.ts, writes the blueprint). The body names the document by
 * `file_id` only, so every refusal of the document (unknown id, a file of no supported type, one
 * that turns out unreadable when a synchronous create reads it) is a 422 at `["body", "file_id"]`.
 */
import { DEFAULT_MODEL } from '../models/registry.ts';
import { Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { prepareDocumentRun } from '../runs/prepare.ts';
import { createRun } from '../runs/service.ts';
import { fileBlueprintKind } from './kind.ts';
import type { CreateBlueprintBody } from './schema.ts';

export async function createBlueprint(p: Platform, scope: Scope, body: CreateBlueprintBody): Promise<Record<string, unknown>> {
  try {
    const input = await prepareDocumentRun(p, scope, {
      kind: fileBlueprintKind.name,
      document: { id: body.file_id },
      model: DEFAULT_MODEL,
      bust_cache: false,
      background: body.background,
      options: { intent: body.intent ?? null, mode: body.mode ?? null },
    });
    return await createRun(p, scope, fileBlueprintKind, input);
  } catch (error) {
    // (prepareDocumentRun and createRun refuse only the document, at body.document[.id].)
    if (error instanceof Invalid) throw new Invalid(error.issues.map((issue) => ({ ...issue, loc: ['body', 'file_id'] })));
    throw error;
  }
}
