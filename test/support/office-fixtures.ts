/**
 * Office test documents built in memory: minimal DOCX and PPTX packages written by hand with jszip (no
 * generator for them is installed), workbooks by exceljs with parts rewritten where it cannot write
 * them, and raw ZIP surgery for decompression-bomb cases.
 */
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;

const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A run of text (spaces preserved). */
export const run = (text: string) => `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;

/** A paragraph; `props` is inner `w:pPr` XML, `content` runs (strings become runs). */
export function para(content: string | string[], props = ''): string {
  const runs = (Array.isArray(content) ? content : [content]).map((c) => (c.startsWith('<') ? c : run(c))).join('');
  return `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}${runs}</w:p>`;
}

export const heading = (level: number, text: string) => para(text, `<w:pStyle w:val="Heading${level}"/>`);
export const listPara = (numId: number, text: string, ilvl = 0) => para(text, `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>`);
export const PAGE_BREAK_RUN = '<w:r><w:br w:type="page"/></w:r>';

/** A table cell: `text` paragraphs, plus optional `w:tcPr` XML (gridSpan, vMerge). */
export function tc(text: string | string[], props = ''): string {
  const paragraphs = (Array.isArray(text) ? text : [text]).map((t) => para(t)).join('');
  return `<w:tc>${props ? `<w:tcPr>${props}</w:tcPr>` : ''}${paragraphs}</w:tc>`;
}

export function tr(cells: string[], header = false): string {
  return `<w:tr>${header ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cells.join('')}</w:tr>`;
}

export function tbl(columns: number, rows: string[]): string {
  const grid = `<w:tblGrid>${'<w:gridCol w:w="2000"/>'.repeat(columns)}</w:tblGrid>`;
  return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>${grid}${rows.join('')}</w:tbl>`;
}

