/**
 * Content sniffing (API §0.4): which supported document a byte string is, from real magic bytes
 * first and the file name / declared MIME second, and data URL decoding.
 */
import { describe, expect, it } from 'vitest';
import { decodeDataUrl, DocumentProblem, knownPageCount, MIME_OF, sniffDocument, type Sniffed } from '../../../functions/documents/sniff.ts';
import { quarterlyDeck } from '../../support/office-fixtures.ts';

const bytes = (...parts: (number[] | string | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.isBuffer(p) ? p : Buffer.from(p))));

function sniff(data: Buffer, filename = 'document', declaredMime?: string): Sniffed {
  return sniffDocument({ head: data, size: data.length, filename, declaredMime });
}

function problem(fn: () => unknown): DocumentProblem {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DocumentProblem);
    return error as DocumentProblem;
  }
  throw new Error('expected a DocumentProblem');
}

/** A ZIP local file header naming one stored entry, then a central directory entry and end record. */
function zipWith(entryName: string, content = 'content'): Buffer {
  const name = Buffer.from(entryName, 'latin1');
  const data = Buffer.from(content, 'latin1');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
const TIFF_LE = bytes([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
const TIFF_BE = bytes([0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08]);
const WEBP = bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ', [0x18, 0, 0, 0]);
const PDF = bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

describe('sniffDocument: binary kinds from their magic bytes', () => {
  it.each([
    ['pdf', PDF],
    ['png', PNG],
    ['jpeg', JPEG],
    ['tiff', TIFF_LE],
    ['tiff', TIFF_BE],
    ['webp', WEBP],
    ['docx', zipWith('word/document.xml', '<w:document/>')],
    ['xlsx', zipWith('xl/workbook.xml', '<workbook/>')],
    ['pptx', zipWith('ppt/presentation.xml', '<p:presentation/>')],
  ] as const)('%s', (kind, data) => {
    // Whatever the file is called and whatever generic type was declared, the content decides.
    for (const [filename, declared] of [
      ['upload.bin', undefined],
      ['notes.txt', undefined],
      ['noext', 'application/octet-stream'],
      [`file.${kind}`, MIME_OF[kind]],
    ] as const) {
      expect(sniff(data, filename, declared)).toEqual({ kind, mimeType: MIME_OF[kind] });
    }
  });

  it('a PDF header after leading junk (up to 1 KB) is still a PDF', () => {
    const junk = Buffer.alloc(700, 0x20);
    junk.write('garbage from a mail gateway\r\n\x00\x01\x02', 0, 'latin1');
    expect(sniff(bytes(junk, PDF), 'scan.pdf')).toEqual({ kind: 'pdf', mimeType: 'application/pdf' });
  });

  it('a DOCX whose part name is only in the central directory (tail) is found through the tail', () => {
    // The head sees a first entry that names no Office folder; the tail holds the central directory.
    const head = zipWith('[Content_Types].xml', 'x'.repeat(50)).subarray(0, 60);
    const tail = zipWith('word/document.xml');
    expect(sniffDocument({ head, tail, size: 10_000_000, filename: 'big.docx' }).kind).toBe('docx');
  });

  it('page counts are known only for single images and text', () => {
    expect(knownPageCount('png')).toBe(1);
    expect(knownPageCount('jpeg')).toBe(1);
    expect(knownPageCount('webp')).toBe(1);
    expect(knownPageCount('txt')).toBe(1);
    expect(knownPageCount('csv')).toBe(1);
    expect(knownPageCount('md')).toBe(1);
    expect(knownPageCount('pdf')).toBeNull();
    expect(knownPageCount('tiff')).toBeNull();
    expect(knownPageCount('docx')).toBeNull();
    expect(knownPageCount('xlsx')).toBeNull();
  });
});

describe('sniffDocument: text kinds', () => {
  const csv = Buffer.from('name,amount\nAcme,12.50\n');

  it('by extension', () => {
    expect(sniff(csv, 'table.csv')).toEqual({ kind: 'csv', mimeType: 'text/csv' });
    expect(sniff(csv, 'TABLE.CSV')).toEqual({ kind: 'csv', mimeType: 'text/csv' });
    expect(sniff(Buffer.from('a\tb\n1\t2\n'), 'table.tsv').kind).toBe('csv');
    expect(sniff(Buffer.from('# Title\n\nBody'), 'README.md')).toEqual({ kind: 'md', mimeType: 'text/markdown' });
    expect(sniff(Buffer.from('# Title'), 'notes.markdown').kind).toBe('md');
    expect(sniff(Buffer.from('hello'), 'hello.txt')).toEqual({ kind: 'txt', mimeType: 'text/plain' });
    expect(sniff(Buffer.from('hello'), 'no-extension')).toEqual({ kind: 'txt', mimeType: 'text/plain' });
  });

  it('by declared MIME when the name says nothing', () => {
    expect(sniff(csv, 'export', 'text/csv').kind).toBe('csv');
    expect(sniff(csv, 'export', 'text/csv; charset=utf-8').kind).toBe('csv');
    expect(sniff(csv, 'export', 'application/csv').kind).toBe('csv');
    expect(sniff(Buffer.from('# T'), 'notes', 'text/markdown').kind).toBe('md');
    expect(sniff(Buffer.from('# T'), 'notes', 'text/x-markdown').kind).toBe('md');
    expect(sniff(Buffer.from('hi'), 'notes', 'TEXT/PLAIN').kind).toBe('txt');
    // Other text/* types are read as plain text (text/html is HTML: test/functions/documents/html.test.ts).
    expect(sniff(Buffer.from('BEGIN:VCALENDAR'), 'invite', 'text/calendar').kind).toBe('txt');
    expect(sniff(Buffer.from('hi'), 'notes', 'application/octet-stream').kind).toBe('txt');
  });

  it('text that happens to start like a weak binary signature is still text', () => {
    // Regression: "BM" (BMP) and "MZ" (Windows executable) were matched on two bytes alone.
    expect(sniff(Buffer.from('BMW Financial Services\nInvoice 42\n'), 'bmw.txt')).toEqual({ kind: 'txt', mimeType: 'text/plain' });
    expect(sniff(Buffer.from('MZ Logistics,2026-01-04,120.00\n'), 'carriers.csv').kind).toBe('csv');
    expect(sniff(Buffer.from('Rar! said the lion'), 'roar.txt').kind).toBe('txt');
  });

  it('UTF-8 text with multi-byte characters and a BOM is text', () => {
    expect(sniff(Buffer.from('\ufeffCafé — 東京 🚀\n'), 'menu.txt').kind).toBe('txt');
  });

  it('a multi-byte character cut at the end of a partial head still counts as text', () => {
    const full = Buffer.from('é'.repeat(40_000)); // 80,000 bytes, 2 per character
    const head = full.subarray(0, 65_535); // ends in the middle of an "é"
    expect(head.at(-1)).toBe(0xc3);
    expect(sniffDocument({ head, tail: full.subarray(-65_536), size: full.length, filename: 'long.txt' }).kind).toBe('txt');
    // When the head is the whole document, a cut character is not valid UTF-8.
    expect(problem(() => sniff(head, 'cut.txt')).code).toBe('document_unsupported');
  });
});

describe('sniffDocument: rejections', () => {
  it('empty → document_invalid', () => {
    const p = problem(() => sniff(Buffer.alloc(0), 'empty.pdf'));
    expect(p.code).toBe('document_invalid');
    expect(p.message).toMatch(/empty/);
  });

  it.each([
    ['GIF', bytes('GIF89a', [1, 0, 1, 0, 0, 0, 0]), /a GIF image/],
    ['BMP', bytes('BM', [0x3a, 0, 0, 0, 0, 0, 0, 0]), /a BMP image/],
    ['OLE', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], Buffer.alloc(24)), /legacy Office \(OLE\)/],
    ['ELF', bytes([0x7f], 'ELF', [2, 1, 1, 0], Buffer.alloc(8)), /an ELF executable/],
    ['gzip', bytes([0x1f, 0x8b, 0x08, 0x00], Buffer.alloc(6)), /a gzip archive/],
    ['Windows executable', bytes('MZ', [0x90, 0, 3, 0, 0, 0]), /a Windows executable/],
    ['7-Zip', bytes([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), /a 7-Zip archive/],
    ['RAR', bytes('Rar!', [0x1a, 0x07, 0x01, 0x00]), /a RAR archive/],
    ['HEIC', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0]), /a video or HEIC image/],
  ])('%s is named in the message, whatever its file name', (_, data, message) => {
    for (const filename of ['file.bin', 'file.pdf', 'file.txt']) {
      const p = problem(() => sniff(data, filename));
      expect(p.code).toBe('document_unsupported');
      expect(p.message).toMatch(message);
      expect(p.message).toMatch(/not a supported type/);
    }
  });

  it('binary junk named .txt is not text', () => {
    const junk = Buffer.from([0x00, 0x13, 0x37, 0xfe, 0x00, 0x42, 0x99, 0x01, 0x02, 0x03]);
    const p = problem(() => sniff(junk, 'notes.txt'));
    expect(p.code).toBe('document_unsupported');
    expect(p.message).toMatch(/binary content of no supported type/);
    expect(p.message).toContain('notes.txt');
  });

  it('text that is not UTF-8 is rejected, saying text must be UTF-8', () => {
    const latin1 = Buffer.from('Caf\xe9 cr\xe8me br\xfbl\xe9e\n', 'latin1');
    const p = problem(() => sniff(latin1, 'menu.txt', 'text/plain'));
    expect(p.code).toBe('document_unsupported');
    expect(p.message).toMatch(/UTF-8/);
  });

  it('declared application/pdf with text content → a mismatch naming both', () => {
    const p = problem(() => sniff(Buffer.from('just some text, not a PDF'), 'invoice.pdf', 'application/pdf'));
    expect(p.code).toBe('document_invalid');
    expect(p.message).toBe('The document was declared as application/pdf but its content is not a PDF file');
    expect(problem(() => sniff(Buffer.from('hello'), 'a.png', 'image/png')).message).toMatch(/declared as image\/png.*not a PNG/);
  });

  it('a declared MIME type outside the supported list → document_unsupported naming it and the supported ones', () => {
    for (const mime of ['application/x-msdownload', 'image/gif', 'application/zip', 'video/mp4']) {
      const p = problem(() => sniff(Buffer.from('MZ\x90\x00'), 'setup.exe', mime));
      expect(p.code).toBe('document_unsupported');
      expect(p.message).toContain(`MIME type ${mime} is not supported`);
      expect(p.message).toMatch(/PDF, PNG, JPEG, TIFF, WEBP, DOCX, XLSX, PPTX, CSV, TXT/);
    }
  });

  it('content comes first: a real PDF or PNG under an odd declared MIME is what its bytes say', () => {
    expect(sniff(PDF, 'scan.bin', 'application/x-msdownload')).toEqual({ kind: 'pdf', mimeType: 'application/pdf' });
    expect(sniff(PNG, 'photo', 'image/gif')).toEqual({ kind: 'png', mimeType: 'image/png' });
  });

  it('a ZIP that is no DOCX, XLSX or PPTX is named in the 422', () => {
    const p = problem(() => sniff(zipWith('photos/cat.jpg'), 'archive.docx'));
    expect(p.code).toBe('document_unsupported');
    expect(p.message).toBe('The document is a ZIP archive, not a DOCX, XLSX, PPTX or EPUB file, which is not a supported type');
    // A folder name alone is not a document: only the main part (word/document.xml, …) makes one.
    expect(problem(() => sniff(zipWith('word/notes.txt'), 'x.docx')).message).toMatch(/ZIP archive, not a DOCX, XLSX, PPTX or EPUB/);
    const odt = problem(() => sniff(zipWith('mimetype', 'application/vnd.oasis.opendocument.text'), 'letter.odt'));
    expect(odt.message).toMatch(/^The document is an OpenDocument file \(\.odt, \.ods or \.odp; save it as DOCX, XLSX or PPTX\)/);
  });

  it('a PPTX whose chart embeds a workbook is a PPTX: only the names in the archive\'s own directory count', async () => {
    const { bytes } = await quarterlyDeck();
    const head = bytes.subarray(0, 64 * 1024);
    // The embedded workbook is stored as is, so its part names show in the presentation's bytes.
    expect(head.includes('xl/workbook.xml')).toBe(true);
    const tail = bytes.subarray(Math.max(0, bytes.length - 64 * 1024));
    expect(sniffDocument({ head, tail, size: bytes.length, filename: 'deck.pptx' })).toEqual({ kind: 'pptx', mimeType: MIME_OF.pptx });
    expect(MIME_OF.pptx).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
  });
});

