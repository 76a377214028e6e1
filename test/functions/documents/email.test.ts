/**
 * E-mail (.eml) through the real sniffer and reader: headers and body on the first page, attachments
 * read as documents of their own with their pages following, page numbers and origins consistent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReadFailure, type Doc, type Page } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { renderPage } from '../../../functions/documents/render.ts';
import { DocumentProblem, sniffDocument } from '../../../functions/documents/sniff.ts';
import { base64Lines, INVOICE_SUBJECT, invoiceEmail, ORDER_HTML, orderEmail, outlookMessage } from '../../support/mail-fixtures.ts';
import { greyToPng, renderScan } from '../../support/scan-fixtures.ts';

/** A message whose only attachment is a scanned page (PNG). */
function scanEmail(png: Buffer): Buffer {
  return Buffer.from(
    [
      'From: scanner@example.org',
      'Subject: Scan',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'The scan is attached.',
      '--b',
      'Content-Type: image/png; name="scan.png"',
      'Content-Disposition: attachment; filename="scan.png"',
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(png),
      '--b--',
      '',
    ].join('\r\n'),
  );
}

async function readEml(bytes: Buffer, filename = 'message', expected = 'eml'): Promise<Doc> {
  const { kind } = sniffDocument({ head: bytes, size: bytes.length, filename });
  expect(kind).toBe(expected);
  return readDocument(bytes, { kind, dpi: 150, deadline: Date.now() + 30_000 });
}

const text = (page: Page) => renderPage(page, 'markdown');

describe('e-mail sniffing', () => {
  it('recognises a message by its header block, whatever its name; .eml and message/rfc822 too', async () => {
    const eml = await invoiceEmail();
    expect(sniffDocument({ head: eml, size: eml.length, filename: 'download' })).toEqual({ kind: 'eml', mimeType: 'message/rfc822' });
    expect(sniffDocument({ head: eml, size: eml.length, filename: 'invoice.eml' }).kind).toBe('eml');
    expect(sniffDocument({ head: eml, size: eml.length, filename: 'x', declaredMime: 'message/rfc822' }).kind).toBe('eml');
    // Only the head of a large upload is sniffed.
    expect(sniffDocument({ head: eml.subarray(0, 300), size: eml.length, filename: 'x' }).kind).toBe('eml');
  });

  it('an 8-bit message in Latin-1 is an e-mail, not text that is not UTF-8', async () => {
    const latin1 = Buffer.from('From: a@example.org\r\nSubject: Gruesse\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\nM\xfcller zahlt 12,00 EUR f\xfcr die Stra\xdfe.\r\n', 'latin1');
    const doc = await readEml(latin1);
    expect(text(doc.pages[0]!)).toBe('From: a@example.org\nSubject: Gruesse\n\nMüller zahlt 12,00 EUR für die Straße.');
  });

  it('a message saved from an mbox mailbox (its "From sender date" line first) is an e-mail, by content and as .eml', async () => {
    const mbox = Buffer.from('From 1275267068816858875@xxx Wed Jul 16 06:24:10 +0000 2008\nX-Gmail-Labels: Inbox\nFrom: Tamir <t@example.org>\nTo: s@example.org\nSubject: Exam\n\nSee you.\n');
    expect(sniffDocument({ head: mbox, size: mbox.length, filename: 'message.txt' }).kind).toBe('eml');
    expect(text((await readEml(mbox)).pages[0]!)).toBe('From: Tamir <t@example.org>\nTo: s@example.org\nSubject: Exam\n\nSee you.');
  });

  it('a windows-1252 body keeps its € and curly quotes', async () => {
    const outlook = Buffer.from('From: a@example.org\r\nSubject: Offer\r\nContent-Type: text/plain; charset="windows-1252"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=93Special=94 price: 99 =80 =96 today only.\r\n', 'latin1');
    expect(text((await readEml(outlook)).pages[0]!)).toBe('From: a@example.org\nSubject: Offer\n\n“Special” price: 99 € – today only.');
  });

  it('text that only mentions a sender is still text; a .eml without headers → 422 naming it', () => {
    const note = Buffer.from('From: the desk of J. Doe\n\nPlease call back.\n');
    expect(sniffDocument({ head: note, size: note.length, filename: 'note.txt' }).kind).toBe('txt');
    const yaml = Buffer.from('from: 2020-01-01\nto: 2020-12-31\nsubject: audit\n\nnotes: none\n');
    expect(sniffDocument({ head: yaml, size: yaml.length, filename: 'period.yaml' }).kind).toBe('txt');
    const problem = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(DocumentProblem);
        return error as DocumentProblem;
      }
      throw new Error('expected a DocumentProblem');
    };
    // Named .eml, a header block is enough; no header block is no message.
    expect(sniffDocument({ head: note, size: note.length, filename: 'note.eml' }).kind).toBe('eml');
    const plain = Buffer.from('Please call back.\n');
    const notMail = problem(() => sniffDocument({ head: plain, size: plain.length, filename: 'note.eml' }));
    expect([notMail.code, notMail.message]).toEqual(['document_invalid', 'The document (note.eml) is not an e-mail message: it does not start with its headers (From, To, Subject, …)']);
  });

  it('an Outlook .msg by its property streams whatever its name, or by name; other OLE files stay legacy Office', async () => {
    const msg = Buffer.from(await outlookMessage());
    for (const filename of ['mail.msg', 'attachment']) expect(sniffDocument({ head: msg, size: msg.length, filename })).toEqual({ kind: 'msg', mimeType: 'application/vnd.ms-outlook' });
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]);
    expect(sniffDocument({ head: ole, size: ole.length, filename: 'mail.msg' }).kind).toBe('msg');
    try {
      sniffDocument({ head: ole, size: ole.length, filename: 'report.doc' });
      throw new Error('expected a DocumentProblem');
    } catch (error) {
      expect((error as Error).message).toMatch(/legacy Office \(OLE\) document/);
    }
  });
});

