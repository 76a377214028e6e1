/**
 * Office Open XML packages: a minimal non-validating XML parser (elements, attributes, text; OOXML
 * needs no more) and OPC packages, whose XML parts are read from the ZIP (./zip.ts) when asked for
 * and name one another through relationships. Shared by the DOCX, XLSX (comments) and PPTX readers,
 * which read parts by their conventional names.
 */
import { ReadFailure } from './doc.ts';
import { checkInflatedSizes, inflateEntry, MAX_INFLATED_BYTES, readZipDirectory, type ZipEntry } from './zip.ts';

// =============================================================================================
// XML: a minimal non-validating parser (elements, attributes, text)

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
type XmlNode = XmlElement | string;

const WORD_NAMESPACES = new Set(['http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'http://purl.oclc.org/ooxml/wordprocessingml/main']);

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name as 'lt'];
  });
}

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|[^<]+/y;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Shared by elements without attributes or children, to keep large documents light on memory. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];

/**
 * Parses XML into a tree. Element and attribute names in the WordprocessingML namespace are
 * normalized to the `w:` prefix whatever prefix the file binds (declared on the root, as Word does).
 */
export function parseXml(xml: string, what: string, deadline: number): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  /** The prefix bound to the WordprocessingML namespace, when it is not `w` ('' for a default namespace). */
  let otherPrefix: string | undefined;
  const rename = (name: string) => {
    if (otherPrefix === undefined) return name;
    const colon = name.indexOf(':');
    if (colon < 0) return otherPrefix === '' ? `w:${name}` : name;
    return name.slice(0, colon) === otherPrefix ? `w:${name.slice(colon + 1)}` : name;
  };
  TOKEN.lastIndex = 0;
  for (let tokens = 1; TOKEN.lastIndex < xml.length; tokens++) {
    // Parsing is synchronous: look at the clock now and then so a huge part cannot overrun the budget.
    if (tokens % 65_536 === 0 && Date.now() > deadline) throw new ReadFailure(`Reading the ${what} took too long`, 'timeout');
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(xml);
    if (!match) throw new ReadFailure(`The ${what} is corrupt (malformed XML at offset ${at})`);
    const token = match[0];
    const parent = stack[stack.length - 1]!;
    if (match[3] !== undefined) {
      let attrs = NO_ATTRIBUTES;
      const source = match[4]!;
      if (source !== '') {
        attrs = {};
        ATTRIBUTE.lastIndex = 0;
        for (let a = ATTRIBUTE.exec(source); a; a = ATTRIBUTE.exec(source)) {
          // Unprefixed attributes are in no namespace, so only prefixed ones are renamed.
          attrs[a[1]!.includes(':') ? rename(a[1]!) : a[1]!] = decodeEntities(a[2] ?? a[3] ?? '');
        }
      }
      if (stack.length === 1) {
        for (const [key, value] of Object.entries(attrs)) {
          if (WORD_NAMESPACES.has(value) && (key === 'xmlns' || key.startsWith('xmlns:'))) {
            const prefix = key === 'xmlns' ? '' : key.slice(6);
            otherPrefix = prefix === 'w' ? undefined : prefix;
          }
        }
      }
      const selfClosing = match[5] === '/';
      const element: XmlElement = { name: rename(match[3]), attrs, children: selfClosing ? NO_CHILDREN : [] };
      parent.children.push(element);
      if (!selfClosing) stack.push(element);
    } else if (match[2] !== undefined) {
      if (stack.length === 1 || parent.name !== rename(match[2])) throw new ReadFailure(`The ${what} is corrupt (mismatched XML end tag </${match[2]}>)`);
      stack.pop();
    } else if (match[1] !== undefined) {
      parent.children.push(match[1]);
    } else if (token === '<!DOCTYPE') {
      // OOXML never has one; refusing it keeps entity-expansion tricks out.
      throw new ReadFailure(`The ${what} is corrupt (unexpected DOCTYPE)`);
    } else if (token[0] !== '<') {
      parent.children.push(decodeEntities(token));
    }
  }
  if (stack.length !== 1) throw new ReadFailure(`The ${what} is corrupt (unclosed XML element <${stack[stack.length - 1]!.name}>)`);
  return root;
}

