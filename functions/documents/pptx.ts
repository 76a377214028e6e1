/**
 * PPTX reader: one page per slide, in presentation order (`ppt/presentation.xml`'s slide list), so
 * page N is slide N. A slide's text comes in reading order: its title first, then its shapes top to
 * bottom and, across a row, left to right (by their `a:off` positions, shapes inside groups placed
 * through the groups' transforms); tables (`a:tbl`) become the Doc's tables; the speaker notes follow,
 * under a "Speaker notes" heading.
 *
 * Where text sits: the API contract (§6.2) has no anchor for presentations, so words keep what a
 * slide does have, a place on it: a `box` origin with the slide number and the frame of the shape (or
 * table cell) holding the word, in points. Notes are not on the slide: their words point at the whole
 * slide. Words carry no box of their own, since where each word falls inside a shape is not known.
 *
 * PresentationML is read with PowerPoint's prefixes (`p:` slides, `a:` DrawingML, `r:` relationship
 * ids), which every writer we know uses. Charts, pictures and SmartArt are not read.
 */
import { ReadFailure, MAX_PAGES, type Box, type Cell, type Origin, type Page, type Table } from './doc.ts';
import { child, elements, textOf, XmlPackage, type XmlElement } from './ooxml.ts';
import { addTextLines, newPage } from './text.ts';

const PRESENTATION_PART = 'ppt/presentation.xml';
const EMU_PER_POINT = 12_700;
/** PowerPoint's default slide size (10 × 7.5 in), when the presentation does not state one. */
const DEFAULT_SLIDE_SIZE = { cx: 9_144_000, cy: 6_858_000 };
/** Shapes whose tops are this close (a share of the slide's height) are one row, read left to right. */
const ROW_TOLERANCE = 0.03;
/** Placeholders that only repeat what PowerPoint prints on every slide. */
const SKIPPED_PLACEHOLDERS = new Set(['sldNum', 'dt', 'sldImg', 'hdr']);
const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);