/** numbering.xml with numId 1 = bullets and numId 2 = "1." / "a)" decimal numbering. */
export const NUMBERING_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="${W}">
<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="1">
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
</w:numbering>`;

// ---------------------------------------------------------------------------------------------
// Drawings in DOCX: text boxes, shapes and groups as Word 2010+ writes them (DrawingML in mc:Choice,
// the same shape again as VML in mc:Fallback), VML-only text boxes (older files), equations (OMML)

/** Namespaces Word declares on the root of its parts. */
const WORD_ROOT_NAMESPACES = [
  `xmlns:w="${W}"`,
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
  'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"',
  'xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"',
  'xmlns:v="urn:schemas-microsoft-com:vml"',
  'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"',
  'mc:Ignorable="wps wpg"',
].join(' ');

const txbxContent = (paragraphs: string[]) => `<w:txbxContent>${paragraphs.map((p) => para(p)).join('')}</w:txbxContent>`;
const wordShape = (paragraphs: string[]) => `<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr/><wps:txbx>${txbxContent(paragraphs)}</wps:txbx><wps:bodyPr/></wps:wsp>`;
const vmlTextBox = (paragraphs: string[]) => `<v:shape type="#_x0000_t202" style="position:absolute;width:150pt;height:60pt"><v:textbox>${txbxContent(paragraphs)}</v:textbox></v:shape>`;
const anchored = (uri: string, content: string) =>
  `<w:drawing><wp:anchor behindDoc="0" simplePos="0"><wp:simplePos x="0" y="0"/><wp:extent cx="1905000" cy="762000"/><wp:docPr id="1" name="Shape"/><a:graphic><a:graphicData uri="${uri}">${content}</a:graphicData></a:graphic></wp:anchor></w:drawing>`;

/** A run holding a text box as Word writes it: the DrawingML shape, and the same text again as VML fallback. */
export function textBoxRun(paragraphs: string[]): string {
  const choice = anchored('http://schemas.microsoft.com/office/word/2010/wordprocessingShape', wordShape(paragraphs));
  return `<w:r><mc:AlternateContent><mc:Choice Requires="wps">${choice}</mc:Choice><mc:Fallback><w:pict>${vmlTextBox(paragraphs)}</w:pict></mc:Fallback></mc:AlternateContent></w:r>`;
}

/** A run holding a group of shapes with text (each shape's paragraphs), with its VML fallback. */
export function shapeGroupRun(shapes: string[][]): string {
  const group = `<wpg:wgp><wpg:cNvGrpSpPr/><wpg:grpSpPr/>${shapes.map(wordShape).join('')}</wpg:wgp>`;
  const choice = anchored('http://schemas.microsoft.com/office/word/2010/wordprocessingGroup', group);
  const fallback = `<w:pict><v:group>${shapes.map(vmlTextBox).join('')}</v:group></w:pict>`;
  return `<w:r><mc:AlternateContent><mc:Choice Requires="wpg">${choice}</mc:Choice><mc:Fallback>${fallback}</mc:Fallback></mc:AlternateContent></w:r>`;
}

/** A run holding a VML text box alone, as files from before Word 2010 have them. */
export const vmlTextBoxRun = (paragraphs: string[]) => `<w:r><w:pict>${vmlTextBox(paragraphs)}</w:pict></w:r>`;

/** OMML: a math run, a fraction, a superscript, a radical; `equation` wraps them as an inline m:oMath. */
export const mr = (text: string) => `<m:r><m:t>${escapeXml(text)}</m:t></m:r>`;
export const frac = (num: string, den: string) => `<m:f><m:num>${num}</m:num><m:den>${den}</m:den></m:f>`;
export const sup = (base: string, exponent: string) => `<m:sSup><m:e>${base}</m:e><m:sup>${exponent}</m:sup></m:sSup>`;
export const sqrt = (content: string) => `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${content}</m:e></m:rad>`;
export const equation = (content: string) => `<m:oMath>${content}</m:oMath>`;
/** A display equation: a paragraph of its own. */
export const equationPara = (content: string) => `<w:p><m:oMathPara><m:oMath>${content}</m:oMath></m:oMathPara></w:p>`;

export interface DocxParts {
  /** The children of `w:body`. */
  body: string;
  styles?: string;
  numbering?: string;
  /** Default header and footer: paragraphs XML of `word/header1.xml` and `word/footer1.xml`. */
  header?: string;
  footer?: string;
  /** Further parts by path (e.g. media). */
  extra?: Record<string, string | Uint8Array>;
}

/** `w:document`; `sectionProperties` is the inner XML of the body's final `w:sectPr`. */
export function documentXml(body: string, sectionProperties = ''): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${WORD_ROOT_NAMESPACES}><w:body>${body}<w:sectPr>${sectionProperties}</w:sectPr></w:body></w:document>`;
}

const RELATIONSHIP_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export async function buildDocx(parts: DocxParts): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', ROOT_RELS);
  const relationships: string[] = [];
  let sectionProperties = '';
  for (const [kind, root, xml] of [['header', 'w:hdr', parts.header], ['footer', 'w:ftr', parts.footer]] as const) {
    if (xml === undefined) continue;
    zip.file(`word/${kind}1.xml`, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${root} ${WORD_ROOT_NAMESPACES}>${xml}</${root}>`);
    relationships.push(`<Relationship Id="rId${kind}" Type="${RELATIONSHIP_TYPE}/${kind}" Target="${kind}1.xml"/>`);
    sectionProperties += `<w:${kind}Reference w:type="default" r:id="rId${kind}"/>`;
  }
  if (relationships.length > 0) {
    zip.file('word/_rels/document.xml.rels', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships.join('')}</Relationships>`);
  }
  zip.file('word/document.xml', documentXml(parts.body, sectionProperties));
  if (parts.styles) zip.file('word/styles.xml', parts.styles);
  if (parts.numbering) zip.file('word/numbering.xml', parts.numbering);
  for (const [path, data] of Object.entries(parts.extra ?? {})) zip.file(path, data);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * Rewrites the uncompressed size an archive declares for `name` (central directory and local header),
 * leaving the data as it is: a lying header.
 */
