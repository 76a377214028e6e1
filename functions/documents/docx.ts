/**
 * DOCX reader. Reads `word/document.xml` itself (not through mammoth) because provenance (API §6.2)
 * needs the body exactly as Word stores it: every body paragraph counted from 0 (empty ones, headings
 * and list items included; table paragraphs not), code-point offsets within each paragraph's text, and
 * tables by grid position. mammoth's HTML merges and drops paragraphs, so its output cannot be mapped
 * back to those indices; it also inflates the whole archive with no size limit.
 *
 * The archive is opened through ./ooxml.ts and ./zip.ts (shared with the XLSX and PPTX readers), so
 * declared sizes are checked before anything is inflated, and inflation itself is capped at the
 * declared size (a lying header cannot make us inflate more).
 *
 * Paragraph text: `w:t` text, `w:tab` → "\t", `w:br` / `w:cr` → "\n", `w:noBreakHyphen` → "-",
 * equations (`m:oMath`) as linear text ("x = (a + b) / 2"); deleted revisions and field instructions
 * are not text. Text boxes and shapes with text (DrawingML `wps:txbx`, VML `v:textbox`, each read
 * once although Word stores both) follow the paragraph they are anchored in; headers and footers are
 * placed where their section starts and ends (see placeHeadersFooters).
 * Pages split at `w:br w:type="page"`, `w:pageBreakBefore`, and section breaks that start a new page;
 * `w:lastRenderedPageBreak` only records where Word last happened to wrap, so it is ignored.
 */
import { MAX_PAGES, ReadFailure, type Cell, type Page, type Table } from './doc.ts';
import { child, elements, textOf, XmlPackage, type XmlElement } from './ooxml.ts';
import { addTextLines, codePointLength, newPage } from './text.ts';

// =============================================================================================
// WordprocessingML properties

function val(node: XmlElement | undefined): string | undefined {
  return node?.attrs['w:val'];
}

/** An on/off property (`<w:b/>`, `<w:b w:val="false"/>`). */
function isOn(node: XmlElement | undefined): boolean {
  if (!node) return false;
  const value = val(node);
  return value === undefined || !['0', 'false', 'off'].includes(value);
}

// =============================================================================================
// Styles and numbering

interface ParagraphStyle {
  name?: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
  pageBreakBefore?: boolean;
}

interface Styles {
  byId: Map<string, ParagraphStyle>;
  defaultId?: string;
}

function readStyles(xml: XmlElement | undefined): Styles {
  const styles: Styles = { byId: new Map() };
  const root = xml && child(xml, 'w:styles');
  if (!root) return styles;
  for (const style of elements(root, 'w:style')) {
    if (style.attrs['w:type'] !== 'paragraph') continue;
    const id = style.attrs['w:styleId'];
    if (id === undefined) continue;
    const pPr = child(style, 'w:pPr');
    const numPr = child(pPr, 'w:numPr');
    const outline = val(child(pPr, 'w:outlineLvl'));
    const pageBreak = child(pPr, 'w:pageBreakBefore');
    styles.byId.set(id, {
      name: val(child(style, 'w:name')),
      basedOn: val(child(style, 'w:basedOn')),
      outlineLevel: outline === undefined ? undefined : Number(outline),
      numId: val(child(numPr, 'w:numId')),
      ilvl: val(child(numPr, 'w:ilvl')) === undefined ? undefined : Number(val(child(numPr, 'w:ilvl'))),
      pageBreakBefore: pageBreak ? isOn(pageBreak) : undefined,
    });
    // The default paragraph style applies to paragraphs that name none.
    if (['1', 'true', 'on'].includes(style.attrs['w:default'] ?? '')) styles.defaultId = id;
  }
  return styles;
}