describe('e-mail reader', () => {
  it('page 1: From, To, Cc, Date, decoded Subject, then the text/plain body (quoted-printable decoded), attachments named', async () => {
    const doc = await readEml(await invoiceEmail());
    const first = text(doc.pages[0]!);
    expect(first.split('\n').slice(0, 6)).toEqual([
      'From: Acme Billing <billing@acme.example>',
      'To: Jane Müller <jane@example.org>, ops@example.org',
      'Cc: accounts@example.org',
      'Date: Tue, 03 Mar 2026 10:15:00 +0100',
      `Subject: ${INVOICE_SUBJECT}`,
      'Attachments: 1. INV-2026-031.pdf',
    ]);
    expect(first).toContain('invoice INV-2026-031 for the März delivery of 48 pallets to Düsseldorf. The total of EUR 12,480.00 is due on 2 April 2026.');
    expect(first).toContain('- Payment by bank transfer\n- Reference: INV-2026-031');
    // text/plain is preferred: the HTML alternative is not read as well.
    expect(first).not.toContain('HTML alternative');
  });

  it('a PDF attachment follows as pages of its own, numbered on from the message, its first page naming it', async () => {
    const doc = await readEml(await invoiceEmail());
    expect(doc.kind).toBe('eml');
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2, 3]);
    expect(text(doc.pages[1]!)).toMatch(/^## Attachment 1: INV-2026-031\.pdf\n\n.*INVOICE INV-2026-031/s);
    expect(text(doc.pages[2]!)).toContain('Total due EUR 12,480.00 by 2 April 2026');
    expect(text(doc.pages[2]!)).not.toContain('Attachment');
    // The PDF's boxes are on the e-mail's pages 2 and 3, in PDF points of a Letter page.
    for (const page of doc.pages.slice(1)) {
      expect(page.unit).toBe('pt');
      expect(page.width).toBe(612);
      expect(page.words.length).toBeGreaterThan(5);
      for (const word of page.words) expect(word.origin).toMatchObject({ kind: 'box', page: page.number });
    }
  });

  it('message words are text spans of the message as the page shows it: header lines, a blank line, the body', async () => {
    const doc = await readEml(await invoiceEmail());
    const page = doc.pages[0]!;
    // Lines: 6 header lines (with the attachment list), a blank line, 'Hello Jane,', a blank line, then line 10.
    const pallets = page.words.find((w) => w.text === 'pallets')!;
    expect(pallets.origin).toMatchObject({ kind: 'text', lineStart: 10, lineEnd: 10 });
    const from = page.words.find((w) => w.text === 'Düsseldorf.')!;
    expect(from.origin.kind).toBe('text');
    // The header paragraph and the body's first blocks are the message text, so offsets index it.
    const messageText = [...`${page.blocks[0]!.text}\n\n${page.blocks[1]!.text}\n\n${page.blocks[2]!.text}`];
    if (from.origin.kind !== 'text') throw new Error('text origin expected');
    expect(messageText.slice(from.origin.charStart, from.origin.charEnd).join('')).toBe('Düsseldorf.');
  });

  it('an HTML-only body is read as HTML (heading, data table; scripts and hidden text dropped), its words anchored in the HTML source', async () => {
    const doc = await readEml(orderEmail());
    const page = doc.pages[0]!;
    const first = text(page);
    expect(first).toContain('# Order confirmed');
    expect(first).toContain('Thanks for your order #A-1001 & welcome!');
    expect(first).toContain('| Item | Qty | Price |\n| --- | --- | --- |\n| Desk lamp | 2 | 39.90 |\n| Cable set | 1 | 12.50 |');
    expect(first).not.toMatch(/track|Hidden preheader|Order\n/);
    expect(page.tables).toHaveLength(1);
    expect(page.tables[0]).toMatchObject({ rowCount: 3, columnCount: 3, headerRows: 1 });
    // Offsets run on from the header lines into the decoded HTML source of the body.
    const header = page.blocks[0]!.text;
    const html = ORDER_HTML.replace('<h1>', '<img src="cid:logo@store" alt="Store"><h1>');
    const messageText = [...`${header}\n\n${html}`];
    for (const word of ['confirmed', '#A-1001', 'lamp', '39.90', '&']) {
      const found = page.words.find((w) => w.text === word)!;
      if (found.origin.kind !== 'text') throw new Error('text origin expected');
      const written = messageText.slice(found.origin.charStart, found.origin.charEnd).join('');
      expect(written).toBe(word === '&' ? '&amp;' : word);
    }
  });

  it('attachments that cannot be read are listed with the reason; CSV and attached messages are read; inline images are named', async () => {
    const doc = await readEml(orderEmail());
    const header = doc.pages[0]!.blocks[0]!.text;
    expect(header).toContain('Attachments: 1. items.csv; 2. spacer.gif (not read: The document is a GIF image, which is not a supported type); 3. broken.pdf (not read: The PDF is damaged');
    expect(header).toContain('; 4. stock.eml');
    expect(header).toContain('Inline images (not read): logo.gif');
    expect(doc.pages).toHaveLength(3);
    expect(text(doc.pages[1]!)).toBe('## Attachment 1: items.csv\n\n| sku | name | qty |\n| --- | --- | --- |\n| L-1 | Desk lamp | 2 |\n| C-7 | Cable set | 1 |');
    expect(doc.pages[1]!.words.find((w) => w.text === 'C-7')!.origin).toEqual({ kind: 'cell', row: 3, column: 0 });
    expect(text(doc.pages[2]!)).toBe(
      '## Attachment 4: stock.eml\n\nFrom: Supplier <sales@supplier.example>\nTo: buyer@example.org\nDate: Mon, 02 Mar 2026 09:00:00 +0000\nSubject: Stock confirmation\n\nAll 3 desk lamps are in stock.',
    );
  });

  it('a message with no body and no attachments is its header lines', async () => {
    const bare = Buffer.from('From: a@example.org\r\nTo: b@example.org\r\nSubject: (no text)\r\n\r\n');
    const doc = await readEml(bare);
    expect(doc.pages.map(text)).toEqual(['From: a@example.org\nTo: b@example.org\nSubject: (no text)']);
  });
});

