/**
 * Office test documents built in memory: minimal DOCX packages written by hand with jszip (no DOCX
 * generator is installed), and raw ZIP surgery for decompression-bomb cases.
 */
import { deflateRawSync } from 'node:zlib';
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

export interface DocxParts {
  /** The children of `w:body`. */
  body: string;
  styles?: string;
  numbering?: string;
  /** Further parts by path (e.g. media). */
  extra?: Record<string, string | Uint8Array>;
}

export function documentXml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}"><w:body>${body}<w:sectPr/></w:body></w:document>`;
}

export async function buildDocx(parts: DocxParts): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', ROOT_RELS);
  zip.file('word/document.xml', documentXml(parts.body));
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
