/**
 * The fields of a PDF form (task code only): from its AcroForm when it has one (labels from the
 * tooltips, or from the text printed next to each widget), otherwise detected on its pages — drawn
 * or printed, or OCRed when the page is a scan.
 */
import type { PDFDocument } from 'pdf-lib';
import type { Box, Doc, Page } from '../documents/doc.ts';
import { detectPageFields } from '../models/local/form-detect.ts';
import { readAcroFields } from './acroform.ts';
import { printedLabels, type PrintedLabel } from './labels.ts';
import type { FormField } from './schema.ts';

export interface FormFieldWithOptions extends FormField {
  /** Dropdown choices (AcroForm); not on the wire. */
  options?: string[];
  /** A read-only AcroForm field: listed, never offered a value; not on the wire. */
  readOnly?: boolean;
  /** A text field's most characters, and whether they are combed (one per printed box); not on the wire. */
  maxLength?: number;
  comb?: boolean;
  /** The title of the block of the form the field is in ("Donateur"), first in its description; not on the wire. */
  block?: string;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** A stable key from a label: its words in snake_case, numbered when the label repeats. */
export function keyMaker(): (label: string) => string {
  const seen = new Map<string, number>();
  return (label: string) => {
    const slug =
      label
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 60)
        .replace(/_+$/, '') || 'field';
    const count = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, count);
    return count === 1 ? slug : `${slug}_${count}`;
  };
}

function normalized(page: Page, box: Box): FormField['bbox'] {
  const clamp = (n: number) => Math.min(1, Math.max(0, n));
  const left = clamp(box.left / page.width);
  const top = clamp(box.top / page.height);
  return {
    left: round(left),
    top: round(top),
    width: round(Math.min(1 - left, box.width / page.width)),
    height: round(Math.min(1 - top, box.height / page.height)),
    page: page.number,
  };
}

/**
 * Fields detected on the pages of a flat or scanned form. A drawn box is named by the page around it
 * as an AcroForm widget is (./labels.ts: left, or over/under as the page prints its labels), and so is
 * any field the detector found no label for; every field gets the section it sits in.
 */
export function detectedFields(doc: Doc): FormFieldWithOptions[] {
  const key = keyMaker();
  return doc.pages.flatMap((page) => {
    const found = detectPageFields(page);
    const printed = printedLabels(page, found.map((f) => ({ box: f.box, tick: f.type === 'checkbox' })));
    const rows = tableRows(found);
    return found.map((f, i) => {
      const seen = printed[i]!;
      const own = f.kind === 'box' && seen.label ? '' : f.label;
      let label = own || seen.label || seen.column?.header || '';
      // A box of a table column named by the column's header: its row tells it from the others.
      const row = rows.get(i) ?? (seen.column && label === seen.column.header ? seen.column.row : undefined);
      if (row !== undefined) label = `${label} (row ${row})`;
      const section = seen.section && !label.includes(seen.section) ? seen.section : '';
      // A field nothing names has no description: its section alone does not say what goes in it.
      const block = blockOver(seen, label);
      const description = label === '' ? '' : joined([block, section, own && row === undefined ? f.description : label], ' › ');
      const comb = f.comb ? { comb: true, maxLength: f.comb } : {};
      return { key: key(label), type: f.type, description, bbox: normalized(page, f.box), value: null, ...comb, ...(block ? { block } : {}) };
    });
  });
}

/**
 * The row of each empty table cell named only by its column header ("NOM DE FAMILLE" in rows 1–8):
 * cells of one column with the same name, numbered top to bottom, so "the 2nd dependant's name" can
 * find its row.
 */
function tableRows(found: ReturnType<typeof detectPageFields>): Map<number, number> {
  const columns = new Map<string, number[]>();
  found.forEach((f, i) => {
    if (f.kind !== 'cell') return;
    const key = `${f.label}@${Math.round(f.box.left)}`;
    columns.set(key, [...(columns.get(key) ?? []), i]);
  });
  const out = new Map<number, number>();
  for (const cells of columns.values()) {
    if (cells.length < 2) continue;
    [...cells].sort((a, b) => found[a]!.box.top - found[b]!.box.top).forEach((i, row) => out.set(i, row + 1));
  }
  return out;
}