describe('Outlook .msg reader', () => {
  it('reads as an .eml does: sender, To, Cc, sent time, subject and body, then the PDF and the embedded message', async () => {
    const doc = await readEml(Buffer.from(await outlookMessage()), 'offer.msg', 'msg');
    expect(doc.kind).toBe('msg');
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2, 3, 4]);
    const first = text(doc.pages[0]!);
    expect(first.split('\n').slice(0, 6)).toEqual([
      'From: Acme Billing <billing@acme.example>',
      'To: Jane Müller <jane@example.org>',
      'Cc: Accounts <accounts@example.org>',
      'Date: Tue, 03 Mar 2026 09:15:00 GMT',
      `Subject: ${INVOICE_SUBJECT}`,
      'Attachments: 1. INV-2026-031.pdf; 2. Stock confirmation.msg',
    ]);
    expect(first).toContain('The total of EUR 12,480.00 is due on 2 April 2026.');
    expect(text(doc.pages[1]!)).toMatch(/^## Attachment 1: INV-2026-031\.pdf\n\n.*INVOICE INV-2026-031/s);
    for (const word of doc.pages[2]!.words) expect(word.origin).toMatchObject({ kind: 'box', page: 3 });
    expect(text(doc.pages[3]!)).toBe('## Attachment 2: Stock confirmation.msg\n\nFrom: Supplier <sales@supplier.example>\nSubject: Stock confirmation\n\nAll 3 desk lamps are in stock.');
  });

  it('an OLE file named .msg that holds no message is a ReadFailure naming the format', async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]);
    await expect(readDocument(ole, { kind: 'msg', dpi: 150, deadline: Date.now() + 10_000 })).rejects.toThrow(new ReadFailure('The .msg file holds no Outlook message (no sender, recipients, subject, body or attachments)'));
    // A cut file: msgreader's own error becomes a ReadFailure too.
    const cut = (await outlookMessage()).subarray(0, 3000);
    await expect(readDocument(cut, { kind: 'msg', dpi: 150, deadline: Date.now() + 10_000 })).rejects.toBeInstanceOf(ReadFailure);
  });
});