/** A rectangle in EMU (English Metric Units: 914,400 to the inch). */
interface Frame {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

const intAttr = (node: XmlElement | undefined, name: string) => Number(node?.attrs[name] ?? 0) || 0;

/** An `a:xfrm` (or `p:xfrm`) as a frame; undefined when the shape does not position itself. */
function frameOf(xfrm: XmlElement | undefined): Frame | undefined {
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  if (!off) return undefined;
  return { x: intAttr(off, 'x'), y: intAttr(off, 'y'), cx: intAttr(ext, 'cx'), cy: intAttr(ext, 'cy') };
}

/** Maps a frame in a group's child coordinates to slide coordinates. */
type Transform = (frame: Frame) => Frame;
const IDENTITY: Transform = (frame) => frame;

/** A group's transform: its children's space (`a:chOff`, `a:chExt`) scaled onto its own frame. */
function groupTransform(group: XmlElement, outer: Transform): Transform {
  const xfrm = child(child(group, 'p:grpSpPr'), 'a:xfrm');
  const own = frameOf(xfrm);
  if (!own) return outer;
  const childOff = child(xfrm, 'a:chOff');
  const childExt = child(xfrm, 'a:chExt');
  const scaleX = intAttr(childExt, 'cx') > 0 ? own.cx / intAttr(childExt, 'cx') : 1;
  const scaleY = intAttr(childExt, 'cy') > 0 ? own.cy / intAttr(childExt, 'cy') : 1;
  return (f) => outer({ x: own.x + (f.x - intAttr(childOff, 'x')) * scaleX, y: own.y + (f.y - intAttr(childOff, 'y')) * scaleY, cx: f.cx * scaleX, cy: f.cy * scaleY });
}

const toBox = (f: Frame): Box => ({ left: f.x / EMU_PER_POINT, top: f.y / EMU_PER_POINT, width: f.cx / EMU_PER_POINT, height: f.cy / EMU_PER_POINT });

// ---------------------------------------------------------------------------------------------
// Placeholders: a slide's title or body often states no position and inherits it from its layout,
// which may inherit it from the slide master.

interface Placeholder {
  type: string;
  idx: string | undefined;
}

function placeholderOf(shape: XmlElement): Placeholder | undefined {
  const ph = child(child(child(shape, 'p:nvSpPr'), 'p:nvPr'), 'p:ph');
  // A placeholder without a type is a content ("obj") placeholder.
  return ph ? { type: ph.attrs.type ?? 'obj', idx: ph.attrs.idx } : undefined;
}

/** The frames of a layout's or master's placeholders, by index and by type. */
interface PlaceholderFrames {
  byIdx: Map<string, Frame>;
  byType: Map<string, Frame>;
}

function placeholderFrames(part: XmlElement | undefined, root: string): PlaceholderFrames {
  const frames: PlaceholderFrames = { byIdx: new Map(), byType: new Map() };
  const tree = child(child(child(part, root), 'p:cSld'), 'p:spTree');
  for (const shape of tree ? elements(tree, 'p:sp') : []) {
    const placeholder = placeholderOf(shape);
    const frame = frameOf(child(child(shape, 'p:spPr'), 'a:xfrm'));
    if (!placeholder || !frame) continue;
    if (placeholder.idx !== undefined && !frames.byIdx.has(placeholder.idx)) frames.byIdx.set(placeholder.idx, frame);
    if (!frames.byType.has(placeholder.type)) frames.byType.set(placeholder.type, frame);
  }
  return frames;
}

/** The master calls a centred title "title" and every content placeholder "body". */
const MASTER_TYPE: Record<string, string> = { ctrTitle: 'title', subTitle: 'body', obj: 'body' };

function inheritedFrame(placeholder: Placeholder, layout: PlaceholderFrames, master: PlaceholderFrames): Frame | undefined {
  return (
    (placeholder.idx !== undefined ? layout.byIdx.get(placeholder.idx) : undefined) ??
    layout.byType.get(placeholder.type) ??
    master.byType.get(MASTER_TYPE[placeholder.type] ?? placeholder.type)
  );
}

// ---------------------------------------------------------------------------------------------
// Text

interface Paragraph {
  text: string;
  /** The printed marker of a bulleted or numbered paragraph ("-", "1."), or undefined. */
  marker: string | undefined;
}

/** A DrawingML paragraph's text: runs and fields (`a:fld`, e.g. a date) with `a:br` as a line break. */
function paragraphText(p: XmlElement): string {
  return elements(p)
    .map((item) => {
      if (item.name === 'a:r' || item.name === 'a:fld') return elements(item, 'a:t').map(textOf).join('');
      if (item.name === 'a:br') return '\n';
      return '';
    })
    .join('');
}

/** `a:buAutoNum` schemes: the number's look ("arabicPeriod" → "1.", "arabicParenR" → "1)"). */
function autoNumber(scheme: string, n: number): string {
  const number = scheme.startsWith('alphaLc') ? String.fromCharCode(96 + (((n - 1) % 26) + 1)) : scheme.startsWith('alphaUc') ? String.fromCharCode(64 + (((n - 1) % 26) + 1)) : String(n);
  if (scheme.endsWith('ParenBoth')) return `(${number})`;
  if (scheme.endsWith('ParenR')) return `${number})`;
  return `${number}.`;
}

/**
 * A text body's non-empty paragraphs. Content placeholders are bulleted unless a paragraph says
 * `a:buNone` (the master's body style bullets them); other shapes only where a paragraph asks for a
 * bullet (`a:buChar`) or a number (`a:buAutoNum`, counted within the shape).
 */
function paragraphsOf(txBody: XmlElement | undefined, bulletedByDefault: boolean): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let counter = 0;
  for (const p of txBody ? elements(txBody, 'a:p') : []) {
    const text = paragraphText(p);
    if (text.trim() === '') continue;
    const pPr = child(p, 'a:pPr');
    const autoNum = child(pPr, 'a:buAutoNum');
    let marker: string | undefined;
    if (autoNum) marker = autoNumber(autoNum.attrs.type ?? 'arabicPeriod', (counter = counter + 1) + Number(autoNum.attrs.startAt ?? 1) - 1);
    else if (child(pPr, 'a:buChar') || (bulletedByDefault && !child(pPr, 'a:buNone'))) marker = '-';
    paragraphs.push({ text, marker });
  }
  return paragraphs;
}

