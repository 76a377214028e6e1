/**
 * Real PDF forms (an AcroForm), with pdf-lib: their fields as FormFields, and setting their values.
 * Task code only (pdf-lib never enters an API Lambda).
 *
 * Text fields and dropdowns are `text` fields keyed by their AcroForm name; a checkbox is a
 * `checkbox`; a radio group is one `checkbox` per option, keyed `<name>.<option>`. Boxes are the
 * widget rectangles as 0..1 fractions of the page (crop box), origin top-left, 1-based page.
 */
import {
  cmyk,
  degrees,
  drawRectangle,
  grayscale,
  PDFBool,
  PDFCheckBox,
  PDFDocument,
  PDFDropdown,
  PDFName,
  PDFOptionList,
  PDFRadioGroup,
  PDFTextField,
  rgb,
  type PDFField,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
  type PDFWidgetAnnotation,
} from 'pdf-lib';
import type { FormField } from './schema.ts';

export interface AcroField {
  field: FormField;
  /** The tooltip (TU) of the AcroForm field, when it has one: the best label there is. */
  tooltip: string | null;
  /** Dropdown choices. */
  options?: string[];
  /** A read-only field (the form computes or locks it): shown, never written. */
  readOnly?: boolean;
  /** A text field's most characters, and whether they are combed (one per printed box). */
  maxLength?: number;
  comb?: boolean;
  /** For a radio option: its group's name and the group's first widget (where its label is printed). */
  group?: { name: string; first: FormField['bbox'] };
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

/** A rectangle in PDF user space (origin bottom-left) as a 0..1 top-left box of the page's crop box. */
export function normalizedBox(page: PDFPage, rect: { x: number; y: number; width: number; height: number }, pageNumber: number): FormField['bbox'] {
  const crop = page.getCropBox();
  const left = clamp01((rect.x - crop.x) / crop.width);
  const top = clamp01((crop.y + crop.height - (rect.y + rect.height)) / crop.height);
  return {
    left: round(left),
    top: round(top),
    width: round(Math.min(1 - left, Math.abs(rect.width) / crop.width)),
    height: round(Math.min(1 - top, Math.abs(rect.height) / crop.height)),
    page: pageNumber,
  };
}

function tooltipOf(field: PDFField): string | null {
  const tu = field.acroField.dict.lookup(PDFName.of('TU'));
  const text = tu && 'decodeText' in tu && typeof tu.decodeText === 'function' ? (tu.decodeText() as string).trim() : '';
  return text === '' ? null : text;
}

/** The 1-based page a widget sits on: its /P entry, else the page whose /Annots hold it. */
function pageOfWidget(pdf: PDFDocument, widget: PDFWidgetAnnotation, pages: PDFPage[]): number | undefined {
  const ref = widget.P();
  if (ref) {
    const i = pages.findIndex((page) => page.ref === ref);
    if (i >= 0) return i + 1;
  }
  const own = pdf.context.getObjectRef(widget.dict);
  if (!own) return undefined;
  const i = pages.findIndex((page) => page.node.Annots()?.asArray().some((annot) => annot === own) ?? false);
  return i >= 0 ? i + 1 : undefined;
}

/** A radio widget's option: the group's /Opt entry for it when there is one, else its on-state name. */
function optionOfWidget(widget: PDFWidgetAnnotation, index: number, options: string[], widgetCount: number): string {
  if (options.length === widgetCount && options[index]) return options[index]!;
  const on = widget.getOnValue()?.decodeText();
  return on && on !== 'Off' ? on : String(index + 1);
}

export function readAcroFields(pdf: PDFDocument): AcroField[] {
  let fields: PDFField[];
  try {
    fields = pdf.getForm().getFields();
  } catch {
    return [];
  }
  const pages = pdf.getPages();
  const out: AcroField[] = [];
  for (const field of fields) {
    const name = field.getName();
    const tooltip = tooltipOf(field);
    const widgets = field.acroField.getWidgets();
    const placed = widgets.flatMap((widget, index) => {
      const page = pageOfWidget(pdf, widget, pages);
      return page === undefined ? [] : [{ widget, index, page, bbox: normalizedBox(pages[page - 1]!, widget.getRectangle(), page) }];
    });
    if (placed.length === 0) continue;
    const first = placed[0]!;
    const locked = field.isReadOnly() ? { readOnly: true } : {};
    const label = tooltip ?? '';
    if (field instanceof PDFTextField) {
      const max = field.getMaxLength();
      const limits = max !== undefined ? { maxLength: max, ...(field.isCombed() ? { comb: true } : {}) } : {};
      out.push({ field: { key: name, type: 'text', description: label, bbox: first.bbox, value: null }, tooltip, ...locked, ...limits });
    } else if (field instanceof PDFCheckBox) {
      out.push({ field: { key: name, type: 'checkbox', description: label, bbox: first.bbox, value: null }, tooltip, ...locked });
    } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
      const options = field.getOptions();
      const description = `${label}${label ? ' ' : ''}(options: ${options.join(', ')})`;
      out.push({ field: { key: name, type: 'text', description, bbox: first.bbox, value: null }, tooltip, options, ...locked });
    } else if (field instanceof PDFRadioGroup) {
      const options = field.getOptions();
      for (const { widget, index, bbox } of placed) {
        const option = optionOfWidget(widget, index, options, widgets.length);
        out.push({
          field: { key: `${name}.${option}`, type: 'checkbox', description: `${label || name}: ${option}`, bbox, value: null },
          tooltip: tooltip === null ? null : `${tooltip}: ${option}`,
          group: { name, first: first.bbox },
          ...locked,
        });
      }
    }
    // Push buttons and signature fields take no value.
  }
  return out;
}

