/**
 * The fields of a PDF form (task code only): from its AcroForm when it has one (labels from the
 * tooltips, or from the text printed next to each widget), otherwise detected on its pages — drawn
 * or printed, or OCRed when the page is a scan.
 */
import type { PDFDocument } from 'pdf-lib';
import type { Box, Doc, Page } from '../documents/doc.ts';
import { detectPageFields } from '../models/local/form-detect.ts';
import { readAcroFields } from './acroform.ts';
import type { FormField } from './schema.ts';

export interface FormFieldWithOptions extends FormField {
  /** Dropdown choices (AcroForm); not on the wire. */
  options?: string[];
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

/** Fields detected on the pages of a flat or scanned form. */
export function detectedFields(doc: Doc): FormFieldWithOptions[] {
  const key = keyMaker();
  return doc.pages.flatMap((page) =>
    detectPageFields(page).map((f) => ({ key: key(f.label), type: f.type, description: f.description, bbox: normalized(page, f.box), value: null })),
  );
}

/** The text printed left of (or just above; right of, for a checkbox) a widget: its label when the AcroForm gives none. */
function printedLabel(page: Page, bbox: FormField['bbox'], checkbox = false): string {
  const box = { left: bbox.left * page.width, top: bbox.top * page.height, width: bbox.width * page.width, height: bbox.height * page.height };
  const words = page.words.filter((w) => w.box && !(w.box.left >= box.left - 1 && w.box.left + w.box.width <= box.left + box.width + 1 && w.box.top >= box.top - 1 && w.box.top + w.box.height <= box.top + box.height + 1));
  const cy = box.top + box.height / 2;
  const before = words
    .filter((w) => Math.abs(w.box!.top + w.box!.height / 2 - cy) < Math.max(box.height, w.box!.height) / 2 && w.box!.left + w.box!.width <= box.left + 2 && w.box!.left >= box.left - 250)
    .sort((a, b) => b.box!.left - a.box!.left);
  const picked: string[] = [];
  let edge = box.left;
  for (const w of before) {
    if (edge - (w.box!.left + w.box!.width) > 30) break;
    picked.unshift(w.text);
    edge = w.box!.left;
  }
  if (picked.length > 0 && !checkbox) return picked.join(' ').replace(/[:\s]+$/, '');
  if (checkbox) {
    const after = words
      .filter((w) => Math.abs(w.box!.top + w.box!.height / 2 - cy) < Math.max(box.height, w.box!.height) / 2 && w.box!.left >= box.left + box.width - 2 && w.box!.left <= box.left + box.width + 300)
      .sort((a, b) => a.box!.left - b.box!.left);
    const chosen: string[] = [];
    let end = box.left + box.width;
    for (const w of after) {
      if (w.box!.left - end > 20) break;
      chosen.push(w.text);
      end = w.box!.left + w.box!.width;
    }
    if (chosen.length > 0) return chosen.join(' ');
  }
  const above = words.filter((w) => w.box!.top + w.box!.height <= box.top + 1 && w.box!.top + w.box!.height >= box.top - 14 && w.box!.left >= box.left - 5 && w.box!.left <= box.left + box.width);
  return above
    .sort((a, b) => a.box!.left - b.box!.left)
    .map((w) => w.text)
    .join(' ')
    .replace(/[:\s]+$/, '');
}

/**
 * AcroForm fields with their descriptions. `doc` (the pages as read) gives printed labels to widgets
 * without a tooltip; without it the description is the tooltip or empty.
 */
export function acroFormFields(pdf: PDFDocument, doc: Doc | undefined): FormFieldWithOptions[] {
  return readAcroFields(pdf).map(({ field, tooltip, options, group }) => {
    let description = field.description;
    const page = doc?.pages[field.bbox.page - 1];
    if (tooltip === null && page) {
      if (group) {
        // A radio option: the group's label is printed before its first button.
        const printed = printedLabel(page, group.first);
        if (printed) description = `${printed}: ${field.key.slice(group.name.length + 1)}`;
      } else {
        const printed = printedLabel(page, field.bbox, field.type === 'checkbox');
        if (printed) description = `${printed}${description ? ` ${description}` : ''}`;
      }
    }
    return options ? { ...field, description, options } : { ...field, description };
  });
}

/** Whether every AcroForm field has a tooltip (then the pages need not be read for labels). */
export function allHaveTooltips(pdf: PDFDocument): boolean {
  return readAcroFields(pdf).every((f) => f.tooltip !== null);
}