/** A style with what it inherits through `w:basedOn` filled in (nearest definition wins). */
function resolveStyle(styles: Styles, id: string | undefined): ParagraphStyle & { id?: string } {
  const resolved: ParagraphStyle & { id?: string } = { id };
  const seen = new Set<string>();
  for (let current = id; current !== undefined && !seen.has(current); ) {
    seen.add(current);
    const style = styles.byId.get(current);
    if (!style) break;
    resolved.name ??= style.name;
    resolved.outlineLevel ??= style.outlineLevel;
    resolved.numId ??= style.numId;
    resolved.ilvl ??= style.ilvl;
    resolved.pageBreakBefore ??= style.pageBreakBefore;
    current = style.basedOn;
  }
  return resolved;
}

interface Level {
  start: number;
  format: string;
  text: string;
}

interface Numbering {
  /** numId → abstractNumId and the levels whose start the instance overrides. */
  instances: Map<string, { abstractId: string; startOverrides: Map<number, number> }>;
  abstracts: Map<string, Map<number, Level>>;
}

function readNumbering(xml: XmlElement | undefined): Numbering {
  const numbering: Numbering = { instances: new Map(), abstracts: new Map() };
  const root = xml && child(xml, 'w:numbering');
  if (!root) return numbering;
  for (const abstract of elements(root, 'w:abstractNum')) {
    const levels = new Map<number, Level>();
    for (const lvl of elements(abstract, 'w:lvl')) {
      levels.set(Number(lvl.attrs['w:ilvl'] ?? 0), {
        start: Number(val(child(lvl, 'w:start')) ?? 1),
        format: val(child(lvl, 'w:numFmt')) ?? 'decimal',
        text: val(child(lvl, 'w:lvlText')) ?? '',
      });
    }
    numbering.abstracts.set(abstract.attrs['w:abstractNumId'] ?? '', levels);
  }
  for (const num of elements(root, 'w:num')) {
    const startOverrides = new Map<number, number>();
    for (const override of elements(num, 'w:lvlOverride')) {
      const start = val(child(override, 'w:startOverride'));
      if (start !== undefined) startOverrides.set(Number(override.attrs['w:ilvl'] ?? 0), Number(start));
    }
    numbering.instances.set(num.attrs['w:numId'] ?? '', { abstractId: val(child(num, 'w:abstractNumId')) ?? '', startOverrides });
  }
  return numbering;
}

function toRoman(n: number): string {
  const numerals: [number, string][] = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
  let out = '';
  for (const [value, numeral] of numerals) {
    while (n >= value) {
      out += numeral;
      n -= value;
    }
  }
  return out;
}

function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'lowerLetter':
      // Word goes a … z, aa … zz.
      return String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
    case 'upperLetter':
      return String.fromCharCode(65 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
    case 'lowerRoman':
      return toRoman(n);
    case 'upperRoman':
      return toRoman(n).toUpperCase();
    case 'decimalZero':
      return String(n).padStart(2, '0');
    case 'none':
      return '';
    default:
      return String(n);
  }
}

/** Computes list markers as Word prints them, keeping counters across the document. */
class ListCounter {
  /** abstractNumId → the current count at each level. */
  private readonly counts = new Map<string, number[]>();
  private readonly started = new Set<string>();

  constructor(private readonly numbering: Numbering) {}

  /** The printed marker ("1.", "a)", …), "-" for bullets and whatever cannot be determined. */
  marker(numId: string, ilvl: number): string {
    const instance = this.numbering.instances.get(numId);
    const levels = instance && this.numbering.abstracts.get(instance.abstractId);
    const level = levels?.get(ilvl);
    if (!instance || !levels || !level) return '-';
    const counts = this.counts.get(instance.abstractId) ?? [];
    this.counts.set(instance.abstractId, counts);
    if (!this.started.has(numId)) {
      // A list instance with a start override restarts its levels (how Word restarts numbering).
      this.started.add(numId);
      for (const [overridden, start] of instance.startOverrides) counts[overridden] = start - 1;
    }
    for (let k = 0; k < ilvl; k++) counts[k] ??= levels.get(k)?.start ?? 1;
    counts[ilvl] = counts[ilvl] === undefined ? level.start : counts[ilvl]! + 1;
    counts.length = ilvl + 1; // deeper levels restart after a shallower item
    if (level.format === 'bullet') return '-';
    const marker = level.text.replace(/%([1-9])/g, (_, n: string) => {
      const k = Number(n) - 1;
      return formatNumber(counts[k] ?? 1, levels.get(k)?.format ?? 'decimal');
    });
    return marker.trim() === '' ? '-' : marker.trim();
  }
}

