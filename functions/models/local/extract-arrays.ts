/**
 * Arrays: items of objects come from tables (the table whose header row best matches the item's
 * properties, columns assigned to properties one to one; the same header continued on later pages
 * adds rows), or, when no table was detected, from lines aligned under a header line (text files,
 * unruled PDFs). Arrays of scalars come from a table column headed by the array's name, or from a
 * labelled list ("Tags: red, green, blue").
 *
 * Summary rows ("Total", "Balance forward") are not items; a row with text only in a text column
 * continues the item above (a wrapped description).
 */
import { cellAt, type DocIndex, RULE, type XLine, type XSegment, type XTable, type XWord } from './extract-index.ts';
import { findLabels, valueRegions } from './extract-labels.ts';
import type { LeafNode } from './extract-schema.ts';
import { type LeafTraits, type Read, readValue, withSplitCents } from './extract-values.ts';
import { bestPhrase, type Phrase, type PhraseSource } from './extract-words.ts';
import { ARRAY_WEIGHTS } from './weights/extract-arrays.ts';

export interface ItemLeaf {
  /** Path inside the item ("price.amount" → ["price", "amount"]). */
  path: string[];
  node: LeafNode;
  traits: LeafTraits;
  phrases: Phrase[];
  /** The lexicon's concept for the column ("item_description", "item_quantity"), when it knows one. */
  concept?: string;
}

export interface ItemValue {
  read: Read;
  /** 0..1: how well the column matched the property, times how well the value reads. */
  likelihood: number;
}

/** Items as maps from leaf index to value. */
export type Items = Array<Map<number, ItemValue>>;

type WeightOf = (source: PhraseSource) => number;

/** Rows that sum up or carry balances: not items. */
const SUMMARY = /^\s*(sub-?\s?totals?|total\s*(?:qty|quantity|items?)|total|grand total|totals|amount due|balance (?:due|forward|brought forward|carried forward|b\/f|c\/f)|opening balance|closing balance|beginning balance|ending balance|carried forward|brought forward)\b/i;

/** A price or an amount of a line (not a count), as a number property. */
const isMoney = (leaf: ItemLeaf) => leaf.node.type === 'number' && (leaf.concept === 'item_amount' || leaf.concept === 'item_unit_price');
const isText = (leaf: ItemLeaf) => leaf.node.type === 'string' && !leaf.node.enum && !leaf.traits.date && !leaf.traits.identifier;

/** Column → property by header similarity, greedily one to one. */
function assignColumns(headers: Array<string[] | undefined>, leaves: readonly ItemLeaf[], threshold: number, weightOf: WeightOf): Map<number, { leaf: number; similarity: number }> {
  const pairs: Array<{ column: number; leaf: number; similarity: number }> = [];
  headers.forEach((stems, column) => {
    if (!stems || stems.length === 0) return;
    leaves.forEach((leaf, l) => {
      const { similarity } = bestPhrase(stems, leaf.phrases, weightOf);
      if (similarity >= threshold) pairs.push({ column, leaf: l, similarity });
    });
  });
  pairs.sort((a, b) => b.similarity - a.similarity || a.column - b.column || a.leaf - b.leaf);
  const columns = new Map<number, { leaf: number; similarity: number }>();
  const taken = new Set<number>();
  for (const pair of pairs) {
    if (columns.has(pair.column) || taken.has(pair.leaf)) continue;
    columns.set(pair.column, { leaf: pair.leaf, similarity: pair.similarity });
    taken.add(pair.leaf);
  }
  return columns;
}

const enoughColumns = (mapped: number, leaves: number) => mapped >= Math.min(ARRAY_WEIGHTS.minColumns, leaves);
/** How well a header names the properties: strong matches count more than many weak ones ("Line" for a line total). */
const sumSimilarity = (columns: Map<number, { similarity: number }>) => [...columns.values()].reduce((s, c) => s + c.similarity ** 2, 0);

interface TableMapping {
  table: XTable;
  header: number;
  columns: Map<number, { leaf: number; similarity: number }>;
  score: number;
}