// ---------------------------------------------------------------------------------------------
// A slide's content, placed

type Item =
  | { kind: 'text'; frame: Frame | undefined; title: boolean; paragraphs: Paragraph[] }
  | { kind: 'table'; frame: Frame | undefined; table: XmlElement };

/** Text shapes and tables of a shape tree, groups included, in slide coordinates. */
function collectItems(tree: XmlElement, transform: Transform, layout: PlaceholderFrames, master: PlaceholderFrames, items: Item[]): void {
  for (const shape of elements(tree)) {
    if (shape.name === 'p:grpSp') {
      collectItems(shape, groupTransform(shape, transform), layout, master, items);
    } else if (shape.name === 'p:sp') {
      const placeholder = placeholderOf(shape);
      if (placeholder && SKIPPED_PLACEHOLDERS.has(placeholder.type)) continue;
      const own = frameOf(child(child(shape, 'p:spPr'), 'a:xfrm'));
      const frame = own ?? (placeholder ? inheritedFrame(placeholder, layout, master) : undefined);
      const title = placeholder !== undefined && TITLE_PLACEHOLDERS.has(placeholder.type);
      const bulleted = placeholder !== undefined && (placeholder.type === 'body' || placeholder.type === 'obj');
      const paragraphs = paragraphsOf(child(shape, 'p:txBody'), bulleted);
      if (paragraphs.length > 0) items.push({ kind: 'text', frame: frame && transform(frame), title, paragraphs });
    } else if (shape.name === 'p:graphicFrame') {
      const table = child(child(child(shape, 'a:graphic'), 'a:graphicData'), 'a:tbl');
      const frame = frameOf(child(shape, 'p:xfrm'));
      if (table) items.push({ kind: 'table', frame: frame && transform(frame), table });
    } else if (shape.name === 'mc:AlternateContent') {
      // Newer shape kinds come with a plain fallback; the choice is read when it has content.
      const choice = child(shape, 'mc:Choice');
      const fallback = child(shape, 'mc:Fallback');
      const before = items.length;
      if (choice) collectItems(choice, transform, layout, master, items);
      if (items.length === before && fallback) collectItems(fallback, transform, layout, master, items);
    }
  }
}

/**
 * Reading order: titles first (in slide order), then rows top to bottom, each row left to right. A
 * row is the shapes whose tops lie within ROW_TOLERANCE of the slide's height below the row's first
 * one; shapes with no known position keep their slide order, last.
 */
function readingOrder(items: Item[], slideHeight: number): Item[] {
  const titles = items.filter((item) => item.kind === 'text' && item.title);
  const placed = items.filter((item) => !titles.includes(item) && item.frame !== undefined).sort((a, b) => a.frame!.y - b.frame!.y || a.frame!.x - b.frame!.x);
  const unplaced = items.filter((item) => !titles.includes(item) && item.frame === undefined);
  const ordered: Item[] = [];
  for (let start = 0; start < placed.length; ) {
    let end = start + 1;
    while (end < placed.length && placed[end]!.frame!.y - placed[start]!.frame!.y <= ROW_TOLERANCE * slideHeight) end++;
    ordered.push(...placed.slice(start, end).sort((a, b) => a.frame!.x - b.frame!.x));
    start = end;
  }
  return [...titles, ...ordered, ...unplaced];
}

class SlideWriter {
  constructor(
    readonly page: Page,
    private readonly slideFrame: Frame,
  ) {}

  private originAt(frame: Frame | undefined): Origin {
    return { kind: 'box', page: this.page.number, box: toBox(frame ?? this.slideFrame) };
  }

  text(item: Extract<Item, { kind: 'text' }>): void {
    const origin = this.originAt(item.frame);
    if (item.title) {
      const text = item.paragraphs.map((p) => p.text).join('\n');
      const { lines } = addTextLines(this.page, text, () => origin);
      this.page.blocks.push({ kind: 'heading', level: 1, text: text.replace(/\s*\n\s*/g, ' ').trim(), lines });
      return;
    }
    this.paragraphs(item.paragraphs, origin);
  }