/** The form's appearances are drawn with Helvetica (WinAnsi): other characters become "?". */
function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7E\xA0-\xFF\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u2026\u20AC\n]/gu, '?');
}

/** A widget's border colour as pdf-lib colour, when it has one. */
function colorOfComponents(components: number[] | undefined) {
  if (!components || components.length === 0) return undefined;
  if (components.length === 1) return grayscale(components[0]!);
  if (components.length === 3) return rgb(components[0]!, components[1]!, components[2]!);
  if (components.length === 4) return cmyk(components[0]!, components[1]!, components[2]!, components[3]!);
  return undefined;
}

/**
 * The appearance of a filled text field or dropdown: its border only. The value itself is drawn on the
 * page in the edit's colour (./draw.ts); an appearance showing it too would print it twice.
 */
function borderOnly(_field: unknown, widget: PDFWidgetAnnotation): PDFOperator[] {
  const rect = widget.getRectangle();
  const width = widget.getBorderStyle()?.getWidth() ?? 0;
  const color = colorOfComponents(widget.getAppearanceCharacteristics()?.getBorderColor());
  if (!color || width <= 0) return [];
  const none = degrees(0);
  return drawRectangle({ x: width / 2, y: width / 2, width: rect.width - width, height: rect.height - width, borderWidth: width, color: undefined, borderColor: color, rotate: none, xSkew: none, ySkew: none });
}

/**
 * Sets the AcroForm value of every field whose key names one (radio options by `<name>.<option>`).
 * Returns the keys that were set. A value the field refuses (too long, not an option) is fitted or skipped.
 * Text fields and dropdowns get an appearance without their text (it is drawn on the page instead).
 */
export function setAcroValues(pdf: PDFDocument, fields: FormField[], font: PDFFont): Set<string> {
  const set = new Set<string>();
  let form;
  try {
    form = pdf.getForm();
  } catch {
    return set;
  }
  // Appearances are written here: a viewer told to rebuild them would print the drawn values twice.
  if (form.acroForm.dict.has(PDFName.of('NeedAppearances'))) form.acroForm.dict.set(PDFName.of('NeedAppearances'), PDFBool.False);
  const byName = new Map(form.getFields().map((f) => [f.getName(), f]));
  for (const { key, value } of fields) {
    if (value === null) continue;
    const dot = key.lastIndexOf('.');
    const field = byName.get(key) ?? (dot > 0 ? byName.get(key.slice(0, dot)) : undefined);
    if (!field || field.isReadOnly()) continue;
    try {
      if (field instanceof PDFTextField) {
        const max = field.getMaxLength();
        const text = winAnsi(value);
        // The edit leaves a value that does not fit empty (task.ts); never cut one here.
        if (max !== undefined && text.length > max) continue;
        field.setText(text);
        field.updateAppearances(font, borderOnly);
      } else if (field instanceof PDFCheckBox) {
        if (value === 'true') field.check();
        else field.uncheck();
      } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
        if (!field.getOptions().includes(value)) continue;
        field.select(value);
        if (field instanceof PDFDropdown) field.updateAppearances(font, borderOnly);
        else field.updateAppearances(font, borderOnly);
      } else if (field instanceof PDFRadioGroup && field.getName() !== key) {
        const option = key.slice(dot + 1);
        if (value === 'true' && field.getOptions().includes(option)) field.select(option);
        else continue;
      } else {
        continue;
      }
      set.add(key);
    } catch {
      // A value the field cannot hold (a read-only field, a broken widget): it is still drawn.
    }
  }
  return set;
}