export function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const nameBytes = Buffer.from(name, 'utf8');
  let patched = 0;
  for (let at = 0; at + 46 <= out.length; at++) {
    const signature = out.readUInt32LE(at);
    if (signature === 0x02014b50 && out.subarray(at + 46, at + 46 + nameBytes.length).equals(nameBytes) && out.readUInt16LE(at + 28) === nameBytes.length) {
      out.writeUInt32LE(size, at + 24);
      patched++;
    } else if (signature === 0x04034b50 && out.subarray(at + 30, at + 30 + nameBytes.length).equals(nameBytes) && out.readUInt16LE(at + 26) === nameBytes.length) {
      out.writeUInt32LE(size, at + 22);
      patched++;
    }
  }
  if (patched !== 2) throw new Error(`declareSize: found ${patched} headers for ${name}, expected 2`);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A ZIP archive written byte by byte (jszip would take seconds to deflate hundreds of megabytes):
 * each entry is deflated with zlib at level 9, or given pre-deflated with its sizes.
 */
export function zipArchive(entries: { name: string; data?: Buffer; deflated?: { data: Buffer; size: number; crc?: number } }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = entry.deflated?.data ?? deflateRawSync(entry.data!, { level: 9 });
    const size = entry.deflated?.size ?? entry.data!.length;
    const crc = entry.deflated ? (entry.deflated.crc ?? 0) : crc32(entry.data!);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---------------------------------------------------------------------------------------------
// Measuring: how many of the words written into a fixture a reader gives back

/** Words of a text, as a reader would count them (whitespace-separated, outer punctuation dropped). */
export function wordsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w !== '');
}

/** Of the words written, how many were read (each read word counts once): `{ read, written }`. */
export function wordRecall(written: string[], readText: string): { read: number; written: number } {
  const available = new Map<string, number>();
  for (const word of wordsOf(readText)) available.set(word, (available.get(word) ?? 0) + 1);
  let read = 0;
  for (const word of wordsOf(written.join(' '))) {
    const left = available.get(word) ?? 0;
    if (left > 0) {
      read++;
      available.set(word, left - 1);
    }
  }
  return { read, written: wordsOf(written.join(' ')).length };
}

/**
 * A one-page flyer laid out in text boxes, as the issue's document was: a header and footer, body
 * paragraphs that anchor a text box, a group of two shapes and a VML-only box, an inline and a display
 * equation. `written` is every text it holds, equations in the linear form a reader should give.
 */
export async function textBoxFlyer(): Promise<{ bytes: Buffer; written: string[] }> {
  const written = {
    header: 'Northwind Community Centre: Spring Programme',
    footer: 'Call 555-0142 to register',
    intro: 'Welcome to the spring term.',
    yoga: ['Yoga for beginners', 'Tuesdays at 7 pm in Hall B with Maria.'],
    pottery: ['Pottery', 'Wheel throwing, all materials included.'],
    chess: ['Chess club', 'Fridays from 6 pm; boards provided.'],
    fees: ['Fees are due by 15 March.'],
    area: 'Each table has area',
    areaMath: 'A = πr^2',
    mean: 'x = (a + b) / 2',
    closing: 'Doors open at 9 am.',
  };
  const body = [
    para([run(written.intro), textBoxRun(written.yoga)]), // paragraph 0 anchors the yoga box
    `<w:p>${shapeGroupRun([written.pottery, written.chess])}</w:p>`, // 1: only a group of shapes
    `<w:p>${vmlTextBoxRun(written.fees)}</w:p>`, // 2: an old-style VML box
    `<w:p>${run(`${written.area} `)}${equation(mr('A=π') + sup(mr('r'), mr('2')))}</w:p>`, // 3
    equationPara(mr('x=') + frac(mr('a+b'), mr('2'))), // 4
    para(written.closing), // 5
  ].join('');
  const bytes = await buildDocx({ body, header: para(written.header), footer: para(written.footer) });
  return { bytes, written: Object.values(written).flat() };
}

