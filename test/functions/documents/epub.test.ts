/**
 * EPUB books (functions/documents/epub.ts): sniffed by their stored "mimetype" entry, read a page per
 * document of the spine in reading order, words anchored as text spans of the spine's documents read
 * one after another; a broken book is a clear ReadFailure.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ReadFailure } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { sniffDocument } from '../../../functions/documents/sniff.ts';

const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">\n<head><title>${title}</title></head>\n<body>\n${body}\n</body>\n</html>`;

const CHAPTERS: Record<string, string> = {
  'OPS/text/chapter one.xhtml': xhtml('One', '<h1>Chapter One</h1>\n<p>Snow fell on the pass.</p>'),
  'OPS/text/chapter-two.xhtml': xhtml('Two', '<h1>Chapter Two</h1>\n<p>The sledge ran down to the village.</p>'),
  'OPS/nav.xhtml': xhtml('Contents', '<nav><ol><li>Chapter One</li></ol></nav>'),
};

/** A book as EPUB writers make it: "mimetype" stored first, a prefixed OPF in a folder, the spine out of the manifest's order. */
async function book(options: { container?: boolean; spine?: string; encrypted?: string } = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  if (options.container !== false) {
    zip.file('META-INF/container.xml', '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>');
  }
  const spine = options.spine ?? '<opf:itemref idref="c2"/><opf:itemref idref="c1"/>';
  zip.file(
    'OPS/content.opf',
    `<?xml version="1.0"?><opf:package xmlns:opf="http://www.idpf.org/2007/opf" version="3.0"><opf:manifest>` +
      `<opf:item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>` +
      `<opf:item id="c1" href="text/chapter%20one.xhtml" media-type="application/xhtml+xml"/>` +
      `<opf:item id="c2" href="./text/../text/chapter-two.xhtml" media-type="application/xhtml+xml"/>` +
      `<opf:item id="css" href="style.css" media-type="text/css"/>` +
      `<opf:item id="bad" href="text/chapter%E0%A4%A.xhtml" media-type="application/xhtml+xml"/>` +
      `</opf:manifest><opf:spine>${spine}<opf:itemref idref="css"/></opf:spine></opf:package>`,
  );
  for (const [name, text] of Object.entries(CHAPTERS)) zip.file(name, text);
  zip.file('OPS/style.css', 'body { margin: 0 }');
  if (options.encrypted) {
    zip.file('META-INF/encryption.xml', `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#"><CipherData><CipherReference URI="${options.encrypted}"/></CipherData></EncryptedData></encryption>`);
  }
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const read = (bytes: Uint8Array) => readDocument(bytes, { kind: 'epub', dpi: 72, deadline: Date.now() + 30_000 });
const codePoints = (text: string) => [...text];

describe('EPUB books', () => {
  it('are sniffed by their stored mimetype, whatever they are named', async () => {
    const bytes = await book();
    expect(sniffDocument({ head: bytes, tail: bytes, size: bytes.length, filename: 'upload.bin' })).toEqual({ kind: 'epub', mimeType: 'application/epub+zip' });
  });

  it('are read a page per spine document, in the spine\'s order (not the manifest\'s); stylesheets are no page', async () => {
    const doc = await read(await book());
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2]);
    expect(doc.pages.map((p) => p.words.map((w) => w.text).join(' '))).toEqual(['Chapter Two The sledge ran down to the village.', 'Chapter One Snow fell on the pass.']);
  });

  it('anchor every word as a span of the spine\'s documents read one after another', async () => {
    const doc = await read(await book());
    const text = codePoints([CHAPTERS['OPS/text/chapter-two.xhtml']!, CHAPTERS['OPS/text/chapter one.xhtml']!].join('\n'));
    const lines = text.join('').split('\n');
    for (const word of doc.pages.flatMap((p) => p.words)) {
      expect(word.origin.kind).toBe('text');
      if (word.origin.kind !== 'text') continue;
      expect(text.slice(word.origin.charStart, word.origin.charEnd).join('')).toBe(word.text);
      expect(lines[word.origin.lineStart - 1]).toContain(word.text);
    }
  });

  it('a book without its container, or whose spine names nothing readable, is a clear ReadFailure', async () => {
    await expect(read(await book({ container: false }))).rejects.toThrow(new ReadFailure('The EPUB book is corrupt (it has no META-INF/container.xml)'));
    await expect(read(await book({ spine: '<opf:itemref idref="missing"/>' }))).rejects.toThrow(/EPUB book is corrupt \(its spine lists no readable document\)/);
    // A malformed %-escape in a path is a path as written, not a crash.
    await expect(read(await book({ spine: '<opf:itemref idref="bad"/>' }))).rejects.toThrow(/spine lists no readable document/);
  });

  it('a book under DRM (its documents listed as encrypted) is refused as such; obfuscated fonts alone are no reason', async () => {
    await expect(read(await book({ encrypted: 'OPS/text/chapter-two.xhtml' }))).rejects.toThrow(new ReadFailure('The EPUB book is encrypted (DRM), which is not supported', 'document_unsupported'));
    expect((await read(await book({ encrypted: 'OPS/fonts/serif.otf' }))).pages).toHaveLength(2);
  });
});
