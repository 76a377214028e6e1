/**
 * Runs started from the dashboard's upload form: the form becomes the create body of the API (the
 * same zod schemas, so the same defaults and checks), prepared by the resource's own service and
 * started in the background through the run service. The page then follows the run's status. Which
 * kinds the form starts, and how each reads the form, is the kind's feature's (FeatureRun
 * `dashboard`, e.g. parses/dashboard.ts).
 */
import { dashboardRuns } from '../features.ts';
import { Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { createRun } from '../runs/service.ts';

/** The kinds the new-run form starts, by name. */
export const STARTABLE: readonly string[] = dashboardRuns.filter((r) => r.startable).map((r) => r.kind.name);

export interface RunForm {
  kind: string;
  filename: string;
  mimeType: string;
  bytes: Buffer;
  /** classification categories or split subdocuments: one per line, "name: description". */
  names?: string | undefined;
  /** An extraction's JSON Schema, as JSON text. */
  jsonSchema?: string | undefined;
}

/** Starts the run in the background; answers its kind and id. */
export async function startRun(p: Platform, scope: Scope, form: RunForm): Promise<{ kind: string; id: string }> {
  const startable = dashboardRuns.find((r) => r.startable && r.kind.name === form.kind);
  if (!startable) throw Invalid.at(['body', 'kind'], `kind must be one of ${STARTABLE.join(', ')}`);
  if (form.bytes.length === 0) throw Invalid.at(['body', 'file'], 'choose a file to upload');
  const document = { filename: form.filename || 'document', url: `data:${form.mimeType || 'application/octet-stream'};base64,${form.bytes.toString('base64')}` };
  const pages = await startable.pages?.();
  if (!pages?.start) throw new Error(`The ${form.kind} feature says it is startable but its dashboard pages cannot start one`);
  const run = await createRun(p, scope, startable.kind, await pages.start(p, scope, { document, names: form.names, jsonSchema: form.jsonSchema }));
  return { kind: startable.kind.name, id: String(run.id) };
}
