/**
 * Schema generation (API §7) by the local engine: from example documents, a strict JSON Schema the
 * local extractor can use as-is. Fields are the labelled values the examples print (./infer-fields.ts),
 * typed from their values (./infer-values.ts) and merged across examples: a field some examples lack
 * is nullable, conflicting types widen. Item tables become arrays of `$defs` objects. Every object
 * level lists all its properties in `required` and forbids additional properties. Pure, deterministic.
 */
import type { Doc } from '../../documents/doc.ts';
import { type DocObservations, observeDocument, snakeName } from './infer-fields.ts';
import { detectKind } from './infer-kind.ts';
import { coerce, dateRange, type TypedValue, typeValue, type ValueKind, widen } from './infer-values.ts';

export interface InferredSchema {
  schema: Record<string, unknown>;
  title: string;
  schemaType: string;
}

/** A field of one example: its value as printed and typed. */
interface Seen {
  raw: string;
  typed: TypedValue;
}

interface FieldPlan {
  name: string;
  label: string;
  where: string;
  /** Per example (undefined: the example does not print it). */
  seen: Array<Seen | undefined>;
}

interface ColumnPlan {
  name: string;
  label: string;
  /** Every cell of the column across examples (undefined: the column or cell is missing). */
  cells: Array<Seen | undefined>;
  missing: boolean;
}

interface TablePlan {
  name: string;
  defName: string;
  where: string;
  columns: Map<string, ColumnPlan>;
  /** Per example: rows as column name → cell. */
  rows: Array<Array<Map<string, Seen>>>;
}

const pascal = (snake: string) => snake.split('_').filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(name) || !/s$/.test(name)) return name;
  return name.slice(0, -1);
}

function seen(raw: string, label: string): Seen {
  return { raw, typed: typeValue(raw, label) };
}

/** The header fields of every example, by property name (first-seen order). */
function planFields(observed: DocObservations[]): Map<string, FieldPlan> {
  const fields = new Map<string, FieldPlan>();
  observed.forEach((obs, d) => {
    const used = new Set<string>();
    const add = (name: string, label: string, where: string, value: Seen) => {
      let unique = name;
      for (let k = 2; used.has(unique); k++) unique = `${name}_${k}`;
      used.add(unique);
      let field = fields.get(unique);
      if (!field) {
        field = { name: unique, label, where, seen: Array(observed.length).fill(undefined) };
        fields.set(unique, field);
      }
      field.seen[d] = value;
    };
    for (const s of obs.scalars) {
      const name = snakeName(s.label);
      if (!name) continue;
      const range = dateRange(s.raw);
      if (range) {
        // "Statement Period: 03/01/2024 - 03/31/2024": a start and an end date.
        add(`${name}_start`, s.label, `${s.where} (the first date of the range)`, { raw: s.raw, typed: { kind: 'date', value: range[0] } });
        add(`${name}_end`, s.label, `${s.where} (the second date of the range)`, { raw: s.raw, typed: { kind: 'date', value: range[1] } });
      } else add(name, s.label, s.where, seen(s.raw, s.label));
    }
  });
  return fields;
}

function planTables(observed: DocObservations[], taken: Set<string>): Map<string, TablePlan> {
  const tables = new Map<string, TablePlan>();
  observed.forEach((obs, d) => {
    const used = new Set<string>();
    for (const t of obs.tables) {
      let name = taken.has(t.name) ? `${t.name}_table` : t.name;
      for (let k = 2; used.has(name); k++) name = `${t.name}_${k}`;
      used.add(name);
      let plan = tables.get(name);
      if (!plan) {
        plan = { name, defName: pascal(singular(name)) || 'Item', where: t.where, columns: new Map(), rows: observed.map(() => []) };
        tables.set(name, plan);
      }
      for (const c of t.columns) if (!plan.columns.has(c.name)) plan.columns.set(c.name, { name: c.name, label: c.label, cells: [], missing: d > 0 && plan.rows.slice(0, d).some((r) => r.length > 0) });
      for (const row of t.rows) {
        const cells = new Map<string, Seen>();
        t.columns.forEach((c, i) => {
          const raw = row[i] ?? '';
          if (raw !== '') cells.set(c.name, seen(raw, c.label));
        });
        plan.rows[d]!.push(cells);
      }
    }
  });
  // Cells per column; a column an example's table lacks, or an empty cell, makes it nullable.
  for (const plan of tables.values()) {
    for (const column of plan.columns.values()) {
      for (const rows of plan.rows) for (const row of rows) column.cells.push(row.get(column.name));
    }
  }
  return tables;
}

/** The widened kind of some observations (undefined when none has a value). */
function kindOf(values: Array<Seen | undefined>): ValueKind | undefined {
  let kind: ValueKind | undefined;
  for (const v of values) if (v && v.raw !== '') kind = kind ? widen(kind, v.typed.kind) : v.typed.kind;
  return kind;
}

