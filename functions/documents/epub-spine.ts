/**
 * An EPUB book's spine: a ZIP (./zip.ts) whose META-INF/container.xml names the package document
 * (OPF), whose spine lists the book's XHTML documents in reading order. Apart from the reader
 * (./epub.ts) so that the upload check (../files/check.ts) counts a book's pages without the HTML
 * parser.
 */
import { ReadFailure } from './doc.ts';
import { parseXml, type XmlElement } from './ooxml.ts';
import { checkInflatedSizes, inflateEntry, readZipDirectory, type ZipEntry } from './zip.ts';

export const EPUB_WHAT = 'EPUB book';
const WHAT = EPUB_WHAT;
const XHTML = new Set(['application/xhtml+xml', 'text/html']);

/** The spine's XHTML documents, in reading order, as ZIP entries. */
export function epubSpine(bytes: Uint8Array, deadline: number): ZipEntry[] {
  const entries = readZipDirectory(bytes, WHAT);
  const part = (name: string): string => {
    const entry = entries.get(name);
    if (!entry) throw new ReadFailure(`The ${WHAT} is corrupt (it has no ${name})`);
    checkInflatedSizes([entry], WHAT);
    return inflateEntry(bytes, entry, WHAT).toString('utf8');
  };
  const container = parseXml(part('META-INF/container.xml'), WHAT, deadline);
  const opfPath = below(container, 'rootfile').map((r) => r.attrs['full-path']).find(Boolean);
  if (!opfPath) throw new ReadFailure(`The ${WHAT} is corrupt (its container names no package document)`);
  const opf = parseXml(part(opfPath), WHAT, deadline);
  const folder = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const manifest = new Map(below(opf, 'item').map((item) => [item.attrs.id, item]));
  const spine: ZipEntry[] = [];
  for (const ref of below(opf, 'itemref')) {
    const item = manifest.get(ref.attrs.idref);
    const href = item?.attrs.href;
    if (!item || !href || !XHTML.has(item.attrs['media-type'] ?? '')) continue;
    const entry = entries.get(resolve(folder, unescaped(href.split('#')[0]!)));
    if (entry) spine.push(entry);
  }
  if (spine.length === 0) throw new ReadFailure(`The ${WHAT} is corrupt (its spine lists no readable document)`);
  // A book under DRM lists its encrypted documents in META-INF/encryption.xml (fonts alone are only obfuscated).
  const encryption = entries.has('META-INF/encryption.xml') ? part('META-INF/encryption.xml') : '';
  if (spine.some((entry) => encryption.includes(`URI="${entry.name}"`) || encryption.includes(`URI="${entry.name.slice(folder.length)}"`))) {
    throw new ReadFailure(`The ${WHAT} is encrypted (DRM), which is not supported`, 'document_unsupported');
  }
  checkInflatedSizes(spine, WHAT);
  return spine;
}

/** The elements below `node` of this local name, whatever their namespace prefix ("opf:item"), in document order. */
function below(node: XmlElement, local: string, found: XmlElement[] = []): XmlElement[] {
  for (const item of node.children) {
    if (typeof item === 'string') continue;
    if (item.name === local || item.name.endsWith(`:${local}`)) found.push(item);
    below(item, local, found);
  }
  return found;
}

/** A URI path with its %-escapes decoded; one that is malformed is taken as written. */
function unescaped(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A path relative to the package document's folder ("../Text/ch1.xhtml"), as a ZIP entry name. */
function resolve(folder: string, href: string): string {
  const parts: string[] = [];
  for (const piece of (folder + href).split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}
