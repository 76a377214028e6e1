/**
 * POST /v1/splits/reconstruct: the tables of a spreadsheet's regions (./regions.ts), rebuilt by an
 * internal run in the task Lambda (./task.ts reconstructTask) and answered at once. A region that names
 * no sheet or no cell of the workbook is a 422 at its place in the body.
 */
import { kindOfMime } from '../documents/sniff.ts';
import { fileRefOf, resolveDocument } from '../files/service.ts';
import { Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { createRun, deleteRun } from '../runs/service.ts';
import { splitReconstructKind } from './kind.ts';
import type { ReconstructInput } from './task.ts';
import type { ReconstructBody } from './schema.ts';

export async function reconstructSplit(p: Platform, scope: Scope, body: ReconstructBody): Promise<{ tables: unknown[] }> {
  const { file, blobKey } = await resolveDocument(p, scope, body.document, ['body', 'document']);
  const kind = kindOfMime(file.mime_type);
  if (kind !== 'xlsx' && kind !== 'csv') {
    throw Invalid.at(['body', 'document'], `Regions are of spreadsheets: ${file.filename} is ${file.mime_type}; give an XLSX or CSV file`, 'document_unsupported');
  }
  const input: ReconstructInput = { blobKey, kind, filename: file.filename, subdocuments: body.subdocuments };
  const run = await createRun(p, scope, splitReconstructKind, { fields: { file: fileRefOf(file) }, input, background: false });
  const status = run.status as string;
  if (status === 'completed' || status === 'failed' || status === 'cancelled') {
    // Internal work, free: neither its record nor its (zero) usage entry is kept.
    await deleteRun(p, scope, splitReconstructKind, run.id as string).catch(() => undefined);
    await p.ledger.forget(p, scope, run.id as string).catch(() => undefined);
  }
  if (status === 'completed') return run.output as { tables: unknown[] };
  const error = run.error as { code: string; message: string; details: { loc?: unknown } | null } | null;
  if (status === 'failed' && error) {
    const loc = error.details?.loc;
    if (Array.isArray(loc)) throw Invalid.at(loc as (string | number)[], error.message, 'region_unknown');
    if (error.code === 'timeout') throw Invalid.at(['body', 'document'], `${error.message} (the workbook is too large to read in one request)`, 'timeout');
  }
  throw new Error(`The reconstruction ${run.id} ended ${status}${error ? ` (${error.code}: ${error.message})` : ''}`);
}