// =============================================================================================
// Body

const PAGE_BREAK = Symbol('page break');
/** A text box (or a shape with text) anchored in a run: the text of each of its paragraphs. */
interface TextBox {
  paragraphs: string[];
}
type Piece = string | typeof PAGE_BREAK | TextBox;
const isTextBox = (piece: Piece): piece is TextBox => typeof piece === 'object';

/** Run-level containers whose content is displayed text. */
const INLINE_CONTAINERS = new Set(['w:hyperlink', 'w:ins', 'w:smartTag', 'w:customXml', 'w:fldSimple', 'w:bdo', 'w:dir', 'w:moveTo']);
/** Run content that draws something: DrawingML (`w:drawing`), VML (`w:pict`), OLE objects. */
const DRAWINGS = new Set(['w:drawing', 'w:pict', 'w:object']);

/**
 * The branch of an `mc:AlternateContent` to read: Word writes a shape twice, as DrawingML in
 * `mc:Choice` and as VML in `mc:Fallback`, so reading both would give its text twice. The choice is
 * read; the fallback only when the choice gave nothing (`read` returns how many pieces it added).
 */
function readAlternateContent(node: XmlElement, read: (branch: XmlElement) => number): void {
  const choice = child(node, 'mc:Choice');
  const fallback = child(node, 'mc:Fallback');
  if ((choice ? read(choice) : 0) === 0 && fallback) read(fallback);
}

/**
 * Text boxes drawn in `node`: DrawingML shapes (`wps:txbx`) and VML text boxes (`v:textbox`) both hold
 * their text in `w:txbxContent`; WordArt keeps its text in a `v:textpath` attribute.
 */
function collectTextBoxes(node: XmlElement, pieces: Piece[]): number {
  const before = pieces.length;
  for (const item of elements(node)) {
    if (item.name === 'w:txbxContent') {
      pieces.push({ paragraphs: blockParagraphs(item) });
    } else if (item.name === 'v:textpath' && item.attrs.string) {
      pieces.push({ paragraphs: [item.attrs.string] });
    } else if (item.name === 'mc:AlternateContent') {
      readAlternateContent(item, (branch) => collectTextBoxes(branch, pieces));
    } else {
      collectTextBoxes(item, pieces);
    }
  }
  return pieces.length - before;
}

function collectRunPieces(node: XmlElement, pieces: Piece[]): number {
  const before = pieces.length;
  for (const item of elements(node)) {
    if (item.name === 'w:r') {
      for (const part of elements(item)) {
        switch (part.name) {
          case 'w:t':
            pieces.push(textOf(part));
            break;
          case 'w:tab':
            pieces.push('\t');
            break;
          case 'w:br':
            pieces.push(part.attrs['w:type'] === 'page' ? PAGE_BREAK : '\n');
            break;
          case 'w:cr':
            pieces.push('\n');
            break;
          case 'w:noBreakHyphen':
            pieces.push('-');
            break;
          case 'mc:AlternateContent':
            readAlternateContent(part, (branch) => collectTextBoxes(branch, pieces));
            break;
          default:
            if (DRAWINGS.has(part.name)) collectTextBoxes(part, pieces);
        }
      }
    } else if (INLINE_CONTAINERS.has(item.name)) {
      collectRunPieces(item, pieces);
    } else if (item.name === 'w:sdt') {
      const content = child(item, 'w:sdtContent');
      if (content) collectRunPieces(content, pieces);
    } else if (item.name === 'mc:AlternateContent') {
      readAlternateContent(item, (branch) => collectRunPieces(branch, pieces));
    } else if (item.name === 'm:oMath') {
      pieces.push(mathText(item));
    } else if (item.name === 'm:oMathPara') {
      // A display equation (or several, one per line).
      pieces.push(elements(item, 'm:oMath').map(mathText).join('\n'));
    }
  }
  return pieces.length - before;
}