function headerStems(table: XTable, row: number): Array<string[] | undefined> {
  return Array.from({ length: table.columnCount }, (_, column) => {
    const cell = table.grid[row]?.[column];
    // A spanning cell is read in its first slot only.
    if (!cell || (column > 0 && table.grid[row]?.[column - 1] === cell)) return undefined;
    return [...new Set(cell.words.flatMap((w) => w.stems))];
  });
}

/**
 * A header printed over a table but outside it (ruled rows under a header line without rules): one of
 * the two lines above its first row, when it has a run of text for each of its columns and no figures.
 */
function headerAbove(index: DocIndex, table: XTable): Array<string[] | undefined> | undefined {
  const first = table.grid[0]?.find((cell) => cell && cell.words.length > 0)?.words[0];
  if (!first) return undefined;
  for (const id of Array.from({ length: ARRAY_WEIGHTS.headerLinesAbove }, (_, k) => first.line - 1 - k)) {
    const line = index.lines[id];
    if (!line || line.page !== table.page || line.inCell) continue;
    // (Column names only: a line with figures, "No. Qtys: 2  No. Items: 2", is no header.)
    if (line.segments.length === table.columnCount && !line.words.some((w) => /\d/.test(w.text))) return line.segments.map((s) => [...new Set(s.words.flatMap((w) => w.stems))]);
  }
  return undefined;
}

function mapTable(index: DocIndex, table: XTable, leaves: readonly ItemLeaf[], threshold: number, weightOf: WeightOf): TableMapping | undefined {
  let best: TableMapping | undefined;
  // The header is one of the first rows (a title row may come first in spreadsheets), or the line
  // above the table (row -1).
  for (let header = -1; header < Math.min(ARRAY_WEIGHTS.headerRows, table.rowCount - 1); header++) {
    const stems = header < 0 ? headerAbove(index, table) : headerStems(table, header);
    if (!stems) continue;
    const columns = assignColumns(stems, leaves, threshold, weightOf);
    if (!enoughColumns(columns.size, leaves.length)) continue;
    // A description named in the count's header cell ("QTY ITEM") is read from that column's cells.
    const shared = describedWithCount(stems, columns, leaves, threshold, weightOf);
    if (shared) columns.set(table.columnCount, shared);
    // The reader's own header row is a little more believable than another row (and the line above,
    // when the reader found no header row in the table: headerRows 0).
    const score = sumSimilarity(columns) + (header === table.headerRows - 1 ? ARRAY_WEIGHTS.ownHeaderRow : 0);
    if (!best || score > best.score) best = { table, header, columns, score };
  }
  return best;
}

function readRow(
  index: DocIndex,
  cells: Array<{ words: XWord[]; text: string } | undefined>,
  columns: Map<number, { leaf: number; similarity: number }>,
  leaves: readonly ItemLeaf[],
  items: Items,
  foreign?: Map<number, Span[]>,
): void {
  const filled = cells.filter((c) => c && c.words.length > 0);
  if (filled.length === 0) return;
  // A totals row is not an item (its label may sit in any column).
  if (filled.some((c) => SUMMARY.test(c!.text)) && filled.length < columns.size + 1) return;
  splitCountFromDescription(cells, columns, leaves);
  const row = new Map<number, ItemValue>();
  let textOnly = true;
  let anyMapped = false;
  for (const [column, { leaf, similarity }] of columns) {
    const cell = cells[column];
    if (!cell || cell.words.length === 0) continue;
    anyMapped = true;
    const target = leaves[leaf]!;
    if (!isText(target)) textOnly = false;
    const words = target.concept === 'item_description' ? withoutFigures(afterRule(pastOtherHeaders(index, cell.words, foreign?.get(column)))) : cell.words;
    let read = readValue(words, target.node, target.traits, index.dateOrder);
    if (read && index.splitCents && isMoney(target)) read = withSplitCents(read, cell.words);
    // A description has words: a bare number in its column ("1", "12") is a count read out of place.
    if (read && target.concept === 'item_description' && !/\p{L}/u.test(String(read.value))) continue;
    if (read) row.set(leaf, { read, likelihood: Math.min(1, similarity) * read.fit });
  }
  if (!anyMapped) return;
  const previous = items[items.length - 1];
  const hasNonText = [...columns.values()].some((c) => !isText(leaves[c.leaf]!));
  // Figures in a column no property maps (the row's line number, its hours) make a row of its own.
  const ownRow = cells.some((cell, c) => cell && !columns.has(c) && cell.words.some((w) => /\d/.test(w.text)));
  if (textOnly && hasNonText && previous && !ownRow) {
    // A wrapped description: the rest of the item above.
    for (const [leaf, value] of row) {
      const before = previous.get(leaf);
      // (An item whose description is printed under its code and numbers gets it from this line.)
      if (!before) {
        if (leaves[leaf]!.concept === 'item_description') previous.set(leaf, value);
        continue;
      }
      previous.set(leaf, { read: { value: `${String(before.read.value)} ${String(value.read.value)}`, words: [...before.read.words, ...value.read.words], fit: before.read.fit }, likelihood: before.likelihood });
    }
    return;
  }
  items.push(row);
}

