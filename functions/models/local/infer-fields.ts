/**
 * Schema generation: what one example document prints as fields — "Label: value" pairs, label and
 * value separated by a wide gap ("Total due      1,250.00"), key-value tables (a label cell beside or
 * over its value), and item tables (a header row over rows of values).
 */
import { type Doc, type Page, tableRows, type Word } from '../../documents/doc.ts';
import { INFER_SETTINGS } from './weights/infer-schema.ts';

export interface ScalarObservation {
  label: string;
  raw: string;
  /** Where it was found, for the property's description. */
  where: string;
}

export interface TableObservation {
  /** The array's name (snake_case, plural) and what the table was titled by. */
  name: string;
  columns: Array<{ label: string; name: string }>;
  rows: string[][];
  where: string;
}

export interface DocObservations {
  scalars: ScalarObservation[];
  tables: TableObservation[];
}

const LABEL_WORD = /^(?:[\p{L}#&/'’.-]+|\([^)]{0,12}\)|No\.?|\d{1,2}%)$/u;
/** A word ending a label: letters then a colon ("Date:"), not a time ("10:30"). */
const COLON_WORD = /^[\p{L}#).%][\p{L}\d#&/'’.()%-]*:$|^:$/u;
const SUMMARY = /^\s*(sub-?\s?total|total|grand total|totals|amount due|balance (?:due|forward|brought forward|carried forward)|opening balance|closing balance|carried forward|brought forward)\b/i;

/** snake_case of a label: "Invoice No." → "invoice_number", "Tax (8%)" → "tax", "E-mail" → "email". */
export function snakeName(label: string): string {
  const name = label
    .replace(/\([^)]*\)/g, ' ')
    .replace(/#/g, ' number ')
    .replace(/\bno\.?(?=\s|$)/gi, ' number ')
    .replace(/e-mail/gi, 'email')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '') return '';
  return /^\d/.test(name) ? `field_${name}` : name.slice(0, INFER_SETTINGS.nameCharacters).replace(/_+$/, '');
}

/** A label as printed, without its colon and outer punctuation. */
const cleanLabel = (text: string) => text.replace(/\s*:\s*$/, '').replace(/^[\s\-–•*]+|[\s\-–•*]+$/g, '').trim();

function isLabelText(text: string): boolean {
  const t = cleanLabel(text);
  if (t === '' || /\d{3}|\d[.,]\d/.test(t) || !/\p{L}{2}/u.test(t)) return false;
  const words = t.split(/\s+/);
  return words.length <= INFER_SETTINGS.maxLabelWords && words.every((w) => LABEL_WORD.test(w));
}

/** Whether printed text looks like a value rather than a label (digits, a sign, a yes/no). */
function looksLikeValue(text: string): boolean {
  return /\d|[$€£¥@]|^(yes|no|true|false|[☑☒☐✓✔x])$/i.test(text.trim());
}

/** Words of a line, each flagged with whether a wide gap (a new segment) precedes it. */
function lineWords(page: Page, indices: number[], spacing: number): Array<{ word: Word; gap: boolean }> {
  const out: Array<{ word: Word; gap: boolean }> = [];
  let previous: Word | undefined;
  for (const i of indices) {
    const word = page.words[i]!;
    let gap = false;
    if (previous) {
      if (word.box && previous.box) gap = word.box.left - (previous.box.left + previous.box.width) > Math.max(INFER_SETTINGS.segmentGapSpacings * spacing, INFER_SETTINGS.segmentGapHeights * Math.max(word.box.height, previous.box.height));
      else if (word.origin.kind === 'text' && previous.origin.kind === 'text') gap = word.origin.charStart - previous.origin.charEnd >= INFER_SETTINGS.segmentGapCharacters;
    }
    out.push({ word, gap });
    previous = word;
  }
  return out;
}

/** The usual space between words of a line on a page (the median gap), in page units. */
function wordSpacing(page: Page): number {
  const gaps: number[] = [];
  for (const line of page.lines) {
    for (let k = 1; k < line.words.length; k++) {
      const a = page.words[line.words[k - 1]!]!.box;
      const b = page.words[line.words[k]!]!.box;
      if (a && b) gaps.push(b.left - (a.left + a.width));
    }
  }
  gaps.sort((x, y) => x - y);
  return gaps.length > 0 ? Math.max(1, gaps[Math.floor(gaps.length / 2)]!) : INFER_SETTINGS.defaultSpacing;
}

/** "Label: value" and "Label      value" pairs of one line (the value may be on the next line). */
function linePairs(words: Array<{ word: Word; gap: boolean }>, nextLine: string | undefined): Array<{ label: string; raw: string }> {
  const texts = words.map((w) => w.word.text);
  // Label ends: colon words; each label reaches back over label words, keeping ≥1 word for the value before.
  const labels: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < texts.length; i++) {
    if (!COLON_WORD.test(texts[i]!)) continue;
    const floor = labels.length > 0 ? labels[labels.length - 1]!.end + 1 : 0;
    let start = i;
    if (texts[i] === ':') start = i - 1;
    while (start > floor && i - start < INFER_SETTINGS.maxLabelWords - 1 && !words[start]!.gap && LABEL_WORD.test(texts[start - 1]!) && !texts[start - 1]!.endsWith(':')) start--;
    if (start < floor || start < 0) continue;
    // A label word right after the previous label's colon with no gap is that label's value.
    if (labels.length > 0 && start === labels[labels.length - 1]!.end) start++;
    if (start > i) continue;
    if (!isLabelText(texts.slice(start, i + 1).join(' '))) continue;
    labels.push({ start, end: i + 1 });
  }
  const pairs: Array<{ label: string; raw: string }> = [];
  labels.forEach((label, k) => {
    const limit = k + 1 < labels.length ? labels[k + 1]!.start : texts.length;
    let end = label.end;
    // The value: up to the next segment break, or the whole next segment when the label ends its own.
    while (end < limit && (end === label.end || !words[end]!.gap)) end++;
    let raw = texts.slice(label.end, end).join(' ');
    if (raw === '' && k === labels.length - 1 && nextLine && !/:/.test(nextLine)) raw = nextLine;
    if (raw.trim() === '' || raw.split(/\s+/).length > INFER_SETTINGS.maxValueWords) return;
    pairs.push({ label: cleanLabel(texts.slice(label.start, label.end).join(' ')), raw: raw.trim() });
  });
  if (labels.length > 0) return pairs;
  // No colon: a leading segment of label words, then a segment that reads as a value.
  const breaks = words.map((w, i) => (w.gap ? i : -1)).filter((i) => i > 0);
  if (breaks.length === 1) {
    const label = texts.slice(0, breaks[0]).join(' ');
    const raw = texts.slice(breaks[0]).join(' ');
    if (isLabelText(label) && looksLikeValue(raw) && raw.split(/\s+/).length <= INFER_SETTINGS.bareValueWords) pairs.push({ label: cleanLabel(label), raw });
  }
  return pairs;
}

function pluralName(singular: string): string {
  if (/(s|staff|data|information)$/.test(singular)) return singular;
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

/** The array's name: a title just before the table, the sheet's name, the kind of columns, or a word they share. */
function tableName(headers: string[], title: string | undefined, sheet: string | undefined): string {
  const words = headers.map((h) => snakeName(h));
  const has = (re: RegExp) => words.some((w) => re.test(w));
  if (title && isLabelText(title) && title.split(/\s+/).length <= INFER_SETTINGS.tableTitleWords && snakeName(title)) return pluralName(snakeName(title));
  if (sheet && !/^sheet\d*$/i.test(sheet) && snakeName(sheet)) return pluralName(snakeName(sheet));
  // A word most headers share ("Order ID", "Order Date" → orders).
  const counts = new Map<string, number>();
  for (const w of words) for (const part of new Set(w.split('_'))) if (!/^(id|date|number|total|name|amount|type|code|no)$/.test(part) && part.length > INFER_SETTINGS.sharedWordLetters) counts.set(part, (counts.get(part) ?? 0) + 1);
  const shared = [...counts].filter(([, n]) => n >= INFER_SETTINGS.sharedHeaders).sort((a, b) => b[1] - a[1])[0];
  if (shared) return pluralName(shared[0]);
  if (has(/^(qty|quantity|units?)$/) || has(/unit_price|^rate$/)) return 'line_items';
  if (has(/date/) && has(/balance|debit|credit|amount|withdraw|deposit/)) return 'transactions';
  if (has(/earning|deduction/)) return 'earnings';
  return 'items';
}

/** Observations of one document. */
export function observeDocument(doc: Doc): DocObservations {
  const scalars: ScalarObservation[] = [];
  const tables: TableObservation[] = [];
  let seenItemTable = false;
  const region = () => (seenItemTable ? 'below the item table' : 'in the document header');
  for (const page of doc.pages) {
    let previousText: string | undefined;
    const spacing = wordSpacing(page);
    for (const block of page.blocks) {
      if (block.kind === 'table' && block.table !== undefined) {
        const table = page.tables[block.table]!;
        const rows = tableRows(table).map((r) => r.map((c) => c.trim().replace(/\s+/g, ' ')));
        observeTable(rows, table.headerRows, previousText, doc.kind === 'xlsx' ? page.name : undefined, scalars, tables, region);
        if (tables.length > 0) seenItemTable = true;
        previousText = undefined;
        continue;
      }
      block.lines.forEach((l, k) => {
        const line = page.lines[l]!;
        const next = k + 1 < block.lines.length ? page.lines[block.lines[k + 1]!]!.text : undefined;
        for (const pair of linePairs(lineWords(page, line.words, spacing), next)) scalars.push({ ...pair, where: `Value labelled '${pair.label}' ${region()}` });
      });
      previousText = block.text;
    }
  }
  return { scalars, tables };
}

function observeTable(
  rows: string[][],
  headerRows: number,
  title: string | undefined,
  sheet: string | undefined,
  scalars: ScalarObservation[],
  tables: TableObservation[],
  region: () => string,
): void {
  if (rows.length === 0) return;
  const columns = rows[0]!.length;
  const cell = (r: number, c: number) => rows[r]?.[c] ?? '';
  // Label cells ("Invoice Number:") with their value beside or under them: a key-value layout.
  const colonCells = rows.flatMap((row, r) => row.map((text, c) => ({ r, c, text }))).filter((x) => /:$/.test(x.text) && isLabelText(x.text));
  if (headerRows === 0 && colonCells.length > 0) {
    for (const { r, c, text } of colonCells) {
      let raw = '';
      for (let k = c + 1; k < columns && raw === ''; k++) raw = cell(r, k);
      if (raw === '' || /:$/.test(raw)) raw = cell(r + 1, c);
      if (raw === '' || /:$/.test(raw)) continue;
      const label = cleanLabel(text);
      scalars.push({ label, raw, where: `Value labelled '${label}' ${region()}` });
    }
    return;
  }
  // Two columns of labels and values: a key-value table.
  const filled = rows.filter((row) => row.filter((t) => t !== '').length === 2);
  if (headerRows === 0 && columns === 2 && filled.length >= 1 && filled.every((row) => isLabelText(row[0]!)) && !filled.every((row) => isLabelText(row[1]!))) {
    for (const row of filled) scalars.push({ label: cleanLabel(row[0]!), raw: row[1]!, where: `Value beside the label '${cleanLabel(row[0]!)}' in a two-column table` });
    return;
  }
  // An item table: header row(s), then rows.
  const header = headerRows > 0 ? rows.slice(0, headerRows) : rows[0]!.every((t) => t === '' || isLabelText(t)) ? [rows[0]!] : [];
  if (header.length === 0 || rows.length - header.length < 1) return;
  const labels = Array.from({ length: columns }, (_, c) => header.map((h) => h[c] ?? '').filter(Boolean).join(' '));
  const used: Array<{ label: string; name: string; c: number }> = [];
  const names = new Set<string>();
  labels.forEach((label, c) => {
    let name = snakeName(label);
    if (!name) return;
    for (let k = 2; names.has(name); k++) name = `${snakeName(label)}_${k}`;
    names.add(name);
    used.push({ label: cleanLabel(label), name, c });
  });
  if (used.length < INFER_SETTINGS.itemColumns) return;
  const data = rows.slice(header.length).filter((row) => row.some((t) => t !== '') && !SUMMARY.test(row.find((t) => t !== '') ?? ''));
  if (data.length === 0) return;
  const name = tableName(used.map((u) => u.label), title, sheet);
  tables.push({
    name,
    columns: used.map(({ label, name: n }) => ({ label, name: n })),
    rows: data.map((row) => used.map((u) => row[u.c] ?? '')),
    where: `Rows of the table with columns ${used.map((u) => `'${u.label}'`).join(', ')}`,
  });
}