/** Block-level children, looking through content controls and custom XML wrappers. */
function blockChildren(node: XmlElement): XmlElement[] {
  return elements(node).flatMap((item) => {
    if (item.name === 'w:sdt') {
      const content = child(item, 'w:sdtContent');
      return content ? blockChildren(content) : [];
    }
    if (item.name === 'w:customXml') return blockChildren(item);
    return [item];
  });
}

/**
 * A paragraph's text with page breaks dropped (inside table cells they do not split pages), followed
 * by the paragraphs of the text boxes anchored in it, one per line: a paragraph's text as this reader
 * defines it wherever it is not a body paragraph (cells, text boxes, headers and footers).
 */
function paragraphText(p: XmlElement): string {
  const pieces: Piece[] = [];
  collectRunPieces(p, pieces);
  const own = pieces.filter((piece): piece is string => typeof piece === 'string').join('');
  return [own, ...pieces.filter(isTextBox).flatMap((box) => box.paragraphs)].join('\n');
}

/** The non-empty paragraph texts of a text box, header or footer (its tables' cells one per line). */
function blockParagraphs(container: XmlElement): string[] {
  return cellParagraphs(container).filter((text) => text.trim() !== '');
}

/** A table cell's text: its paragraphs (and those of nested tables) one per line. */
function cellParagraphs(container: XmlElement): string[] {
  return blockChildren(container).flatMap((item) => {
    if (item.name === 'w:p') return [paragraphText(item)];
    if (item.name === 'w:tbl') return tableRows(item).flatMap((tr) => tableCells(tr).flatMap(cellParagraphs));
    return [];
  });
}

// ---------------------------------------------------------------------------------------------
// Equations (OMML) as linear text: "x = (a + b) / 2", "x^2", "√(b^2 − 4ac)", "∑_(i = 1)^n i"

/** Operators written with a space on either side. */
const SPACED_OPERATORS = /\s*([=+\-−±∓×÷·<>≤≥≠≈≡∼→←⇒⇔∈∉⊂⊆∪∩])\s*/g;

/** A sub-expression wrapped in brackets when it is more than one term ("a + b" → "(a + b)"). */
function group(text: string): string {
  const trimmed = text.trim();
  return /[\s/^_]/.test(trimmed) && !/^\(.*\)$/.test(trimmed) ? `(${trimmed})` : trimmed;
}

/** The linear text of an OMML element's argument (`m:e`, `m:num`, …); '' when it is absent. */
function mathArg(node: XmlElement | undefined, name: string): string {
  const arg = child(node, name);
  return arg ? mathText(arg).trim() : '';
}

/** A property of an OMML element (`m:dPr/m:begChr/@m:val`), or the fallback when not set. */
function mathProp(node: XmlElement, props: string, name: string, fallback: string): string {
  return child(child(node, props), name)?.attrs['m:val'] ?? fallback;
}

