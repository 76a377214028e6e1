/**
 * What a kind of run shows and takes on the dashboard's pages, declared by its feature
 * (FeatureRun `dashboard`, functions/feature.ts) and loaded by the dashboard only: how the new-run
 * form starts one (./create.ts) and what its run page draws over the file (./runs.ts). Also the
 * helpers those pages share: the form's fields read into a create body, and a sources tree read
 * into boxed values.
 */
import type * as z from 'zod';
import type { PageLayout } from '../parses/layout.ts';
import { Invalid } from '../platform/errors.ts';
import { toValidationIssues } from '../platform/http.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { CreateRunInput } from '../runs/service.ts';

/** The new-run form: the uploaded document and the fields some kinds use. */
export interface StartForm {
  document: { filename: string; url: string };
  /** classification categories or split subdocuments: one per line, "name: description". */
  names?: string | undefined;
  /** An extraction's JSON Schema, as JSON text. */
  jsonSchema?: string | undefined;
}

/** What the run page draws over a completed run's file. */
export interface Drawn {
  /** Values, each boxed where it was read (an extraction's sources, an edit's fields). */
  values?: SourcedValue[];
  /** A parse's words and tables boxed on its pages. */
  layout?: PageLayout[];
}

export interface RunPages {
  /** Starts one from the new-run form (in the background): the create input, prepared by the kind's own service. */
  start?(p: Platform, scope: Scope, form: StartForm): Promise<CreateRunInput>;
  /** What its run page draws for a completed run. */
  drawn?(p: Platform, scope: Scope, run: Record<string, unknown>): Promise<Drawn>;
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

/** A create body from the form, checked by the API's own zod schema (its defaults and checks): a 422 on the page. */
export function bodyFromForm<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new Invalid(toValidationIssues('body', result.error, input));
  return result.data;
}

/** A value of an extraction's output and where it was read. */
export interface SourcedValue {
  path: string;
  value: unknown;
  /** The box on a page (fractions of the page), when the source is a place on a page (or the edit field's place). */
  box: { page: number; left: number; top: number; width: number; height: number } | null;
  /** Where it was read otherwise (a sheet cell, a text span), in words. */
  where: string | null;
}

function describeAnchor(anchor: Record<string, unknown>): string {
  switch (anchor.kind) {
    case 'spreadsheet_cell':
      return `sheet ${String(anchor.sheet_name || anchor.sheet_index)}, cell ${String(anchor.coordinate)}`;
    case 'csv_cell':
      return `cell ${String(anchor.coordinate)}`;
    case 'text_span':
      return `line ${String(anchor.line_start)}`;
    case 'docx_text_span':
      return `paragraph ${String(anchor.paragraph)}`;
    case 'docx_table_cell':
      return `table ${String(anchor.table)}, row ${String(anchor.row)}, column ${String(anchor.column)}`;
    default:
      return String(anchor.kind);
  }
}

/** The leaves of a sources tree (API §6.2: the output's shape, every leaf `{value, source}`). */
export function sourcedValues(tree: unknown, path = ''): SourcedValue[] {
  if (Array.isArray(tree)) return tree.flatMap((item, i) => sourcedValues(item, `${path}[${i}]`));
  if (tree && typeof tree === 'object') {
    const node = tree as Record<string, unknown>;
    if ('value' in node && 'source' in node && Object.keys(node).length === 2 && (node.source === null || typeof node.source === 'object')) {
      const source = node.source as { anchor?: Record<string, unknown> } | null;
      const anchor = source?.anchor;
      const onPage = anchor && (anchor.kind === 'pdf_bbox' || anchor.kind === 'image_bbox');
      return [
        {
          path,
          value: node.value,
          box: onPage ? { page: Number(anchor.page), left: Number(anchor.left), top: Number(anchor.top), width: Number(anchor.width), height: Number(anchor.height) } : null,
          where: anchor && !onPage ? describeAnchor(anchor) : null,
        },
      ];
    }
    return Object.entries(node).flatMap(([key, value]) => sourcedValues(value, path ? `${path}.${key}` : key));
  }
  return [];
}