/** A tooltip that says something ("First name", "NOM"), not a number or a generated name ("[2]", "Text1"). */
function meaningfulTooltip(tooltip: string | null): string | null {
  if (tooltip === null) return null;
  if (!/\p{L}{2}/u.test(tooltip) || /^(text|field|check ?box|textfield|champ|feld|tekstveld)\s*\d*$/i.test(tooltip.trim())) return null;
  return tooltip;
}

/** The title of the block a field is in, to go first in its description: only over a description that says something, and not again. */
const blockOver = (seen: PrintedLabel | undefined, text: string) => (seen?.block && text !== '' && !text.includes(seen.block) ? seen.block : undefined);

const joined = (parts: Array<string | null | undefined>, separator: string) => parts.filter((p): p is string => !!p && p.trim() !== '').join(separator);

/**
 * AcroForm fields with their descriptions. `doc` (the pages as read) gives each widget the label
 * printed around it (./labels.ts): the section, the table column and row, the label itself; a
 * meaningful tooltip is added when the page says nothing else, or follows it as a second reading.
 * Radio buttons and check boxes are described as "group: option" by their printed text.
 */
export function acroFormFields(pdf: PDFDocument, doc: Doc | undefined): FormFieldWithOptions[] {
  const acro = readAcroFields(pdf);
  const printed = new Map<number, PrintedLabel>();
  for (const page of doc?.pages ?? []) {
    const onPage = acro.map((a, i) => ({ a, i })).filter(({ a }) => a.field.bbox.page === page.number);
    const widgets = onPage.map(({ a }) => ({ box: pageBox(page, a.field.bbox), tick: a.field.type === 'checkbox' }));
    printedLabels(page, widgets).forEach((label, k) => printed.set(onPage[k]!.i, label));
  }
  return acro.map(({ field, tooltip, options, group, readOnly, maxLength, comb }, i) => {
    const seen = printed.get(i);
    const tip = meaningfulTooltip(tooltip);
    let description: string;
    if (group) {
      // A radio option: its group named by the section or the text before the first button.
      const option = field.key.slice(group.name.length + 1);
      const first = acro.findIndex((a) => a.group?.name === group.name);
      const head = printed.get(first);
      const groupName = joined([head?.section, tip?.replace(/:[^:]*$/, '')], ' › ') || group.name;
      description = `${groupName}: ${seen?.label || option}`;
    } else if (field.type === 'checkbox') {
      const label = seen?.label || tip || '';
      description = seen?.section && label ? `${seen.section}: ${label}` : label || field.description;
    } else {
      const column = seen?.column ? `${seen.column.header} (row ${seen.column.row})` : '';
      const label = seen?.column && seen.label === seen.column.header ? '' : seen?.label || (column ? '' : tip) || '';
      const section = seen?.section && seen.section !== seen.column?.header ? seen.section : '';
      description = joined([section, column, label], ' › ');
      if (tip && !description.toLowerCase().includes(tip.toLowerCase())) description = joined([description, tip], ' — ');
      if (options) description = `${description}${description ? ' ' : ''}(options: ${options.join(', ')})`;
    }
    const block = blockOver(seen, description);
    if (block) description = `${block} › ${description}`;
    return { ...field, description, ...(options ? { options } : {}), ...(readOnly ? { readOnly } : {}), ...(maxLength !== undefined ? { maxLength } : {}), ...(comb ? { comb } : {}), ...(block ? { block } : {}) };
  });
}

function pageBox(page: Page, bbox: FormField['bbox']): Box {
  return { left: bbox.left * page.width, top: bbox.top * page.height, width: bbox.width * page.width, height: bbox.height * page.height };
}