const JSON_TYPE: Record<ValueKind, string> = { integer: 'integer', number: 'number', boolean: 'boolean', date: 'string', 'date-time': 'string', email: 'string', phone: 'string', string: 'string' };
const FORMAT: Partial<Record<ValueKind, string>> = { date: 'date', 'date-time': 'date-time', email: 'email' };

function kindNote(kind: ValueKind, values: Array<Seen | undefined>): string {
  const present = values.filter((v): v is Seen => v !== undefined);
  if (kind === 'phone') return ' A phone number, as printed.';
  if (kind === 'date') return ' A date (ISO 8601, YYYY-MM-DD).';
  if (kind === 'date-time') return ' A date and time (ISO 8601).';
  if (kind === 'email') return ' An e-mail address.';
  if (kind === 'boolean') return ' True for yes or a checked box, false for no.';
  if ((kind === 'number' || kind === 'integer') && present.some((v) => v.typed.percent)) return ' A percentage, as a number (8% is 8).';
  if (kind === 'number' && present.some((v) => v.typed.money || /[.,]\d{2}$/.test(v.raw))) return ' An amount, as a number without currency sign or thousands separators.';
  return '';
}

function leafSchema(kind: ValueKind | undefined, nullable: boolean, description: string): Record<string, unknown> {
  const k = kind ?? 'string';
  const type = JSON_TYPE[k];
  return {
    type: nullable || kind === undefined ? [type, 'null'] : type,
    ...(FORMAT[k] ? { format: FORMAT[k] } : {}),
    description,
  };
}

function valueAs(v: Seen | undefined, kind: ValueKind | undefined): unknown {
  if (!v || v.raw === '' || kind === undefined) return null;
  return coerce(v.typed, v.raw, kind);
}

/**
 * The schema and, per example, the values it was inferred from (what extraction with the schema
 * should give back).
 */
export function inferSchemaWithValues(docs: Doc[], options: { instructions: string | null }): InferredSchema & { values: Record<string, unknown>[] } {
  const observed = docs.map(observeDocument);
  const fields = planFields(observed);
  const tables = planTables(observed, new Set(fields.keys()));
  const { type: schemaType, title } = detectKind(docs, options.instructions);

  const properties: Record<string, unknown> = {};
  const defs: Record<string, unknown> = {};
  const values: Record<string, unknown>[] = docs.map(() => ({}));

  for (const field of fields.values()) {
    const kind = kindOf(field.seen);
    const nullable = field.seen.some((v) => v === undefined || v.raw === '');
    const description = `${field.where}.${kindNote(kind ?? 'string', field.seen)}${nullable ? ' Null when the document does not print it.' : ''}`;
    properties[field.name] = leafSchema(kind, nullable, description);
    field.seen.forEach((v, d) => (values[d]![field.name] = valueAs(v, kind)));
  }

  const usedDefs = new Set<string>();
  for (const table of tables.values()) {
    let defName = table.defName;
    for (let k = 2; usedDefs.has(defName); k++) defName = `${table.defName}${k}`;
    usedDefs.add(defName);
    const itemProperties: Record<string, unknown> = {};
    const kinds = new Map<string, ValueKind | undefined>();
    for (const column of table.columns.values()) {
      const kind = kindOf(column.cells);
      kinds.set(column.name, kind);
      const nullable = column.missing || column.cells.some((c) => c === undefined);
      const description = `Column '${column.label}' of the table.${kindNote(kind ?? 'string', column.cells)}${nullable ? ' Null where the cell is empty.' : ''}`;
      itemProperties[column.name] = leafSchema(kind, nullable, description);
    }
    defs[defName] = {
      type: 'object',
      description: `One row of the ${table.name.replace(/_/g, ' ')} table.`,
      properties: itemProperties,
      required: Object.keys(itemProperties),
      additionalProperties: false,
    };
    properties[table.name] = {
      type: 'array',
      description: `${table.where}, one item per row (total and balance rows excluded).`,
      items: { $ref: `#/$defs/${defName}` },
    };
    table.rows.forEach((rows, d) => {
      values[d]![table.name] = rows.map((row) => Object.fromEntries([...table.columns.keys()].map((name) => [name, valueAs(row.get(name), kinds.get(name))])));
    });
  }

  const fieldCount = fields.size;
  const schema: Record<string, unknown> = {
    title,
    description:
      `${title === 'Document' ? 'Documents' : `${title} documents`} like the ${docs.length} example${docs.length === 1 ? '' : 's'} given: ` +
      `${fieldCount} labelled field${fieldCount === 1 ? '' : 's'}${tables.size > 0 ? ` and ${tables.size} table${tables.size === 1 ? '' : 's'} of items` : ''}.` +
      (options.instructions ? ` Instructions: ${options.instructions.trim().slice(0, 500)}` : ''),
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
  return { schema, title, schemaType, values };
}

export function inferSchema(docs: Doc[], options: { instructions: string | null }): InferredSchema {
  const { schema, title, schemaType } = inferSchemaWithValues(docs, options);
  return { schema, title, schemaType };
}
