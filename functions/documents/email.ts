/**
 * E-mail reader (`.eml`, RFC 822/MIME, parsed by postal-mime): the message, then its attachments,
 * each read as a document of its own.
 *
 * Pages. API §3 gives one output string per page "in page order", and every other page number a
 * client sees — `usage.page_count`, split and partition `pages`, a `pdf_bbox` anchor's `page` —
 * counts the same pages of the same Doc. So an e-mail is one flat run of pages:
 *   page 1             the message: From, To, Cc, Date, Subject (one line each), then the body;
 *   pages 2…           the first attachment's pages, then the second's, and so on.
 * An attachment's pages are renumbered into that run and the page of each of its boxed words with
 * them: page 3 of the parse, of its page_count and of a pdf_bbox anchor is the same page (anchors.ts
 * reads the page size from `doc.pages[page - 1]`). Each attachment's first page starts with a heading
 * `Attachment <n>: <file name>`, so the text says where one document ends and the next begins.
 *
 * The message page's words have `text` origins (API §6.2 `text_span`) into the message text as the
 * page shows it: the header lines, a blank line, then the body as decoded (the text/plain part, or
 * the HTML source of the text/html part when there is no plain text). Attachments keep the origins
 * their own reader gives (boxes, cells, DOCX paragraphs), page numbers rewritten as above.
 *
 * An attachment that cannot be read (a type Quire does not read, a damaged file) does not fail the
 * message: the message page lists it with the reason. Images the HTML body shows inline (logos,
 * signatures; `Content-ID` parts it references) are part of the body, not documents, and are listed
 * as not read rather than OCRed. Attached messages (`message/rfc822`, forwarded as attachments) are
 * read as e-mails of their own, with their own attachments.
 */
import msgreaderModule, { type FieldsData } from '@kenjiuno/msgreader';
import PostalMime, { type Address, type Attachment, type Email, type Mailbox } from 'postal-mime';
import { MAX_PAGES, ReadFailure, type Page, type Word } from './doc.ts';
import { decodeHtml, readHtmlText, repairC1 } from './html.ts';
import { DocumentProblem, kindOfMime, sniffDocument, type DocumentKind } from './sniff.ts';
import { codePointLength, readText } from './text.ts';

export interface EmailOptions {
  deadline: number;
  /** Reads an attachment as a document of its own (read.ts passes its readDocument). */
  readAttachment: (bytes: Uint8Array, kind: DocumentKind) => Promise<Page[]>;
}

function formatAddress(address: Address): string {
  if (address.group) return `${address.name}: ${address.group.map(formatAddress).join(', ')};`;
  return address.name ? `${address.name} <${address.address}>` : address.address;
}

/** The header lines the message page shows, in the order people read them. */
function headerLines(email: Email): string[] {
  const lines: string[] = [];
  // The header lines must stay one line each: a folded or encoded value may hold line breaks.
  const add = (name: string, value: string | undefined) => {
    const flat = value && repairC1(value).replace(/\s+/g, ' ').trim();
    if (flat) lines.push(`${name}: ${flat}`);
  };
  add('From', email.from && formatAddress(email.from));
  add('To', email.to?.map(formatAddress).join(', '));
  add('Cc', email.cc?.map(formatAddress).join(', '));
  // The Date as the sender wrote it (postal-mime rewrites it as ISO 8601 in UTC).
  add('Date', email.headers.find((h) => h.key === 'date')?.value);
  add('Subject', email.subject);
  return lines;
}

/** Appends `source`'s words, lines, blocks and tables to `target`, indices shifted. */
function appendPage(target: Page, source: Page): void {
  const wordBase = target.words.length;
  const lineBase = target.lines.length;
  const tableBase = target.tables.length;
  target.words.push(...source.words);
  for (const line of source.lines) target.lines.push({ ...line, words: line.words.map((w) => w + wordBase) });
  for (const table of source.tables) target.tables.push({ ...table, cells: table.cells.map((c) => ({ ...c, words: c.words.map((w) => w + wordBase) })) });
  for (const block of source.blocks) {
    const moved = { ...block, lines: block.lines.map((l) => l + lineBase) };
    if (block.table !== undefined) moved.table = block.table + tableBase;
    target.blocks.push(moved);
  }
}