/** A figure of a row: a count or a price ("2", "1.0", "12.00", "1,250.00"). */
const FIGURE = /^\d{1,3}([,.]\d{3})*([.,]\d{1,2})?$/;

/**
 * A description without the row's count and price that OCR set into its column ("(V02) SOUR & SPICY
 * 1.0 12.00", and the line it wraps onto after them): each run of two figures or more, one of them
 * with decimals. A description with one number ("USB cable 2.0", "Cola 1.5 L") keeps it.
 */
function withoutFigures(words: XWord[]): XWord[] {
  const out: XWord[] = [];
  for (let i = 0; i < words.length; ) {
    if (!FIGURE.test(words[i]!.text)) {
      out.push(words[i++]!);
      continue;
    }
    let end = i;
    while (end < words.length && FIGURE.test(words[end]!.text)) end++;
    const run = words.slice(i, end);
    const countAndPrice = run.length >= 2 && run.some((w) => /[.,]\d{1,2}$/.test(w.text));
    if (!countAndPrice) out.push(...run);
    i = end;
  }
  return out.length > 0 && out.some((w) => /\p{L}/u.test(w.text)) ? out : words;
}

/** A horizontal extent on the page. */
interface Span {
  from: number;
  to: number;
}

/**
 * A description cell under a header cell naming another column too ("Oper Description"): its leading
 * words printed under that other header word ("Repl" under "Oper"), and marks before them ("**",
 * "#"), are that column's, not the description's.
 */
function pastOtherHeaders(index: DocIndex, words: XWord[], spans: Span[] | undefined): XWord[] {
  if (!spans || spans.length === 0) return words;
  let start = 0;
  while (start < words.length - 1) {
    const word = words[start]!;
    const range = extent({ words: [word], box: word.box }, index.lines[word.line]!);
    const centre = (range.from + range.to) / 2;
    const mark = !/[\p{L}\p{N}]/u.test(word.text);
    // (A little slack on the page, in points; none in characters.)
    const slack = word.box ? ARRAY_WEIGHTS.headerSlack : 0;
    if (!mark && !spans.some((s) => centre >= s.from - slack && centre <= s.to + slack)) break;
    start++;
  }
  return words.slice(start);
}

/**
 * Two column names read as one header cell ("Oper      Description", set far apart): the names before
 * the description's own, as spans on the page, for each description column clearly named.
 */
function otherHeaderWords(index: DocIndex, mapping: TableMapping, leaves: readonly ItemLeaf[]): Map<number, Span[]> {
  const out = new Map<number, Span[]>();
  if (mapping.header < 0) return out;
  for (const [column, { leaf, similarity }] of mapping.columns) {
    if (leaves[leaf]?.concept !== 'item_description' || similarity < ARRAY_WEIGHTS.namedDescription) continue;
    const words = (cellAt(index, mapping.table.id, mapping.header, column)?.words ?? []).filter((w) => w.box);
    // The last name is the description's: the words after the last gap of two text heights or more.
    let last = 0;
    for (let i = 1; i < words.length; i++) {
      const before = words[i - 1]!.box!;
      if (words[i]!.box!.left - (before.left + before.width) >= ARRAY_WEIGHTS.headerGapHeights * before.height) last = i;
    }
    if (last > 0) out.set(column, words.slice(0, last).map((w) => ({ from: w.box!.left, to: w.box!.left + w.box!.width })));
  }
  return out;
}

