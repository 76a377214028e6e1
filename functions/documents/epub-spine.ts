/**
 * An EPUB book's spine: a ZIP (./zip.ts) whose META-INF/container.xml names the package document
 * (OPF), whose spine lists the book's XHTML documents in reading order. Apart from the reader
 * (./epub.ts) so that the upload check (../files/check.ts) counts a book's pages without the HTML
 * parser.
 */
import { ReadFailure } from './doc.ts';
import { type XmlElement, XmlPackage } from './ooxml.ts';
import type { ZipEntry } from './zip.ts';

export const EPUB_WHAT = 'EPUB book';
const WHAT = EPUB_WHAT;
const XHTML = new Set(['application/xhtml+xml', 'text/html']);

/** The spine's XHTML documents, in reading order, as ZIP entries (their declared sizes checked). */
export function epubSpine(bytes: Uint8Array, deadline: number): ZipEntry[] {
  const pkg = new XmlPackage(bytes, WHAT, deadline);
  const part = (name: string): XmlElement => {
    const xml = pkg.part(name);
    if (!xml) throw new ReadFailure(`The ${WHAT} is corrupt (it has no ${name})`);
    return xml;
  };
  const opfPath = below(part('META-INF/container.xml'), 'rootfile').map((r) => r.attrs['full-path']).find(Boolean);
  if (!opfPath) throw new ReadFailure(`The ${WHAT} is corrupt (its container names no package document)`);
  const opf = part(opfPath);
  const folder = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const manifest = new Map(below(opf, 'item').map((item) => [item.attrs.id, item]));
  const spine: ZipEntry[] = [];
  for (const ref of below(opf, 'itemref')) {
    const item = manifest.get(ref.attrs.idref);
    const href = item?.attrs.href;
    if (!item || !href || !XHTML.has(item.attrs['media-type'] ?? '')) continue;
    const entry = pkg.entry(resolve(folder, unescaped(href.split('#')[0]!)));
    if (entry) spine.push(entry);
  }
  if (spine.length === 0) throw new ReadFailure(`The ${WHAT} is corrupt (its spine lists no readable document)`);
  // A book under DRM lists its encrypted documents in META-INF/encryption.xml (fonts alone are only obfuscated).
  const encryption = pkg.has('META-INF/encryption.xml') ? part('META-INF/encryption.xml') : undefined;
  const encrypted = new Set(encryption ? below(encryption, 'CipherReference').map((r) => r.attrs.URI) : []);
  if (spine.some((entry) => encrypted.has(entry.name) || encrypted.has(entry.name.slice(folder.length)))) {
    throw new ReadFailure(`The ${WHAT} is encrypted (DRM), which is not supported`, 'document_unsupported');
  }
  pkg.check(spine.map((entry) => entry.name));
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