/** The message page: header lines, a blank line, the body (plain text preferred, else HTML). */
function messagePage(email: Email, extraLines: string[], deadline: number): Page {
  const header = [...headerLines(email), ...extraLines].join('\n');
  // repairC1: windows-1252 parts (Outlook's default) decode with C1 controls in place of € and quotes on Node 20.
  const text = email.text?.trim() ? repairC1(email.text) : undefined;
  const html = email.html?.trim() ? repairC1(email.html) : undefined;
  if (text !== undefined || html === undefined) {
    // readText reads the header lines as one paragraph and the body as it reads any .txt file.
    return readText(Buffer.from(text === undefined ? header : `${header}\n\n${text}`, 'utf8'), 'txt')[0]!;
  }
  const page = readText(Buffer.from(header, 'utf8'), 'txt')[0]!;
  const headerLineCount = header === '' ? 0 : header.split('\n').length;
  // The HTML source follows the header lines and a blank line in the message text.
  const body = readHtmlText(html, { deadline, lineBase: headerLineCount + 1, charBase: codePointLength(header) + 2 });
  appendPage(page, body);
  return page;
}

function attachmentName(attachment: Attachment, number: number): string {
  // One line: the name goes into the attachment list and a heading.
  return attachment.filename?.replace(/\s+/g, ' ').trim() || `unnamed ${attachment.mimeType} part ${number}`;
}

function contentBytes(attachment: Attachment): Uint8Array {
  const content = attachment.content;
  if (typeof content === 'string') return Buffer.from(content, attachment.encoding === 'base64' ? 'base64' : 'utf8');
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}

/** An attachment's pages, or why it could not be read. */
async function readAttachment(attachment: Attachment, name: string, options: EmailOptions): Promise<Page[] | string> {
  const bytes = contentBytes(attachment);
  let kind: DocumentKind;
  try {
    // A MIME type Quire does not read is left out: the content then names what the part is (a GIF image).
    const declaredMime = kindOfMime(attachment.mimeType) ? attachment.mimeType : undefined;
    kind = sniffDocument({ head: bytes, tail: bytes, size: bytes.length, filename: name, declaredMime }).kind;
  } catch (error) {
    if (error instanceof DocumentProblem) return error.message;
    throw error;
  }
  try {
    return await options.readAttachment(bytes, kind);
  } catch (error) {
    // Running out of time ends the whole read; any other failure is this attachment's alone.
    if (error instanceof ReadFailure && error.code !== 'timeout') return error.message;
    throw error;
  }
}