/**
 * A description printed after a rule in its cell ("0301 | LAB CHEMISTRY" under "REV.CD. DESCRIPTION",
 * two columns read as one): the words before the rule are another column's code. A leading code
 * without its rule ("0300 LABORATORY GENERAL", "0301| LAB CHEMISTRY") is dropped too.
 */
function afterRule(words: XWord[]): XWord[] {
  const rule = words.findLastIndex((w) => RULE.test(w.text));
  const rest = words.slice(rule + 1);
  if (rule > 0 && /\p{L}{2}/u.test(rest.map((w) => w.text).join(' '))) return rest;
  // The code with the rule read onto it ("0301|", "0300]"), or alone: digits after a leading zero are
  // a code, never part of a description.
  const code = words.length > 1 && /^0\d{2,}[|¦│┃\]\[]?$/.test(words[0]!.text) && /\p{L}{2}/u.test(words.slice(1).map((w) => w.text).join(' '));
  return code ? words.slice(1) : words;
}

/**
 * A count printed close to its description ("2 Drive Shaft Automatic Right") falls in the quantity
 * column whole while the description column stays empty: the words after the count are the description.
 */
function splitCountFromDescription(cells: Array<{ words: XWord[]; text: string } | undefined>, columns: Map<number, { leaf: number }>, leaves: readonly ItemLeaf[]): void {
  const columnFor = (concept: string) => [...columns].find(([, c]) => leaves[c.leaf]!.concept === concept)?.[0];
  const quantity = columnFor('item_quantity');
  const description = columnFor('item_description');
  if (quantity === undefined || description === undefined || cells[description]?.words.length) return;
  const words = cells[quantity]?.words ?? [];
  const text = (ws: XWord[]) => ws.map((w) => w.text).join(' ');
  if (words.length < 2 || !/^\d+([.,]\d+)?$/.test(words[0]!.text) || !/^\p{L}/u.test(words[1]!.text) || !/\p{L}{2}/u.test(text(words.slice(1)))) return;
  cells[quantity] = { words: [words[0]!], text: words[0]!.text };
  cells[description] = { words: words.slice(1), text: text(words.slice(1)) };
}

/**
 * The description, when no column of its own is headed by it but the count's header also names it
 * ("QTY ITEM" over "2 ChicMcMuffin"): its leaf, to be read from the count's cells after the count.
 */
function describedWithCount(
  headers: Array<string[] | undefined>,
  assigned: Map<number, { leaf: number; similarity: number }>,
  leaves: readonly ItemLeaf[],
  threshold: number,
  weightOf: WeightOf,
): { leaf: number; similarity: number } | undefined {
  const description = leaves.findIndex((l) => l.concept === 'item_description');
  if (description < 0 || [...assigned.values()].some((c) => c.leaf === description)) return undefined;
  const count = [...assigned].find(([, c]) => leaves[c.leaf]!.concept === 'item_quantity')?.[0];
  if (count === undefined) return undefined;
  const similarity = Math.max(0, ...(headers[count] ?? []).map((stem) => bestPhrase([stem], leaves[description]!.phrases, weightOf).similarity));
  return similarity >= threshold ? { leaf: description, similarity } : undefined;
}

/** Items read under a header, how well the header names their properties, and the header's line when known. */
export interface ItemsRead {
  items: Items;
  score: number;
  headerLine?: number;
}

/**
 * Items from the best-matching table and its continuations (same columns, later in the document).
 * Tables in `taken` (used by another array) are skipped; the tables used are added to it.
 */