  paragraphs(paragraphs: Paragraph[], origin: Origin): void {
    for (const { text, marker } of paragraphs) {
      const { lines } = addTextLines(this.page, text, () => origin);
      if (marker !== undefined) this.page.blocks.push({ kind: 'list_item', text: `${marker} ${text.trim()}`, lines });
      else this.page.blocks.push({ kind: 'paragraph', text: text.trim(), lines });
    }
  }

  /** An `a:tbl`: grid columns (`a:gridCol w`) and row heights (`a:tr h`) give each cell its frame. */
  table(item: Extract<Item, { kind: 'table' }>): void {
    const { page } = this;
    const columnWidths = elements(child(item.table, 'a:tblGrid') ?? item.table, 'a:gridCol').map((c) => intAttr(c, 'w'));
    const rows = elements(item.table, 'a:tr');
    const rowHeights = rows.map((tr) => intAttr(tr, 'h'));
    const at = (list: number[], end: number) => list.slice(0, end).reduce((sum, n) => sum + n, 0);
    const cells: Cell[] = [];
    const lines: number[] = [];
    let columnCount = columnWidths.length;
    rows.forEach((tr, row) => {
      elements(tr, 'a:tc').forEach((tc, column) => {
        columnCount = Math.max(columnCount, column + 1);
        // Cells covered by a merge are written out too, flagged; their content is not shown.
        if (tc.attrs.hMerge === '1' || tc.attrs.vMerge === '1') return;
        const rowSpan = Math.max(1, Number(tc.attrs.rowSpan ?? 1) || 1);
        const columnSpan = Math.max(1, Number(tc.attrs.gridSpan ?? 1) || 1);
        const frame = item.frame && {
          x: item.frame.x + at(columnWidths, column),
          y: item.frame.y + at(rowHeights, row),
          cx: at(columnWidths, column + columnSpan) - at(columnWidths, column),
          cy: at(rowHeights, row + rowSpan) - at(rowHeights, row),
        };
        const text = paragraphsOf(child(tc, 'a:txBody'), false)
          .map((p) => p.text)
          .join('\n');
        const origin = this.originAt(frame ?? item.frame);
        const added = addTextLines(page, text, () => origin);
        lines.push(...added.lines);
        cells.push({ row, column, rowSpan, columnSpan, text: text.trim(), words: added.words });
      });
    });
    // Slots no cell covers (short rows) become empty cells, so the grid is whole.
    const covered = new Set<string>();
    for (const cell of cells) {
      for (let r = cell.row; r < cell.row + cell.rowSpan; r++) for (let c = cell.column; c < cell.column + cell.columnSpan; c++) covered.add(`${r},${c}`);
    }
    for (let row = 0; row < rows.length; row++) {
      for (let column = 0; column < columnCount; column++) if (!covered.has(`${row},${column}`)) cells.push({ row, column, rowSpan: 1, columnSpan: 1, text: '', words: [] });
    }
    cells.sort((a, b) => a.row - b.row || a.column - b.column);
    // PowerPoint's table styles set `firstRow` when the top row is a header (the default for new tables).
    const firstRow = child(item.table, 'a:tblPr')?.attrs.firstRow;
    const table: Table = { rowCount: rows.length, columnCount, headerRows: rows.length > 1 && (firstRow === '1' || firstRow === 'true') ? 1 : 0, cells };
    page.tables.push(table);
    const texts = Array.from({ length: table.rowCount }, () => Array<string>(columnCount).fill(''));
    for (const cell of cells) texts[cell.row]![cell.column] = cell.text.replace(/\n/g, ' ');
    page.blocks.push({ kind: 'table', text: texts.map((r) => r.join('\t')).join('\n'), lines, table: page.tables.length - 1 });
  }

  /** Speaker notes: the notes page's body placeholder, after the slide's own text. */
  notes(notes: XmlElement | undefined): void {
    const tree = child(child(child(notes, 'p:notes'), 'p:cSld'), 'p:spTree');
    const bodies = tree ? elements(tree, 'p:sp').filter((shape) => placeholderOf(shape)?.type === 'body') : [];
    const paragraphs = bodies.flatMap((shape) => paragraphsOf(child(shape, 'p:txBody'), false));
    if (paragraphs.length === 0) return;
    // The heading is ours, not the file's: it has no words to anchor.
    this.page.blocks.push({ kind: 'heading', level: 2, text: 'Speaker notes', lines: [] });
    this.paragraphs(paragraphs, this.originAt(undefined));
  }
}