/** Replaces (or adds) parts of an OOXML package. */
export async function withParts(bytes: Uint8Array, parts: Record<string, string>): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes);
  for (const [name, content] of Object.entries(parts)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * A workbook of two named sheets with cell comments: a plain note by a named author on Budget!C3, and
 * on Staff!B2 a threaded comment as Excel writes it for older readers (a notice, then "Comment:" and
 * "Reply:" sections). `written` is every sheet name, value and comment text it holds.
 */
export async function annotatedWorkbook(): Promise<{ bytes: Buffer; written: string[] }> {
  const workbook = new ExcelJS.Workbook();
  const budget = workbook.addWorksheet('Budget 2025');
  budget.addRows([['Line', 'Owner', 'Amount'], ['Travel', 'Dana', 1200], ['Hardware', 'Lee', 5400]]);
  budget.getCell('C3').note = 'placeholder';
  const staff = workbook.addWorksheet('Staff');
  staff.addRows([['Name', 'Role'], ['Dana Whitfield', 'Engineer']]);
  staff.getCell('B2').note = 'placeholder';
  const notice =
    'Your version of Excel allows you to read this threaded comment; however, any edits to it will get removed if the file is opened in a newer version of Excel. Learn more: https://go.microsoft.com/fwlink/?linkid=870924';
  const comments = (author: string, text: string, ref: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>${author}</author></authors><commentList><comment ref="${ref}" authorId="0"><text>${text}</text></comment></commentList></comments>`;
  const bytes = await withParts(Buffer.from(await workbook.xlsx.writeBuffer()), {
    'xl/comments1.xml': comments('Priya Natarajan', '<r><rPr><b/></rPr><t>Priya Natarajan:</t></r><r><t xml:space="preserve">\nIncludes two laptops ordered in March.</t></r>', 'C3'),
    'xl/comments2.xml': comments('tc={6A0E}', `<t>[Threaded comment]\n\n${notice}\n\nComment:\n    Promoted to senior engineer in April.\nReply:\n    Confirmed by HR.</t>`, 'B2'),
  });
  const written = ['Budget 2025', 'Line Owner Amount Travel Dana 1200 Hardware Lee 5400', 'Priya Natarajan: Includes two laptops ordered in March.'];
  written.push('Staff', 'Name Role Dana Whitfield Engineer', 'Promoted to senior engineer in April.', 'Confirmed by HR.');
  return { bytes, written };
}

// ---------------------------------------------------------------------------------------------
// PPTX: presentations written part by part, as PowerPoint lays them out (positions in points here,
// EMU in the file: 12,700 to the point)

const PML = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const DML = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const OFFICE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const PML_ROOT_NAMESPACES = `xmlns:a="${DML}" xmlns:r="${OFFICE_RELATIONSHIPS}" xmlns:p="${PML}"`;
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const emu = (points: number) => Math.round(points * 12_700);

/** A position and size on the slide, in points. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const xfrm = (r: Rect, tag = 'a:xfrm') => `<${tag}><a:off x="${emu(r.x)}" y="${emu(r.y)}"/><a:ext cx="${emu(r.width)}" cy="${emu(r.height)}"/></${tag}>`;

/** A DrawingML paragraph; `props` is inner `a:pPr` XML (`<a:buNone/>`, `<a:buChar char="•"/>`). Lines split at "\n" (`a:br`). */
export function aPara(text: string, props = ''): string {
  const runs = text
    .split('\n')
    .map((line) => `<a:r><a:rPr lang="en-US"/><a:t>${escapeXml(line)}</a:t></a:r>`)
    .join('<a:br/>');
  return `<a:p>${props ? `<a:pPr>${props}</a:pPr>` : ''}${runs}</a:p>`;
}

const txBody = (paragraphs: string[]) => `<p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs.map((p) => (p.startsWith('<a:p>') ? p : aPara(p))).join('')}</p:txBody>`;
let shapeId = 100;

/** A placeholder shape (`title`, `body`, `ctrTitle`, `subTitle`, `sldNum`, …) with no position of its own: it inherits its layout's. */
export function placeholder(type: string, paragraphs: string[], idx?: number): string {
  const ph = `<p:ph${type === 'obj' ? '' : ` type="${type}"`}${idx === undefined ? '' : ` idx="${idx}"`}/>`;
  return `<p:sp><p:nvSpPr><p:cNvPr id="${shapeId++}" name="${type}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr/>${txBody(paragraphs)}</p:sp>`;
}

/** A text box at `rect`. */
export function textShape(rect: Rect, paragraphs: string[]): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="${shapeId++}" name="TextBox"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(rect)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>${txBody(paragraphs)}</p:sp>`;
}

/** A group at `rect` whose children are laid out in a `childSpace` scaled onto it. */
export function groupShape(rect: Rect, childSpace: Rect, shapes: string[]): string {
  const groupXfrm = `<a:xfrm><a:off x="${emu(rect.x)}" y="${emu(rect.y)}"/><a:ext cx="${emu(rect.width)}" cy="${emu(rect.height)}"/><a:chOff x="${emu(childSpace.x)}" y="${emu(childSpace.y)}"/><a:chExt cx="${emu(childSpace.width)}" cy="${emu(childSpace.height)}"/></a:xfrm>`;
  return `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${shapeId++}" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr>${groupXfrm}</p:grpSpPr>${shapes.join('')}</p:grpSp>`;
}

