/**
 * Text read from a document, made safe for every output (parse text, words, extraction values):
 * no control characters and no lone UTF-16 surrogates, whatever the file held. DOCX character
 * references (&#x1;, &#xD800;), CSV and text files, and PDF text layers all can carry them, and
 * they break JSON consumers, terminals and XML/HTML renderers downstream.
 *
 * Length-preserving on purpose: a control character becomes a space and a lone surrogate U+FFFD,
 * one UTF-16 unit (and one code point) for one, so the character offsets in word origins (DOCX
 * paragraphs, text lines) still point at the same characters of the file.
 */
import type { Page } from './doc.ts';

/**
 * C0 controls except tab (U+0009) and newline (U+000A), which block and cell texts use as layout;
 * DEL and the C1 controls (U+007F–U+009F); a high surrogate not followed by a low one; a low
 * surrogate not preceded by a high one.
 */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** The first, cheap test (a character class, no lookaround): any control or surrogate, paired or not. */
const MAYBE_UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uD800-\uDFFF]/;

/** `text` with each control character replaced by a space and each lone surrogate by U+FFFD. */
export function cleanText(text: string): string {
  // Nearly all text is clean: test once, replace only when needed.
  if (!MAYBE_UNSAFE.test(text)) return text;
  return text.replace(UNSAFE, (found) => (found.charCodeAt(0) >= 0xd800 ? '\uFFFD' : ' '));
}

/** Cleans every text of the pages in place: words, lines, blocks, table cells and sheet names. */
export function cleanPagesText(pages: Page[]): void {
  for (const page of pages) {
    for (const word of page.words) word.text = cleanText(word.text);
    for (const word of page.secondWords ?? []) word.text = cleanText(word.text);
    for (const line of page.lines) line.text = cleanText(line.text);
    for (const block of page.blocks) block.text = cleanText(block.text);
    for (const table of page.tables) for (const cell of table.cells) cell.text = cleanText(cell.text);
    if (page.name !== undefined) page.name = cleanText(page.name);
  }
}