describe('decodeDataUrl', () => {
  it('decodes data:<mime>;base64,<data> (parameters, case and whitespace tolerated)', () => {
    expect(decodeDataUrl(`data:application/pdf;base64,${PDF.toString('base64')}`)).toEqual({ mime: 'application/pdf', bytes: PDF });
    expect(decodeDataUrl('data:text/plain;charset=utf-8;base64,aGVsbG8=')).toEqual({ mime: 'text/plain', bytes: Buffer.from('hello') });
    expect(decodeDataUrl('data:Text/Plain;BASE64,aGVs\nbG8=').bytes.toString()).toBe('hello');
    expect(decodeDataUrl('data:;base64,aGk=')).toEqual({ mime: '', bytes: Buffer.from('hi') });
    expect(decodeDataUrl('data:text/plain;base64,')).toEqual({ mime: 'text/plain', bytes: Buffer.alloc(0) });
  });

  it.each([
    ['data:text/plain;base64,@@@@', /Invalid base64/],
    ['data:text/plain;base64,aGVsbG8=!', /Invalid base64/],
    ['data:text/plain;base64,a', /Invalid base64/],
    ['data:text/plain;base64,aGVsbG8===', /Invalid base64/],
    ['data:text/plain;base64,aG=sbG8=', /Invalid base64/],
    ['data:text/plain,hello', /must be base64-encoded/],
    ['data:text/plain;charset=utf-8,hello', /must be base64-encoded/],
    ['data:text/plain;base64', /Malformed data URL/],
    ['hello', /Malformed data URL/],
    ['https://example.com/a.pdf', /Malformed data URL/],
  ])('%j → document_invalid', (url, message) => {
    const p = problem(() => decodeDataUrl(url));
    expect(p.code).toBe('document_invalid');
    expect(p.message).toMatch(message);
  });
});