/** A table at `rect`: equal columns and rows, the first row marked as header; a cell `null` is covered by the merge to its left. */
export function tableFrame(rect: Rect, rows: (string | null)[][]): string {
  const columns = Math.max(...rows.map((r) => r.length));
  const grid = `<a:tblGrid>${`<a:gridCol w="${emu(rect.width / columns)}"/>`.repeat(columns)}</a:tblGrid>`;
  const cell = (text: string | null, span: number) =>
    text === null ? `<a:tc hMerge="1">${txBody([''])}</a:tc>`.replace(/p:txBody/g, 'a:txBody') : `<a:tc${span > 1 ? ` gridSpan="${span}"` : ''}>${txBody([text]).replace(/p:txBody/g, 'a:txBody')}<a:tcPr/></a:tc>`;
  const tableRows = rows
    .map((row) => {
      const cells = row.map((text, c) => {
        let span = 1;
        while (text !== null && row[c + span] === null) span++;
        return cell(text, span);
      });
      return `<a:tr h="${emu(rect.height / rows.length)}">${cells.join('')}</a:tr>`;
    })
    .join('');
  const table = `<a:tbl><a:tblPr firstRow="1" bandRow="1"/>${grid}${tableRows}</a:tbl>`;
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${shapeId++}" name="Table"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>${xfrm(rect, 'p:xfrm')}<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">${table}</a:graphicData></a:graphic></p:graphicFrame>`;
}

/** A chart frame (its chart part and embedded workbook are added when a slide has `chart`). */
export function chartFrame(rect: Rect): string {
  const chart = `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/>`;
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${shapeId++}" name="Chart"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>${xfrm(rect, 'p:xfrm')}<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">${chart}</a:graphicData></a:graphic></p:graphicFrame>`;
}

/** A picture (its image part is added to every presentation). */
export function pictureShape(rect: Rect): string {
  return `<p:pic><p:nvPicPr><p:cNvPr id="${shapeId++}" name="Picture" descr="A logo"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rIdImage"/></p:blipFill><p:spPr>${xfrm(rect)}</p:spPr></p:pic>`;
}

export interface SlideSpec {
  /** The inner XML of the slide's `p:spTree`: placeholders and shapes from the helpers above. */
  shapes: string[];
  /** Speaker notes, one paragraph each. */
  notes?: string[];
  /** Whether the slide has a chart: adds the chart part and its embedded workbook, stored uncompressed. */
  chart?: boolean;
}

