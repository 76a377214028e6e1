/**
 * Page → text for parses (API §3): blocks in reading order as Markdown (headings `#`, list items as
 * list lines, paragraphs as they are), each table in the requested `table_parsing_format`.
 */
import { columnLetters } from './columns.ts';
import YAML from 'yaml';
import { type Block, type Cell, type Page, type Table, tableRows } from './doc.ts';

export type TableFormat = 'markdown' | 'yaml' | 'html' | 'json';


/** The cell covering each grid slot (a merged cell covers several), or undefined for a gap. */
function coveringCells(table: Table): (Cell | undefined)[][] {
  const grid = Array.from({ length: table.rowCount }, () => Array<Cell | undefined>(table.columnCount).fill(undefined));
  for (const cell of table.cells) {
    for (let r = cell.row; r < Math.min(table.rowCount, cell.row + cell.rowSpan); r++) {
      for (let c = cell.column; c < Math.min(table.columnCount, cell.column + cell.columnSpan); c++) grid[r]![c] = cell;
    }
  }
  return grid;
}

/** Body rows as strings: a merged cell's text sits in its first slot only (as `tableRows` has it). */
function bodyRows(table: Table): string[][] {
  const rows = Array.from({ length: table.rowCount }, () => Array<string>(table.columnCount).fill(''));
  for (const cell of table.cells) {
    if (cell.row < table.rowCount && cell.column < table.columnCount) rows[cell.row]![cell.column] = cell.text;
  }
  return rows.slice(table.headerRows);
}

/**
 * One name per column: the header rows' texts (a header cell spanning columns names each of them),
 * joined with " / " when there are several header rows; "" where a column has no header text.
 * Without header rows, the column letters A, B, … — the convention of spreadsheets (JSON and YAML
 * rows need keys; Markdown prints no header then).
 */
function headerNames(table: Table): string[] {
  if (table.headerRows === 0) return Array.from({ length: table.columnCount }, (_, c) => columnLetters(c));
  const grid = coveringCells(table);
  return Array.from({ length: table.columnCount }, (_, c) => {
    const parts: string[] = [];
    for (let r = 0; r < table.headerRows; r++) {
      const text = grid[r]![c]?.text.replace(/\s+/g, ' ').trim() ?? '';
      if (text !== '' && parts[parts.length - 1] !== text) parts.push(text);
    }
    return parts.join(' / ');
  });
}

/** JSON/YAML keys: header names made unique and non-empty (empty → `col_<n>`, repeats → `<name>_<k>`). */
function uniqueKeys(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((name, c) => {
    let key = name === '' ? `col_${c + 1}` : name;
    for (let k = 2; used.has(key); k++) key = `${name === '' ? `col_${c + 1}` : name}_${k}`;
    used.add(key);
    return key;
  });
}

/** Rows as objects keyed by column, for the JSON and YAML formats. */
function rowObjects(table: Table): Record<string, string>[] {
  const keys = uniqueKeys(headerNames(table));
  return bodyRows(table).map((row) => Object.fromEntries(keys.map((key, c) => [key, row[c]!])));
}