function mathText(node: XmlElement): string {
  switch (node.name) {
    case 'm:r':
      return elements(node)
        .filter((e) => e.name === 'm:t' || e.name === 'w:t')
        .map((e) => textOf(e).replace(SPACED_OPERATORS, ' $1 '))
        .join('');
    case 'm:f':
      return ` ${group(mathArg(node, 'm:num'))} / ${group(mathArg(node, 'm:den'))} `;
    case 'm:sSup':
      return `${group(mathArg(node, 'm:e'))}^${group(mathArg(node, 'm:sup'))}`;
    case 'm:sSub':
      return `${group(mathArg(node, 'm:e'))}_${group(mathArg(node, 'm:sub'))}`;
    case 'm:sSubSup':
      return `${group(mathArg(node, 'm:e'))}_${group(mathArg(node, 'm:sub'))}^${group(mathArg(node, 'm:sup'))}`;
    case 'm:sPre':
      return `_${group(mathArg(node, 'm:sub'))}^${group(mathArg(node, 'm:sup'))}${group(mathArg(node, 'm:e'))}`;
    case 'm:rad': {
      const degree = mathArg(node, 'm:deg');
      return `${degree ? group(degree) : ''}√(${mathArg(node, 'm:e')})`;
    }
    case 'm:d': {
      const open = mathProp(node, 'm:dPr', 'm:begChr', '(');
      const close = mathProp(node, 'm:dPr', 'm:endChr', ')');
      const separator = mathProp(node, 'm:dPr', 'm:sepChr', '|');
      return `${open}${elements(node, 'm:e').map((e) => mathText(e).trim()).join(separator === ',' ? ', ' : ` ${separator} `)}${close}`;
    }
    case 'm:nary': {
      const operator = mathProp(node, 'm:naryPr', 'm:chr', '∫');
      const sub = mathArg(node, 'm:sub');
      const sup = mathArg(node, 'm:sup');
      return ` ${operator}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${mathArg(node, 'm:e')} `;
    }
    case 'm:func':
      return ` ${mathArg(node, 'm:fName')} ${mathArg(node, 'm:e')} `;
    case 'm:limLow':
      return `${mathArg(node, 'm:e')}_${group(mathArg(node, 'm:lim'))}`;
    case 'm:limUpp':
      return `${mathArg(node, 'm:e')}^${group(mathArg(node, 'm:lim'))}`;
    case 'm:eqArr':
      return elements(node, 'm:e').map((e) => mathText(e).trim()).join('; ');
    case 'm:m':
      return `[${elements(node, 'm:mr').map((row) => elements(row, 'm:e').map((e) => mathText(e).trim()).join(', ')).join('; ')}]`;
    default: {
      // Containers (m:oMath, m:e, m:num, accents, bars, boxes, …): their children, properties skipped.
      const text = elements(node)
        .filter((e) => !e.name.endsWith('Pr'))
        .map(mathText)
        .join('');
      return node.name === 'm:oMath' ? text.replace(/\s+/g, ' ').trim() : text;
    }
  }
}

const tableRows = (tbl: XmlElement) => blockChildren(tbl).filter((e) => e.name === 'w:tr');
const tableCells = (tr: XmlElement) => blockChildren(tr).filter((e) => e.name === 'w:tc');