/** The first relationship of a type, as a part name. */
function related(pkg: XmlPackage, part: string, type: string): string | undefined {
  for (const relationship of pkg.relationships(part).values()) if (relationship.type === type && !relationship.external) return relationship.target;
  return undefined;
}

/** The slides a parse would give pages for (from ppt/presentation.xml alone): for an upload's page_count. */
export function countSlides(bytes: Uint8Array): number {
  const pkg = new XmlPackage(bytes, 'PPTX file', Date.now() + 10_000);
  const presentation = child(pkg.part(PRESENTATION_PART), 'p:presentation');
  if (!presentation) throw new ReadFailure(`The ${pkg.what} is corrupt (it has no ${PRESENTATION_PART})`);
  return elements(child(presentation, 'p:sldIdLst') ?? presentation, 'p:sldId').length;
}

/** Reads a PPTX presentation: one page per slide, in presentation order. */
export async function readPptx(bytes: Uint8Array, options: { deadline: number }): Promise<Page[]> {
  const pkg = new XmlPackage(bytes, 'PPTX file', options.deadline);
  const { what } = pkg;
  const presentation = child(pkg.part(PRESENTATION_PART), 'p:presentation');
  if (!presentation) throw new ReadFailure(`The ${what} is corrupt (it has no ${PRESENTATION_PART})`);
  const size = child(presentation, 'p:sldSz');
  const slideFrame: Frame = { x: 0, y: 0, cx: intAttr(size, 'cx') || DEFAULT_SLIDE_SIZE.cx, cy: intAttr(size, 'cy') || DEFAULT_SLIDE_SIZE.cy };
  const relationships = pkg.relationships(PRESENTATION_PART);
  const slideIds = elements(child(presentation, 'p:sldIdLst') ?? presentation, 'p:sldId');
  if (slideIds.length > MAX_PAGES) throw new ReadFailure(`The ${what} has more than ${MAX_PAGES} slides`);

  // Layouts and masters are shared by many slides: their placeholder frames are read once each.
  const framesOf = new Map<string, PlaceholderFrames>();
  const frames = (part: string | undefined, root: string) => {
    if (part === undefined) return { byIdx: new Map(), byType: new Map() };
    if (!framesOf.has(part)) framesOf.set(part, placeholderFrames(pkg.part(part), root));
    return framesOf.get(part)!;
  };

  const pages: Page[] = [];
  for (const slideId of slideIds) {
    if (Date.now() > options.deadline) throw new ReadFailure(`Reading the ${what} took too long`, 'timeout');
    // A slide has a size, in points, so a box origin can be read as a share of it (API §6.2 bboxes).
    const page = newPage(pages.length + 1);
    page.width = slideFrame.cx / EMU_PER_POINT;
    page.height = slideFrame.cy / EMU_PER_POINT;
    page.unit = 'pt';
    pages.push(page);
    const relationship = relationships.get(slideId.attrs['r:id'] ?? '');
    const slidePart = relationship && !relationship.external ? relationship.target : undefined;
    const slide = slidePart ? child(pkg.part(slidePart), 'p:sld') : undefined;
    if (!slidePart || !slide) throw new ReadFailure(`The ${what} is corrupt (slide ${pages.length} is missing)`);

    const layoutPart = related(pkg, slidePart, 'slideLayout');
    const layout = frames(layoutPart, 'p:sldLayout');
    const master = frames(layoutPart && related(pkg, layoutPart, 'slideMaster'), 'p:sldMaster');
    const items: Item[] = [];
    const tree = child(child(slide, 'p:cSld'), 'p:spTree');
    if (tree) collectItems(tree, IDENTITY, layout, master, items);

    const writer = new SlideWriter(page, slideFrame);
    for (const item of readingOrder(items, slideFrame.cy)) {
      if (item.kind === 'text') writer.text(item);
      else writer.table(item);
    }
    const notesPart = related(pkg, slidePart, 'notesSlide');
    writer.notes(notesPart ? pkg.part(notesPart) : undefined);
  }
  return pages;
}
