/**
 * Runs started from the dashboard's upload form: the form becomes the create body of the API (the
 * same zod schemas, so the same defaults and checks), prepared by the resource's own service and
 * started in the background through the run service. The page then follows the run's status.
 *
 * Extractions are prepared by extractions/prepare.ts, the API's own preparation less the ajv
 * compile of the JSON Schema: ajv would take the dashboard Lambda over the 1 MB its code may weigh
 * (test/lib/cloud/stack.test.ts). The form's JSON and the schema's shape are checked here (a 422 on
 * the page); a schema ajv refuses fails the run at its start, and the run page says why.
 */
import * as z from 'zod';
import { classificationKind } from '../classifications/kind.ts';
import { CreateClassificationBody } from '../classifications/schema.ts';
import { prepareClassification } from '../classifications/service.ts';
import { parseKind } from '../parses/kind.ts';
import { CreateParseBody } from '../parses/schema.ts';
import { prepareParse } from '../parses/service.ts';
import { extractionKind } from '../extractions/kind.ts';
import { prepareExtractionRun } from '../extractions/prepare.ts';
import { CreateExtractionBody } from '../extractions/schema.ts';
import { Invalid } from '../platform/errors.ts';
import { toValidationIssues } from '../platform/http.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { createRun } from '../runs/service.ts';
import { splitKind } from '../splits/kind.ts';
import { CreateSplitBody } from '../splits/schema.ts';
import { prepareSplit } from '../splits/service.ts';

export const STARTABLE = ['parse', 'extraction', 'classification', 'split'] as const;
export type Startable = (typeof STARTABLE)[number];

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

/** The JSON Schema typed in the form: JSON of an object, or a 422 naming the problem. */
export function schemaOfForm(text: string | undefined): Record<string, unknown> {
  const loc = ['body', 'json_schema'];
  if (!text?.trim()) throw Invalid.at(loc, 'write the JSON Schema of what to extract');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw Invalid.at(loc, `json_schema is not valid JSON: ${(error as Error).message}`, 'json_invalid');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw Invalid.at(loc, 'json_schema must be a JSON object', 'schema_invalid');
  return parsed as Record<string, unknown>;
}

/** "name: description" lines (blank lines skipped). */
export function namedLines(text: string): Array<{ name: string; description: string }> {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(':');
      return at < 0 ? { name: line, description: '' } : { name: line.slice(0, at).trim(), description: line.slice(at + 1).trim() };
    });
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new Invalid(toValidationIssues('body', result.error, input));
  return result.data;
}

/** Starts the run in the background; answers its kind and id. */
export async function startRun(p: Platform, scope: Scope, form: RunForm): Promise<{ kind: Startable; id: string }> {
  if (!(STARTABLE as readonly string[]).includes(form.kind)) throw Invalid.at(['body', 'kind'], `kind must be one of ${STARTABLE.join(', ')}`);
  if (form.bytes.length === 0) throw Invalid.at(['body', 'file'], 'choose a file to upload');
  const document = { filename: form.filename || 'document', url: `data:${form.mimeType || 'application/octet-stream'};base64,${form.bytes.toString('base64')}` };
  const common = { document, background: true };
  let run: Record<string, unknown>;
  switch (form.kind as Startable) {
    case 'parse':
      run = await createRun(p, scope, parseKind, await prepareParse(p, scope, parse(CreateParseBody, common)));
      break;
    case 'extraction':
      run = await createRun(p, scope, extractionKind, await prepareExtractionRun(p, scope, parse(CreateExtractionBody, { ...common, json_schema: schemaOfForm(form.jsonSchema) })));
      break;
    case 'classification':
      run = await createRun(p, scope, classificationKind, await prepareClassification(p, scope, parse(CreateClassificationBody, { ...common, categories: namedLines(form.names ?? '') })));
      break;
    case 'split':
      run = await createRun(p, scope, splitKind, await prepareSplit(p, scope, parse(CreateSplitBody, { ...common, subdocuments: namedLines(form.names ?? '') })));
      break;
  }
  return { kind: form.kind as Startable, id: String(run.id) };
}