export function itemsFromTables(index: DocIndex, leaves: readonly ItemLeaf[], threshold: number, weightOf: WeightOf, taken: Set<number>): ItemsRead | undefined {
  let best: TableMapping | undefined;
  const mappings: TableMapping[] = [];
  for (const table of index.tables) {
    if (taken.has(table.id)) continue;
    const mapping = mapTable(index, table, leaves, threshold, weightOf);
    if (!mapping) continue;
    mappings.push(mapping);
    if (!best || mapping.score > best.score) best = mapping;
  }
  if (!best) return undefined;
  const chosen = best;
  const sameColumns = (m: TableMapping) =>
    m.table.columnCount === chosen.table.columnCount && [...m.columns].every(([c, v]) => chosen.columns.get(c)?.leaf === v.leaf) && m.columns.size === chosen.columns.size;
  const tables = mappings.filter((m) => m === chosen || (m.table.id > chosen.table.id && sameColumns(m)));
  const items: Items = [];
  for (const mapping of tables) {
    const { table, header, columns } = mapping;
    taken.add(table.id);
    const foreign = otherHeaderWords(index, mapping, leaves);
    for (let row = header + 1; row < table.rowCount; row++) {
      const cells = Array.from({ length: table.columnCount }, (_, column) => cellAt(index, table.id, row, column));
      readRow(index, cells, columns, leaves, items, foreign);
    }
  }
  return { items: withoutSectionHeadings(withoutLostDecimals(items, leaves), leaves), score: chosen.score, headerLine: headerLineOf(index, chosen) };
}

/** The line of a table's header row, when the header is a row of the table. */
function headerLineOf(index: DocIndex, mapping: TableMapping): number | undefined {
  if (mapping.header < 0) return undefined;
  for (let c = 0; c < mapping.table.columnCount; c++) {
    const word = cellAt(index, mapping.table.id, mapping.header, c)?.words[0];
    if (word) return word.line;
  }
  return undefined;
}

/**
 * A price column that prints cents ("327.87", "90.23") with a bare number of three digits or more in
 * it ("15820"): OCR lost its decimal point (158.20 or 1,582.0?), so it is left null, not read 100× too large.
 */
function withoutLostDecimals(items: Items, leaves: readonly ItemLeaf[]): Items {
  leaves.forEach((leaf, l) => {
    if (!isMoney(leaf)) return;
    const printed = items.flatMap((item) => {
      const value = item.get(l);
      return value ? [value.read.words.map((w) => w.text).join('')] : [];
    });
    const cents = printed.filter((text) => /[.,]\d{2}\D*$/.test(text)).length;
    if (cents < ARRAY_WEIGHTS.centsItems || cents < printed.length / 2) return;
    for (const item of items) if (/^\d{3,}\D*$/.test(item.get(l)?.read.words.map((w) => w.text).join('') ?? '')) item.delete(l);
  });
  return items;
}

/** Letters of a name in capitals only ("FRONT BUMPER"), three or more. */
const CAPITALS_ONLY = /^(?=(?:[^\p{L}]*\p{L}){3})[^\p{Ll}]*$/u;

/**
 * Section headings printed in the item list ("FRONT BUMPER", "COOLING" over the parts of a repair
 * estimate): a row with a name and nothing else, in capitals, where the items' own names (the rows
 * with figures) are mostly printed in lower case ("Bumper cover w/o LED"). Not items: dropped. Where
 * names are in capitals too (a till slip), a row with no figures is kept.
 */
function withoutSectionHeadings(items: Items, leaves: readonly ItemLeaf[]): Items {
  const d = leaves.findIndex((leaf) => leaf.concept === 'item_description');
  if (d < 0) return items;
  const nameOf = (item: Map<number, ItemValue>) => item.get(d)?.read.words.map((w) => w.text).join(' ') ?? '';
  const named = items.filter((item) => item.size > 1 && item.has(d));
  const inCapitals = named.filter((item) => CAPITALS_ONLY.test(nameOf(item))).length;
  const mixed = named.length - inCapitals;
  if (mixed < ARRAY_WEIGHTS.lowerCaseItems || mixed < ARRAY_WEIGHTS.lowerCaseRatio * inCapitals) return items;
  return items.filter((item) => !(item.size === 1 && item.has(d) && CAPITALS_ONLY.test(nameOf(item))));
}

// ---------------------------------------------------------------------------------------------
// Lines aligned under a header line

interface Column {
  leaf: number;
  similarity: number;
  from: number;
  to: number;
}

/** Where a line ends down the page (`otherwise` for a line without a box). */
const bottomOf = (line: XLine, otherwise: number) => (line.box ? line.box.top + line.box.height : otherwise);

/** A note's label at the start of a line. */
const NOTE = /^(notes?|remarks?|comments?|nota|bemerkung|opmerking|observaciones?|osservazioni)\s*:/i;