/** Reads an e-mail: the message page, then each attachment's pages (see the top of this file). */
export async function readEmail(bytes: Uint8Array, options: EmailOptions): Promise<Page[]> {
  let email: Email;
  try {
    email = await PostalMime.parse(bytes, { forceRfc822Attachments: true, attachmentEncoding: 'arraybuffer' });
  } catch (error) {
    throw new ReadFailure(`The e-mail cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return messageDocument(email, options);
}

/** The pages of a parsed message: its own page, then each attachment's (see the top of this file). */
async function messageDocument(email: Email, options: EmailOptions): Promise<Page[]> {
  const read: { number: number; name: string; pages: Page[] }[] = [];
  const notes: string[] = [];
  const inline: string[] = [];
  let pageCount = 1;
  for (const attachment of email.attachments) {
    if (attachment.related && attachment.mimeType.startsWith('image/')) {
      inline.push(attachmentName(attachment, inline.length + 1));
      continue;
    }
    // Checked before each attachment too: messages attached inside messages nest as deep as their bytes allow.
    if (Date.now() > options.deadline) throw new ReadFailure('Reading the e-mail took longer than its time budget', 'timeout');
    const number = notes.length + 1;
    const name = attachmentName(attachment, number);
    const result = await readAttachment(attachment, name, options);
    if (Date.now() > options.deadline) throw new ReadFailure('Reading the e-mail took longer than its time budget', 'timeout');
    if (typeof result === 'string' || result.length === 0) {
      notes.push(`${number}. ${name} (not read: ${typeof result === 'string' ? result : 'it has no pages'})`);
      continue;
    }
    pageCount += result.length;
    if (pageCount > MAX_PAGES) throw new ReadFailure(`The e-mail has more than ${MAX_PAGES} pages with its attachments`, 'document_unsupported');
    read.push({ number, name, pages: result });
    notes.push(`${number}. ${name}`);
  }

  const extra: string[] = [];
  if (notes.length > 0) extra.push(`Attachments: ${notes.join('; ')}`);
  if (inline.length > 0) extra.push(`Inline images (not read): ${inline.join(', ')}`);
  const pages: Page[] = [{ ...messagePage(email, extra, options.deadline), number: 1 }];

  for (const { number: attachmentNumber, name, pages: attachmentPages } of read) {
    attachmentPages.forEach((page, p) => {
      const number = pages.length + 1;
      const renumbered = (words: Word[]) => words.map((w) => (w.origin.kind === 'box' ? { ...w, origin: { ...w.origin, page: number } } : w));
      // The heading has no words: it is Quire's, not the attachment's text.
      const blocks = p === 0 ? [{ kind: 'heading' as const, level: 2, text: `Attachment ${attachmentNumber}: ${name}`, lines: [] }, ...page.blocks] : page.blocks;
      pages.push({ ...page, number, words: renumbered(page.words), blocks, ...(page.secondWords ? { secondWords: renumbered(page.secondWords) } : {}) });
    });
  }
  return pages;
}

// =============================================================================================
// Outlook .msg (an OLE compound file of MAPI properties), read with @kenjiuno/msgreader into the same
// shape postal-mime gives, so it becomes pages exactly as an .eml does.

// CommonJS seen from ESM: the default import is module.exports, whose `default` is the class (a
// bundler's interop may hand over the class itself).
type MsgReaderClass = typeof msgreaderModule.default;
const MsgReader: MsgReaderClass = (msgreaderModule as { default?: MsgReaderClass }).default ?? (msgreaderModule as unknown as MsgReaderClass);

function mailbox(name: string | undefined, address: string | undefined): Mailbox {
  return { name: name?.trim() ?? '', address: address?.trim() ?? '' };
}

/** A .msg's MAPI properties as postal-mime's Email: headers, body and attachments. */
function outlookEmail(bytes: Uint8Array): Email {
  // msgreader wants an ArrayBuffer of its own (it reads views by offset 0).
  const reader = new MsgReader(Uint8Array.from(bytes).buffer);
  const fields: FieldsData = reader.getFileData();
  if (fields.error) throw new ReadFailure(`The Outlook message (.msg) cannot be read: ${fields.error}`);
  const recipients = (type: string) =>
    (fields.recipients ?? []).filter((r) => (r.recipType ?? 'to') === type).map((r) => mailbox(r.name, r.smtpAddress || r.email));
  // The Date header of the transport headers when the message came by mail, else when it was sent.
  const date = /^Date:[ \t]*(.+)$/im.exec(fields.headers ?? '')?.[1]?.trim() ?? fields.clientSubmitTime ?? fields.messageDeliveryTime;
  const attachments: Attachment[] = (fields.attachments ?? []).map((attachment) => {
    const { fileName, content } = reader.getAttachment(attachment);
    const mimeType = attachment.innerMsgContent ? 'application/vnd.ms-outlook' : attachment.attachMimeTag?.toLowerCase() || 'application/octet-stream';
    return {
      filename: fileName || attachment.fileNameShort || null,
      mimeType,
      disposition: attachment.attachmentHidden ? 'inline' : 'attachment',
      // Pictures the HTML body shows (by Content-ID) are hidden attachments of the message.
      related: attachment.attachmentHidden === true && attachment.pidContentId !== undefined,
      content,
    };
  });
  const from = fields.senderSmtpAddress || fields.senderEmail || fields.sentRepresentingSmtpAddress;
  const html = fields.bodyHtml ?? (fields.html ? decodeHtml(fields.html) : undefined);
  const email: Email = {
    headers: date ? [{ key: 'date', originalKey: 'Date', value: date }] : [],
    headerLines: [],
    attachments,
  };
  if (fields.senderName || from) email.from = mailbox(fields.senderName, from);
  const to = recipients('to');
  const cc = recipients('cc');
  if (to.length > 0) email.to = to;
  if (cc.length > 0) email.cc = cc;
  if (fields.subject) email.subject = fields.subject;
  if (fields.body) email.text = fields.body;
  if (html) email.html = html;
  if (!email.from && !email.subject && !email.text && !email.html && attachments.length === 0 && to.length === 0) {
    throw new ReadFailure('The .msg file holds no Outlook message (no sender, recipients, subject, body or attachments)');
  }
  return email;
}

/** Reads an Outlook .msg as readEmail reads an .eml. */
export async function readOutlookMessage(bytes: Uint8Array, options: EmailOptions): Promise<Page[]> {
  let email: Email;
  try {
    email = outlookEmail(bytes);
  } catch (error) {
    // A damaged compound file makes msgreader throw whatever it hit (RangeError, TypeError): a 422, never a crash.
    if (error instanceof ReadFailure) throw error;
    throw new ReadFailure(`The Outlook message (.msg) cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return messageDocument(email, options);
}