function markdownCell(text: string): string {
  return text.trim().replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/**
 * A pipe table. Markdown has no table without a header line, so a table with no header row gets an
 * empty one: column letters there would read as a header the document does not have. A spreadsheet's
 * sheet keeps them: there the letters are the sheet's own column names.
 */
function markdownTable(table: Table, spreadsheet: boolean): string {
  const row = (cells: string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
  const header = table.headerRows === 0 && !spreadsheet ? Array<string>(table.columnCount).fill('') : headerNames(table);
  const lines = [row(header), `|${' --- |'.repeat(table.columnCount)}`, ...bodyRows(table).map(row)];
  return lines.join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function htmlTable(table: Table): string {
  const starts = new Map<string, Cell>();
  for (const cell of table.cells) starts.set(`${cell.row},${cell.column}`, cell);
  const covered = coveringCells(table);
  const rowHtml = (r: number, tag: 'th' | 'td') => {
    const cells: string[] = [];
    for (let c = 0; c < table.columnCount; c++) {
      const cell = starts.get(`${r},${c}`);
      // A slot inside another cell's span is rendered by that cell's rowspan/colspan.
      if (!cell && covered[r]![c]) continue;
      const rowSpan = cell && cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : '';
      const columnSpan = cell && cell.columnSpan > 1 ? ` colspan="${cell.columnSpan}"` : '';
      const text = escapeHtml((cell?.text ?? '').trim()).replace(/\r?\n/g, '<br>');
      cells.push(`<${tag}${rowSpan}${columnSpan}>${text}</${tag}>`);
    }
    return `<tr>${cells.join('')}</tr>`;
  };
  const out = ['<table>'];
  if (table.headerRows > 0) {
    out.push('<thead>');
    for (let r = 0; r < Math.min(table.headerRows, table.rowCount); r++) out.push(rowHtml(r, 'th'));
    out.push('</thead>');
  }
  if (table.rowCount > table.headerRows) {
    out.push('<tbody>');
    for (let r = table.headerRows; r < table.rowCount; r++) out.push(rowHtml(r, 'td'));
    out.push('</tbody>');
  }
  out.push('</table>');
  return out.join('\n');
}

function jsonTable(table: Table): string {
  const rows = rowObjects(table);
  // One row per line: compact, yet a reader can scan it.
  return rows.length === 0 ? '[]' : `[\n${rows.map((row) => JSON.stringify(row)).join(',\n')}\n]`;
}

function yamlTable(table: Table): string {
  return YAML.stringify(rowObjects(table)).trimEnd();
}

/** `spreadsheet`: the table is a sheet's cells, whose columns are named by their letters. */
export function renderTable(table: Table, format: TableFormat, spreadsheet = false): string {
  if (table.rowCount === 0 || table.columnCount === 0) return '';
  switch (format) {
    case 'markdown':
      return markdownTable(table, spreadsheet);
    case 'html':
      return htmlTable(table);
    case 'json':
      return jsonTable(table);
    case 'yaml':
      return yamlTable(table);
  }
}

const BULLET = /^[-*+•◦▪‣·–]\s+/;
const NUMBERED = /^\S{1,12}[.)]\s+|^\(\S{1,10}\)\s+/;

/** A list item as a Markdown list line: bullets become "- ", printed numbers stay, none gets "- ". */
function listLine(text: string): string {
  let line: string;
  if (BULLET.test(text)) line = text.replace(BULLET, '- ');
  else if (NUMBERED.test(text)) line = text;
  else line = `- ${text}`;
  // Continuation lines are indented under the item's text so they stay part of it.
  const indent = ' '.repeat(/^\S+\s+/.exec(line)?.[0].length ?? 2);
  return line.replace(/\n/g, `\n${indent}`);
}

function renderBlock(page: Page, block: Block, format: TableFormat): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(Math.min(6, Math.max(1, block.level ?? 1)))} ${block.text.replace(/\s*\n\s*/g, ' ')}`;
    case 'list_item':
      return listLine(block.text);
    case 'table': {
      const table = block.table !== undefined ? page.tables[block.table] : undefined;
      if (table?.form) return formText(table, table.form.captionRow);
      // Sheets (named pages of cells) are the pages that carry a name.
      return table ? renderTable(table, format, page.name !== undefined) : block.text;
    }
    default:
      return block.text;
  }
}

/**
 * A form's captioned boxes as text: each caption with the value under it, a line each ("NÚMERO DA
 * NFS-e: 999"); a caption with nothing under it alone, a row before the first caption row as it is.
 * Boxes holding their own captions are a line each, as printed ("NOME / RAZÃO SOCIAL Ana Souza").
 */
function formText(table: Table, captionRow: 0 | 1 | undefined): string {
  if (captionRow === undefined) return table.cells.map((cell) => cell.text.trim()).filter((text) => text !== '').join('\n');
  const rows = tableRows(table);
  const lines: string[] = [];
  if (captionRow === 1) lines.push(rows[0]!.filter((cell) => cell.trim() !== '').join(' '));
  for (let r = captionRow; r < rows.length; r += 2) {
    rows[r]!.forEach((cell, c) => {
      const caption = cell.trim();
      const value = (rows[r + 1]?.[c] ?? '').trim();
      lines.push(caption && value ? `${caption}: ${value}` : caption || value);
    });
  }
  return lines.filter((line) => line !== '').join('\n');
}

/** A page as Markdown text with tables in `format`; blocks apart by a blank line, list items by a newline. */
export function renderPage(page: Page, format: TableFormat): string {
  return joinBlocks(renderBlocks(page, format));
}

/** Each block of a page rendered on its own, in reading order (joinBlocks puts them together as renderPage does). */
export function renderBlocks(page: Page, format: TableFormat): Array<{ kind: Block['kind']; text: string }> {
  return page.blocks.map((block) => ({ kind: block.kind, text: renderBlock(page, block, format) }));
}

/** Rendered blocks as a page's text: empty ones left out, blocks apart by a blank line, list items by a newline. */
export function joinBlocks(blocks: ReadonlyArray<{ kind: Block['kind']; text: string }>): string {
  let out = '';
  let previous: Block['kind'] | undefined;
  for (const block of blocks) {
    if (block.text === '') continue;
    if (previous) out += previous === 'list_item' && block.kind === 'list_item' ? '\n' : '\n\n';
    out += block.text;
    previous = block.kind;
  }
  return out;
}

/** The parse's `text`: its pages joined with a blank line. */
export function renderDocText(pages: string[]): string {
  return pages.join('\n\n');
}

export { columnLetters };