/** A page's foot: "Page 2", "Page 1 of 3", "- 2 -" alone. */
const PAGE_FOOT = /\bpage\s*\d+(\s*(of|\/)\s*\d+)?\s*$|^\s*-\s*\d+\s*-\s*$/i;
/** A segment's horizontal extent: its box, or its character offsets from its line's first word. */
function extent(segment: Pick<XSegment, 'words' | 'box'>, line: XLine): Span {
  if (segment.box) return { from: segment.box.left, to: segment.box.left + segment.box.width };
  const start = (w: XWord) => (w.origin.kind === 'text' || w.origin.kind === 'docx_paragraph' ? w.origin.charStart : 0);
  const end = (w: XWord) => (w.origin.kind === 'text' || w.origin.kind === 'docx_paragraph' ? w.origin.charEnd : 0);
  const base = start(line.words[0]!);
  return { from: start(segment.words[0]!) - base, to: end(segment.words[segment.words.length - 1]!) - base };
}

/**
 * The column a segment falls in: most overlap, else the nearest within `reach`. A segment run across
 * a column no property maps and one that does ("Repl RT Side bracket" under "Oper" and "Description")
 * goes to the mapped one unless it lies mostly under the other.
 */
function columnOf(range: { from: number; to: number }, columns: Column[], reach: number): number {
  let best = -1;
  let bestScore = -Infinity;
  columns.forEach((column, c) => {
    const overlap = Math.min(range.to, column.to) - Math.max(range.from, column.from);
    const score = overlap > 0 ? overlap * (column.leaf < 0 ? ARRAY_WEIGHTS.unmappedColumn : 1) : overlap < -reach ? -Infinity : overlap - reach;
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  });
  return bestScore === -Infinity ? -1 : best;
}