export function elements(node: XmlElement, name?: string): XmlElement[] {
  return node.children.filter((c): c is XmlElement => typeof c !== 'string' && (name === undefined || c.name === name));
}

export function child(node: XmlElement | undefined, name: string): XmlElement | undefined {
  return node?.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === name);
}

export function textOf(node: XmlElement): string {
  return node.children.map((c) => (typeof c === 'string' ? c : '')).join('');
}

/** The elements named `name` below `node`, in document order (not looking inside a match). */
export function descendants(node: XmlElement, name: string, found: XmlElement[] = []): XmlElement[] {
  for (const item of elements(node)) {
    if (item.name === name) found.push(item);
    else descendants(item, name, found);
  }
  return found;
}

// =============================================================================================
// OPC packages: parts read on demand, and the relationships by which one part names another

/** A relationship of a part: its type's last segment (`header`, `slide`, `comments`, …) and target part. */
export interface Relationship {
  type: string;
  /** The target's part name (`word/header1.xml`), or the URL of an external target. */
  target: string;
  external: boolean;
}

/** The relationships part of a part: `word/document.xml` → `word/_rels/document.xml.rels`. */
function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** A relationship target as a part name: relative to the source part's folder, or from the root. */
function resolveTarget(fromPart: string, target: string): string {
  const segments = target.startsWith('/') ? [] : fromPart.split('/').slice(0, -1);
  for (const segment of safeDecode(target).split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

function safeDecode(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/**
 * An OOXML package (ZIP) whose XML parts are parsed when asked for. Every part's declared size is
 * checked before it is inflated and their total stays under MAX_INFLATED_BYTES; media is never touched.
 */
export class XmlPackage {
  private readonly entries: Map<string, ZipEntry>;
  private readonly checked = new Set<string>();
  private inflatedBytes = 0;

  constructor(
    private readonly bytes: Uint8Array,
    readonly what: string,
    private readonly deadline: number,
  ) {
    this.entries = readZipDirectory(bytes, what);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** A part's ZIP entry (for a part that is not XML: inflate it after check()). */
  entry(name: string): ZipEntry | undefined {
    return this.entries.get(name);
  }

  /** Checks the declared sizes of these parts together, before any of them is inflated. */
  check(names: string[]): void {
    const entries = names.filter((n) => !this.checked.has(n)).map((n) => this.entries.get(n)).filter((e): e is ZipEntry => e !== undefined);
    checkInflatedSizes(entries, this.what, MAX_INFLATED_BYTES - this.inflatedBytes);
    for (const entry of entries) {
      this.checked.add(entry.name);
      this.inflatedBytes += entry.uncompressedSize;
    }
  }

  /** A part's XML, or undefined when the package has no such part. */
  part(name: string): XmlElement | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    this.check([name]);
    return parseXml(inflateEntry(this.bytes, entry, this.what).toString('utf8'), this.what, this.deadline);
  }

  /** A part's relationships by id (none when it has no relationships part). */
  relationships(part: string): Map<string, Relationship> {
    const found = new Map<string, Relationship>();
    const root = child(this.part(relationshipsPartOf(part)), 'Relationships');
    for (const rel of root ? elements(root, 'Relationship') : []) {
      const { Id: id, Type: type = '', Target: target = '', TargetMode: mode } = rel.attrs;
      if (id === undefined) continue;
      const external = mode === 'External';
      found.set(id, { type: type.slice(type.lastIndexOf('/') + 1), target: external ? target : resolveTarget(part, target), external });
    }
    return found;
  }
}
