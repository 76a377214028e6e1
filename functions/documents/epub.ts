/**
 * EPUB books: each document of the book's spine (./epub-spine.ts) is read as HTML (./html.ts) into
 * one page, so a book's pages are its spine's documents (a cover page holding only a picture is a
 * page without words).
 *
 * Words are anchored as text spans of the spine's documents decoded and read one after another: the
 * first line of the second document follows the last line of the first.
 */
import type { Page } from './doc.ts';
import { EPUB_WHAT as WHAT, epubSpine } from './epub-spine.ts';
import { decodeHtml, readHtmlText } from './html.ts';
import { inflateEntry } from './zip.ts';

/** Reads a book: a page per spine document. */
export function readEpub(bytes: Uint8Array, options: { deadline: number }): Page[] {
  let lineBase = 0;
  let charBase = 0;
  return epubSpine(bytes, options.deadline).map((entry, i) => {
    const html = decodeHtml(inflateEntry(bytes, entry, WHAT));
    const page = readHtmlText(html, { deadline: options.deadline, lineBase, charBase });
    page.number = i + 1;
    // The next document's text follows this one's on the next line.
    lineBase += html.split('\n').length;
    charBase += [...html].length + 1;
    return page;
  });
}