/** Items from lines under a header line whose segments name the item's properties. */
export function itemsFromLines(index: DocIndex, leaves: readonly ItemLeaf[], threshold: number, weightOf: WeightOf): ItemsRead | undefined {
  const stems = new Set(leaves.flatMap((l) => l.phrases.flatMap((p) => p.stems)));
  const lineIds = new Set<number>();
  for (const stem of stems) for (const id of index.byStem.get(stem) ?? []) lineIds.add(index.words[id]!.line);
  let best: { line: XLine; columns: Column[]; score: number; shared: { leaf: number; similarity: number } | undefined } | undefined;
  for (const id of [...lineIds].sort((a, b) => a - b)) {
    const line = index.lines[id]!;
    if (line.inCell || line.segments.length < 2) continue;
    const headers = line.segments.map((s) => [...new Set(s.words.flatMap((w) => w.stems))]);
    const assigned = assignColumns(headers, leaves, threshold, weightOf);
    if (!enoughColumns(assigned.size, leaves.length)) continue;
    // Every segment of a header line is a column name: a label line with values does not qualify.
    if (line.segments.some((s) => s.words.some((w) => /\d/.test(w.text)))) continue;
    const score = sumSimilarity(assigned);
    if (!best || score > best.score) {
      // Every header segment is a column; those no property maps (a line number's "Line", "Paint") have leaf -1.
      const columns = line.segments.map((segment, s) => ({ ...(assigned.get(s) ?? { leaf: -1, similarity: 0 }), ...extent(segment, line) }));
      best = { line, columns, score, shared: describedWithCount(headers, assigned, leaves, threshold, weightOf) };
    }
  }
  if (!best) return undefined;
  const { line: header, columns, shared } = best;
  const mapping = new Map(columns.flatMap((c, i) => (c.leaf >= 0 ? [[i, { leaf: c.leaf, similarity: c.similarity }] as const] : [])));
  // A description named in the count's header ("QTY ITEM") is read from that column's cells.
  if (shared) mapping.set(columns.length, shared);
  const mapped = (c: number) => columns[c]!.leaf >= 0;
  const textAt = (c: number) => mapped(c) && isText(leaves[columns[c]!.leaf]!);
  const height = header.box?.height ?? 0;
  const reach = header.box ? ARRAY_WEIGHTS.reachHeights * height : ARRAY_WEIGHTS.reachCharacters;
  const items: Items = [];
  const textColumn = columns.findIndex((_, c) => textAt(c));
  // Words printed under a column no property maps, left of the names ("Repl" under "Oper"), are not the name's.
  const foreign = new Map<number, Span[]>();
  if (textColumn > 0) foreign.set(textColumn, columns.slice(0, textColumn).filter((c) => c.leaf < 0));
  let previousBottom = header.box ? header.box.top + header.box.height : 0;
  // Lines left to skip at a page break (its foot, the next page's running head) before the list goes on.
  let resuming = 0;
  let skipped = 0;
  let textLeft = Infinity;
  let inNote = false;
  let page = header.page;
  for (let id = header.id + 1; id < index.lines.length; id++) {
    const line = index.lines[id]!;
    if (line.inCell) break;
    // The list ran to the end of its page, or to the page's foot ("… Page 2"): it may go on after the break.
    if (line.page !== page || PAGE_FOOT.test(line.text)) {
      if (resuming === 0) resuming = ARRAY_WEIGHTS.resumeWithin;
      page = line.page;
      previousBottom = bottomOf(line, 0);
      continue;
    }
    // A header printed on two lines ("Extended" over "Price $"): its second line names, holds no value.
    if (id === header.id + 1 && !/\d/.test(line.text) && line.words.some((w) => w.stems.some((s) => stems.has(s)))) {
      previousBottom = bottomOf(line, previousBottom);
      continue;
    }
    if (resuming === 0 && line.box && header.box && line.box.top - previousBottom > ARRAY_WEIGHTS.itemGapHeights * height) break;
    if (SUMMARY.test(line.text)) break;
    const cells: Array<{ words: XWord[]; text: string } | undefined> = columns.map(() => undefined);
    for (const segment of line.segments) {
      const c = columnOf(extent(segment, line), columns, reach);
      if (c < 0) continue;
      const cell = cells[c] ?? { words: [], text: '' };
      cell.words.push(...segment.words);
      cell.text = cell.words.map((w) => w.text).join(' ');
      cells[c] = cell;
    }
    // A line of words alone, wider than its column, under an item's code and figures ("REPAIR ENGINE
    // POWER SPRAYER (1UNIT)" under "1072  1  80.00  80.00"): the text column's, wherever it starts.
    const wordsOnly = line.segments.length === 1 && items.length > 0 && !line.words.some((w) => /\d[.,]\d{2}\b/.test(w.text)) && (line.text.match(/\p{L}/gu)?.length ?? 0) >= 3;
    if (wordsOnly && textColumn >= 0 && !cells[textColumn]) {
      const only = cells.findIndex(Boolean);
      if (only >= 0 && !textAt(only)) {
        cells[textColumn] = cells[only];
        cells[only] = undefined;
      }
    }
    // (Cells under a column no property maps only say whether the line is an item of its own: readRow.)
    const filledColumns = cells.flatMap((cell, c) => (cell && mapped(c) ? [c] : []));
    const filled = filledColumns.length;
    // A line of one text cell continues the item above; any other line with too little ends the list.
    const textOnly = filled === 1 && textAt(filledColumns[0]!);
    if (resuming > 0) {
      // After a page break, the list goes on at the first line with figures under its columns.
      const figures = cells.some((cell, c) => cell && mapped(c) && !textAt(c) && /\d/.test(cell.text));
      if (textOnly || !figures || filled < Math.min(ARRAY_WEIGHTS.minColumns, mapping.size)) {
        if (--resuming === 0) break;
        previousBottom = bottomOf(line, previousBottom);
        continue;
      }
      resuming = 0;
    }
    // Text alone starts no list, unless numbered in a column of its own ("1  FRONT BUMPER" under "Line").
    const numbered = cells.some((cell, c) => cell && !mapped(c) && cell.words.some((w) => /\d/.test(w.text)));
    // A note under a line ("Note: MASK", "Remarks: …"), with the lines it wraps onto, is no part of its name.
    inNote = textOnly && !numbered && items.length > 0 && (inNote || NOTE.test(cells[filledColumns[0]!]!.text));
    if (inNote) {
      previousBottom = bottomOf(line, previousBottom);
      continue;
    }
    if (textOnly && items.length === 0 && !numbered) break;
    // Words only under columns no property maps, or text alone that starts away from where the items'
    // names start (so no wrapped name): a heading at the left ("Front Lamps" under "Line #", numbered
    // or not), the rest of a cell nobody asked for ("Certified" under "Part Type"), a note under the
    // list. Skipped, two at most in a row.
    const startOf = (cell: { words: XWord[] }) => extent(index.segments[cell.words[0]!.segment]!, line).from;
    const start = textOnly ? startOf(cells[filledColumns[0]!]!) : 0;
    const misplaced = textOnly && items.length > 0 && textLeft < Infinity && (start < textLeft - reach || start > textLeft + ARRAY_WEIGHTS.wrappedReach * reach);
    if ((filled === 0 || (misplaced && !/\d/.test(line.text))) && skipped < ARRAY_WEIGHTS.maxSkipped) {
      skipped++;
      previousBottom = bottomOf(line, previousBottom);
      continue;
    }
    if (misplaced || (!textOnly && filled < Math.min(ARRAY_WEIGHTS.minColumns, mapping.size))) break;
    skipped = 0;
    readRow(index, cells, mapping, leaves, items, foreign);
    // Where the item's names start: a wrapped name starts there too.
    const text = textColumn >= 0 ? cells[textColumn] : undefined;
    if (text) textLeft = Math.min(textLeft, startOf(text));
    previousBottom = bottomOf(line, previousBottom);
  }
  const kept = withoutSectionHeadings(withoutLostDecimals(items, leaves), leaves);
  return kept.length > 0 ? { items: kept, score: best.score, headerLine: header.id } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Arrays of scalars

/** Values of a scalar array: a table column headed by its name, else a labelled list. */
export function scalarItems(
  index: DocIndex,
  phrases: readonly Phrase[],
  leaf: ItemLeaf,
  threshold: number,
  weightOf: WeightOf,
  vocabulary: ReadonlySet<string>,
): Array<ItemValue> {
  // A column: the best-matching header cell among the first rows of every table.
  let column: { table: XTable; row: number; column: number; similarity: number } | undefined;
  for (const table of index.tables) {
    for (let row = 0; row < Math.min(ARRAY_WEIGHTS.scalarHeaderRows, table.rowCount - 1); row++) {
      headerStems(table, row).forEach((stems, c) => {
        if (!stems || stems.length === 0) return;
        const { similarity } = bestPhrase(stems, phrases, weightOf);
        if (similarity >= Math.max(threshold, ARRAY_WEIGHTS.scalarColumnSimilarity) && similarity > (column?.similarity ?? 0)) column = { table, row, column: c, similarity };
      });
    }
  }
  if (column) {
    const values: ItemValue[] = [];
    for (let row = column.row + 1; row < column.table.rowCount; row++) {
      const cell = cellAt(index, column.table.id, row, column.column);
      if (!cell || cell.words.length === 0 || SUMMARY.test(cell.text)) continue;
      const read = readValue(cell.words, leaf.node, leaf.traits, index.dateOrder);
      if (read) values.push({ read, likelihood: Math.min(1, column.similarity) * read.fit });
    }
    return values;
  }
  // A labelled list: the best label's value, split at commas, semicolons and "and".
  let best: { words: XWord[]; similarity: number } | undefined;
  for (const label of findLabels(index, phrases, weightOf, ARRAY_WEIGHTS.listLabels)) {
    if (label.similarity < threshold || label.similarity <= (best?.similarity ?? 0)) continue;
    const region = valueRegions(index, label, vocabulary)[0];
    if (region && region.words.length > 0) best = { words: region.words, similarity: label.similarity };
  }
  if (!best) return [];
  const pieces: XWord[][] = [[]];
  for (const word of best.words) {
    if (/^(and|&)$/i.test(word.text)) {
      pieces.push([]);
      continue;
    }
    pieces[pieces.length - 1]!.push(word);
    if (/[,;]$/.test(word.text)) pieces.push([]);
  }
  const values: ItemValue[] = [];
  for (const piece of pieces) {
    if (piece.length === 0) continue;
    const read = readValue(piece, leaf.node, leaf.traits, index.dateOrder);
    if (read) values.push({ read, likelihood: Math.min(1, best.similarity) * read.fit });
  }
  return values;
}