describe('robustness', () => {
  it('arbitrary bytes read as an e-mail or an Outlook message: pages or a ReadFailure, never a crash', async () => {
    const header = fc.constantFrom('', 'From: a@b.c\r\nSubject: x\r\n', 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n');
    await fc.assert(
      fc.asyncProperty(header, fc.uint8Array({ maxLength: 400 }), fc.constantFrom('eml' as const, 'msg' as const), async (start, rest, kind) => {
        const bytes = kind === 'msg' ? Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), rest]) : Buffer.concat([Buffer.from(start), rest]);
        try {
          const doc = await readDocument(bytes, { kind, dpi: 72, deadline: Date.now() + 10_000 });
          expect(doc.pages.length).toBeGreaterThanOrEqual(1);
        } catch (error) {
          expect(error).toBeInstanceOf(ReadFailure);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('e-mail with a scanned attachment read twice (extraction)', () => {
  it('numbers the second reading\'s words with the attachment\'s page, as the first reading\'s', { timeout: 120_000 }, async () => {
    const eml = scanEmail(greyToPng(renderScan({ dpi: 100, paragraphs: ['Invoice 2041 from Harbour Lights Bakery', 'Total due 84.50'] }).image));
    const doc = await readDocument(eml, { kind: 'eml', dpi: 150, deadline: Date.now() + 100_000, secondReading: true });
    const scan = doc.pages[1]!;
    expect(scan.number).toBe(2);
    expect(scan.secondWords!.length).toBeGreaterThan(5);
    for (const word of [...scan.words, ...scan.secondWords!]) expect(word.origin).toMatchObject({ kind: 'box', page: 2 });
  });
});