function intAttr(node: XmlElement | undefined, fallback: number): number {
  const value = Number(val(node));
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

class DocxReader {
  readonly pages: Page[] = [];
  private page!: Page;
  /** Whether anything (even an empty paragraph) sits on the current page. */
  private pageUsed = false;
  private paragraphIndex = 0;
  private tableIndex = 0;
  private readonly lists: ListCounter;
  /** Sections in body order, with the pages they cover (for their headers and footers). */
  readonly sections: { properties: XmlElement; firstPage: number; lastPage: number }[] = [];
  /** The page index the current section starts on. */
  private sectionStart = 0;

  constructor(
    private readonly styles: Styles,
    numbering: Numbering,
    private readonly deadline: number,
  ) {
    this.lists = new ListCounter(numbering);
    this.startPage();
  }

  private startPage(): void {
    if (this.pages.length >= MAX_PAGES) throw new ReadFailure(`The DOCX file has more than ${MAX_PAGES} pages`);
    this.page = newPage(this.pages.length + 1);
    this.pages.push(this.page);
    this.pageUsed = false;
  }

  readBody(body: XmlElement): void {
    let count = 0;
    for (const item of blockChildren(body)) {
      if (++count % 256 === 0 && Date.now() > this.deadline) throw new ReadFailure('Reading the DOCX file took too long', 'timeout');
      if (item.name === 'w:p') this.paragraph(item);
      else if (item.name === 'w:tbl') this.table(item);
    }
  }

  private headingLevel(pPr: XmlElement | undefined, style: ReturnType<typeof resolveStyle>): number | undefined {
    const outline = val(child(pPr, 'w:outlineLvl'));
    const name = (style.name ?? '').toLowerCase();
    const byName = /^heading\s*([1-9])$/.exec(name) ?? /^heading\s*([1-9])$/i.exec(style.id ?? '');
    if (byName) return Math.min(6, Number(byName[1]));
    if (name === 'title' || /^title$/i.test(style.id ?? '')) return 1;
    // Outline levels 0–8 are heading levels 1–9; 9 is body text.
    const level = outline !== undefined ? Number(outline) : style.outlineLevel;
    return level !== undefined && level >= 0 && level < 9 ? Math.min(6, level + 1) : undefined;
  }

  private paragraph(p: XmlElement): void {
    const index = this.paragraphIndex++;
    const pPr = child(p, 'w:pPr');
    const style = resolveStyle(this.styles, val(child(pPr, 'w:pStyle')) ?? this.styles.defaultId);
    const pageBreakBefore = child(pPr, 'w:pageBreakBefore') ? isOn(child(pPr, 'w:pageBreakBefore')) : (style.pageBreakBefore ?? false);
    if (pageBreakBefore && this.pageUsed) this.startPage();

    const numPr = child(pPr, 'w:numPr');
    const numId = val(child(numPr, 'w:numId')) ?? style.numId;
    const ilvl = intAttr(child(numPr, 'w:ilvl'), style.ilvl ?? 0);
    // numId 0 explicitly removes numbering a style would give.
    const marker = numId !== undefined && numId !== '0' ? this.lists.marker(numId, ilvl) : undefined;
    const level = this.headingLevel(pPr, style);

    const pieces: Piece[] = [];
    collectRunPieces(p, pieces);
    // Split into the parts on each page; offsets run on across a page break (one paragraph).
    const parts: { text: string; start: number }[] = [{ text: '', start: 0 }];
    const boxes: TextBox[] = [];
    let offset = 0;
    for (const piece of pieces) {
      if (piece === PAGE_BREAK) {
        parts.push({ text: '', start: offset });
      } else if (isTextBox(piece)) {
        boxes.push(piece);
      } else {
        parts[parts.length - 1]!.text += piece;
        offset += codePointLength(piece);
      }
    }
    parts.forEach((part, i) => {
      if (i > 0) this.startPage();
      this.pageUsed = true;
      if (part.text.trim() === '') return;
      const { lines } = addTextLines(this.page, part.text, (start, end) => ({
        kind: 'docx_paragraph',
        paragraph: index,
        charStart: part.start + start,
        charEnd: part.start + end,
      }));
      const text = part.text.trim();
      if (i === 0 && level !== undefined) {
        const numbered = marker !== undefined && marker !== '-' ? `${marker} ` : '';
        this.page.blocks.push({ kind: 'heading', level, text: numbered + text, lines });
      } else if (i === 0 && marker !== undefined) {
        this.page.blocks.push({ kind: 'list_item', text: `${marker} ${text}`, lines });
      } else {
        this.page.blocks.push({ kind: 'paragraph', text, lines });
      }
    });

    // Text boxes anchored here follow the paragraph, each of their paragraphs a block of its own. They
    // are not body paragraphs (API §6.2 counts those), so their words point into this paragraph's
    // text, extended past its own text by one line per text-box paragraph ("own\nbox 1\nbox 2").
    for (const text of boxes.flatMap((box) => box.paragraphs)) {
      const start = offset + 1;
      offset = start + codePointLength(text);
      if (text.trim() === '') continue;
      const { lines } = addTextLines(this.page, text, (from, to) => ({ kind: 'docx_paragraph', paragraph: index, charStart: start + from, charEnd: start + to }));
      this.page.blocks.push({ kind: 'paragraph', text: text.trim(), lines });
    }

    // A section break ends the page unless the next section is continuous.
    const section = child(pPr, 'w:sectPr');
    if (section) this.endSection(section);
    if (section && val(child(section, 'w:type')) !== 'continuous') this.startPage();
    if (section) this.sectionStart = this.pages.length - 1;
  }

  /** Ends the current section on the current page; the body's own `w:sectPr` ends the last one. */
  endSection(properties: XmlElement): void {
    this.sections.push({ properties, firstPage: this.sectionStart, lastPage: this.pages.length - 1 });
  }

  private table(tbl: XmlElement): void {
    const index = this.tableIndex++;
    this.pageUsed = true;
    const page = this.page;
    const grid = child(tbl, 'w:tblGrid');
    const rows = tableRows(tbl);
    const cells: Cell[] = [];
    const lines: number[] = [];
    /** Grid column → the cell a vertical merge (`w:vMerge`) is extending downwards. */
    let open = new Map<number, Cell>();
    let columnCount = grid ? elements(grid, 'w:gridCol').length : 0;
    rows.forEach((tr, row) => {
      const trPr = child(tr, 'w:trPr');
      let column = intAttr(child(trPr, 'w:gridBefore'), 0);
      const stillOpen = new Map<number, Cell>();
      for (const tc of tableCells(tr)) {
        const tcPr = child(tc, 'w:tcPr');
        const span = Math.max(1, intAttr(child(tcPr, 'w:gridSpan'), 1));
        const vMerge = child(tcPr, 'w:vMerge');
        const above = open.get(column);
        if (vMerge && val(vMerge) !== 'restart' && above) {
          // A continuation cell: the cell above grows; its own (normally empty) content is dropped.
          above.rowSpan = row - above.row + 1;
          stillOpen.set(column, above);
        } else {
          const text = cellParagraphs(tc).join('\n');
          const added = addTextLines(page, text, (start, end) => ({ kind: 'docx_cell', table: index, row, column, charStart: start, charEnd: end }));
          lines.push(...added.lines);
          const cell: Cell = { row, column, rowSpan: 1, columnSpan: span, text: text.trim(), words: added.words };
          cells.push(cell);
          if (vMerge) stillOpen.set(column, cell);
        }
        column += span;
      }
      open = stillOpen;
      columnCount = Math.max(columnCount, column + intAttr(child(trPr, 'w:gridAfter'), 0));
    });

    // Grid slots no cell covers (short rows, gridBefore/After) become empty cells: the grid is whole.
    const covered = rows.map(() => Array<boolean>(columnCount).fill(false));
    for (const cell of cells) {
      for (let r = cell.row; r < cell.row + cell.rowSpan; r++) {
        for (let c = cell.column; c < Math.min(columnCount, cell.column + cell.columnSpan); c++) covered[r]![c] = true;
      }
    }
    covered.forEach((slots, row) =>
      slots.forEach((isCovered, column) => {
        if (!isCovered) cells.push({ row, column, rowSpan: 1, columnSpan: 1, text: '', words: [] });
      }),
    );
    cells.sort((a, b) => a.row - b.row || a.column - b.column);

    const table: Table = { rowCount: rows.length, columnCount, headerRows: headerRowCount(tbl, rows), cells };
    page.tables.push(table);
    const texts = Array.from({ length: table.rowCount }, () => Array<string>(columnCount).fill(''));
    for (const cell of cells) texts[cell.row]![cell.column] = cell.text.replace(/\n/g, ' ');
    page.blocks.push({ kind: 'table', text: texts.map((r) => r.join('\t')).join('\n'), lines, table: page.tables.length - 1 });
  }
}

/**
 * Header rows: the leading rows marked "repeat as header row" (`w:tblHeader`); otherwise the first row
 * when the table style's first-row formatting is on (`w:tblLook` firstRow, what Word sets for tables
 * with a header), as pandoc does.
 */
function headerRowCount(tbl: XmlElement, rows: XmlElement[]): number {
  let marked = 0;
  while (marked < rows.length && isOn(child(child(rows[marked], 'w:trPr'), 'w:tblHeader'))) marked++;
  if (marked > 0) return marked;
  const look = child(child(tbl, 'w:tblPr'), 'w:tblLook');
  if (!look || rows.length < 2) return 0;
  const firstRow = look.attrs['w:firstRow'];
  if (firstRow !== undefined) return firstRow === '1' || firstRow === 'true' ? 1 : 0;
  // Older files encode the flags as a hex bitmask; 0x0020 is "first row".
  const mask = parseInt(look.attrs['w:val'] ?? '0', 16);
  return Number.isNaN(mask) || (mask & 0x20) === 0 ? 0 : 1;
}

// =============================================================================================

const DOCUMENT_PART = 'word/document.xml';
const STYLES_PART = 'word/styles.xml';
const NUMBERING_PART = 'word/numbering.xml';

/**
 * Headers and footers, placed once where their section starts (headers) and ends (footers): Word
 * prints them on every page, but repeating them on every page would repeat their text in the parse.
 * A part whose text was already placed is not placed again. They are not body paragraphs, and the
 * contract (API §6.2) has no anchor for them, so their blocks have text but no words to point at.
 */
function placeHeadersFooters(reader: DocxReader, pkg: XmlPackage): void {
  const relationships = pkg.relationships(DOCUMENT_PART);
  const placed = new Set<string>();
  const partText = (reference: XmlElement, root: string): string => {
    const relationship = relationships.get(reference.attrs['r:id'] ?? '');
    const part = relationship && !relationship.external ? child(pkg.part(relationship.target), root) : undefined;
    const text = part ? blockParagraphs(part).join('\n').trim() : '';
    if (text === '' || placed.has(text)) return '';
    placed.add(text);
    return text;
  };
  // The first-page variant prints only when the section asks for a distinct first page (w:titlePg).
  const ORDER = ['first', 'default', 'even'];
  const references = (properties: XmlElement, name: string) =>
    elements(properties, name)
      .filter((r) => r.attrs['w:type'] !== 'first' || isOn(child(properties, 'w:titlePg')))
      .sort((a, b) => ORDER.indexOf(a.attrs['w:type'] ?? 'default') - ORDER.indexOf(b.attrs['w:type'] ?? 'default'));
  for (const section of reader.sections) {
    const headers = references(section.properties, 'w:headerReference').map((r) => partText(r, 'w:hdr'));
    const footers = references(section.properties, 'w:footerReference').map((r) => partText(r, 'w:ftr'));
    const block = (text: string) => ({ kind: 'paragraph' as const, text, lines: [] });
    reader.pages[section.firstPage]!.blocks.unshift(...headers.filter((t) => t !== '').map(block));
    reader.pages[section.lastPage]!.blocks.push(...footers.filter((t) => t !== '').map(block));
  }
}

/** Reads a DOCX file: one page per hard page break (or one page). */
export async function readDocx(bytes: Uint8Array, options: { deadline: number }): Promise<Page[]> {
  const pkg = new XmlPackage(bytes, 'DOCX file', options.deadline);
  const { what } = pkg;
  if (!pkg.has(DOCUMENT_PART)) throw new ReadFailure(`The ${what} is corrupt (it has no ${DOCUMENT_PART})`);
  // The main parts are checked together before any is inflated; images and other media never are.
  pkg.check([DOCUMENT_PART, STYLES_PART, NUMBERING_PART]);
  const document = pkg.part(DOCUMENT_PART)!;
  const styles = readStyles(pkg.part(STYLES_PART));
  const numbering = readNumbering(pkg.part(NUMBERING_PART));
  const body = child(child(document, 'w:document'), 'w:body');
  if (!body) throw new ReadFailure(`The ${what} is corrupt (${DOCUMENT_PART} has no body)`);

  const reader = new DocxReader(styles, numbering, options.deadline);
  reader.readBody(body);
  const finalSection = child(body, 'w:sectPr');
  if (finalSection) reader.endSection(finalSection);
  placeHeadersFooters(reader, pkg);
  return reader.pages;
}