/** A layout (or master) placeholder with a position, for slides' placeholders to inherit. */
const positionedPlaceholder = (type: string, rect: Rect, idx?: number) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${shapeId++}" name="${type}"/><p:cNvSpPr/><p:nvPr><p:ph type="${type}"${idx === undefined ? '' : ` idx="${idx}"`}/></p:nvPr></p:nvSpPr><p:spPr>${xfrm(rect)}</p:spPr>${txBody([''])}</p:sp>`;
const spTree = (shapes: string) => `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld>`;
const relationshipsXml = (relationships: [id: string, type: string, target: string][]) =>
  `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${relationships.map(([id, type, target]) => `<Relationship Id="${id}" Type="${OFFICE_RELATIONSHIPS}/${type}" Target="${target}"/>`).join('')}</Relationships>`;

/** A 1×1 PNG (the picture every presentation carries). */
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * A 4:3 presentation (720 × 540 pt). The slide master places the title at the top and the body below
 * it; the layout places only the title (body placeholders inherit from the master). Slides are stored
 * as slide1.xml, slide2.xml, … but listed in `order` (0-based indices into `slides`) when given, as
 * a presentation whose slides were moved is.
 */
export async function buildPptx(slides: SlideSpec[], order: number[] = slides.map((_, i) => i)): Promise<Buffer> {
  const zip = new JSZip();
  const overrides = [`<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>`];
  slides.forEach((_, i) => overrides.push(`<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`));
  zip.file(
    '[Content_Types].xml',
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/>${overrides.join('')}</Types>`,
  );
  zip.file('_rels/.rels', relationshipsXml([['rId1', 'officeDocument', 'ppt/presentation.xml']]));
  const slideList = order.map((i, k) => `<p:sldId id="${256 + k}" r:id="rIdSlide${i + 1}"/>`).join('');
  zip.file(
    'ppt/presentation.xml',
    `${XML_DECLARATION}<p:presentation ${PML_ROOT_NAMESPACES}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rIdMaster"/></p:sldMasterIdLst><p:sldIdLst>${slideList}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000" type="screen4x3"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  zip.file('ppt/_rels/presentation.xml.rels', relationshipsXml([['rIdMaster', 'slideMaster', 'slideMasters/slideMaster1.xml'], ...slides.map((_, i) => [`rIdSlide${i + 1}`, 'slide', `slides/slide${i + 1}.xml`] as [string, string, string])]));
  const master = positionedPlaceholder('title', { x: 36, y: 22, width: 648, height: 90 }) + positionedPlaceholder('body', { x: 36, y: 126, width: 648, height: 360 }, 1);
  zip.file('ppt/slideMasters/slideMaster1.xml', `${XML_DECLARATION}<p:sldMaster ${PML_ROOT_NAMESPACES}>${spTree(master)}</p:sldMaster>`);
  zip.file('ppt/slideMasters/_rels/slideMaster1.xml.rels', relationshipsXml([['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml']]));
  zip.file('ppt/slideLayouts/slideLayout1.xml', `${XML_DECLARATION}<p:sldLayout ${PML_ROOT_NAMESPACES}>${spTree(positionedPlaceholder('title', { x: 36, y: 22, width: 648, height: 90 }))}</p:sldLayout>`);
  zip.file('ppt/slideLayouts/_rels/slideLayout1.xml.rels', relationshipsXml([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]));
  zip.file('ppt/media/image1.png', PNG_1X1);

  for (const [i, slide] of slides.entries()) {
    const n = i + 1;
    const relationships: [string, string, string][] = [
      ['rIdLayout', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
      ['rIdImage', 'image', '../media/image1.png'],
    ];
    zip.file(`ppt/slides/slide${n}.xml`, `${XML_DECLARATION}<p:sld ${PML_ROOT_NAMESPACES}>${spTree(slide.shapes.join(''))}</p:sld>`);
    if (slide.notes) {
      relationships.push(['rIdNotes', 'notesSlide', `../notesSlides/notesSlide${n}.xml`]);
      // A notes page holds a picture of the slide, the notes body and the slide number.
      const notes = positionedPlaceholder('sldImg', { x: 0, y: 0, width: 360, height: 270 }) + placeholder('body', slide.notes, 1) + placeholder('sldNum', [String(n)], 5);
      zip.file(`ppt/notesSlides/notesSlide${n}.xml`, `${XML_DECLARATION}<p:notes ${PML_ROOT_NAMESPACES}>${spTree(notes)}</p:notes>`);
      zip.file(`ppt/notesSlides/_rels/notesSlide${n}.xml.rels`, relationshipsXml([['rId1', 'slide', `../slides/slide${n}.xml`]]));
    }
    if (slide.chart) {
      relationships.push(['rIdChart', 'chart', `../charts/chart${n}.xml`]);
      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet('Sheet1').addRows([['Quarter', 'Sales'], ['Q1', 4.3], ['Q2', 2.5]]);
      // Stored, not deflated, as an embedded package often is: its own part names show in the bytes.
      zip.file(`ppt/embeddings/Microsoft_Excel_Worksheet${n}.xlsx`, Buffer.from(await workbook.xlsx.writeBuffer()), { compression: 'STORE' });
      zip.file(`ppt/charts/chart${n}.xml`, `${XML_DECLARATION}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="${DML}" xmlns:r="${OFFICE_RELATIONSHIPS}"><c:chart><c:plotArea/></c:chart><c:externalData r:id="rId1"/></c:chartSpace>`);
      zip.file(`ppt/charts/_rels/chart${n}.xml.rels`, relationshipsXml([['rId1', 'package', `../embeddings/Microsoft_Excel_Worksheet${n}.xlsx`]]));
    }
    zip.file(`ppt/slides/_rels/slide${n}.xml.rels`, relationshipsXml(relationships));
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * A small talk of three slides, stored out of order (slide3.xml is shown second): a title slide; a
 * slide with a title, bullets, two text boxes side by side, a group of two shapes and a chart; a
 * slide with a table. Speaker notes on the first two. `written` is every text on slides and notes.
 */
export async function quarterlyDeck(): Promise<{ bytes: Buffer; written: string[] }> {
  const written: string[] = [];
  const w = (text: string) => (written.push(text), text);
  const titleSlide: SlideSpec = {
    shapes: [placeholder('ctrTitle', [w('Quarterly Review')]), textShape({ x: 120, y: 300, width: 480, height: 60 }, [w('Finance team, October 2025')])],
    notes: [w('Welcome everyone and thank the regional leads.')],
  };
  const tableSlide: SlideSpec = {
    shapes: [
      placeholder('title', [w('Results by region')]),
      tableFrame({ x: 60, y: 140, width: 600, height: 120 }, [
        [w('Region'), w('Revenue'), w('Growth')],
        [w('North'), w('4.2 M'), w('12%')],
        [w('South'), w('3.1 M'), w('-4%')],
        [w('Total across regions: 7.3 M'), null, null],
      ]),
      placeholder('sldNum', ['3'], 12),
    ],
  };
  const detailSlide: SlideSpec = {
    shapes: [
      // Written bottom-up and right-to-left in the file: reading order must come from positions.
      groupShape({ x: 60, y: 400, width: 600, height: 80 }, { x: 0, y: 0, width: 300, height: 40 }, [
        textShape({ x: 150, y: 0, width: 150, height: 40 }, [w('Next: hire two analysts')]),
        textShape({ x: 0, y: 0, width: 150, height: 40 }, [w('Risks: supplier delays')]),
      ]),
      textShape({ x: 380, y: 300, width: 300, height: 60 }, [w('Right column: costs fell 3%')]),
      textShape({ x: 40, y: 305, width: 300, height: 60 }, [w('Left column: revenue rose 8%')]),
      placeholder('body', [w('Revenue up in every region'), w('Churn below two percent'), aPara(w('Three new markets opened'), '<a:buNone/>')], 1),
      placeholder('title', [w('Highlights')]),
      chartFrame({ x: 400, y: 130, width: 250, height: 150 }),
      pictureShape({ x: 600, y: 20, width: 80, height: 40 }),
    ],
    notes: [w('Stress the churn figure.'), w('Mention the supplier issue only if asked.')],
    chart: true,
  };
  const bytes = await buildPptx([titleSlide, tableSlide, detailSlide], [0, 2, 1]);
  return { bytes, written };
}
