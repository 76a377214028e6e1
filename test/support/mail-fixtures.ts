/**
 * E-mails as mail clients write them (RFC 822/MIME text): multipart/mixed with a text/plain and
 * text/html alternative, quoted-printable and base64 parts, encoded-word headers and attachments.
 */
import { burn, type Entry } from '@kenjiuno/msgreader/lib/Burner.js';
import { TypeEnum } from '@kenjiuno/msgreader/lib/Reader.js';
import { textPdf } from './text-pdf.ts';

/** Quoted-printable (RFC 2045 §6.7): hard line breaks as CRLF, soft breaks keep lines ≤ 76. */
export function quotedPrintable(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let encoded = '';
      for (const byte of Buffer.from(line, 'utf8')) {
        encoded += byte === 0x3d || byte > 0x7e || (byte < 0x20 && byte !== 0x09) ? `=${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
      }
      const out: string[] = [];
      while (encoded.length > 75) {
        // Never cut an =XX escape in two.
        let cut = 75;
        if (encoded[cut - 1] === '=') cut -= 1;
        else if (encoded[cut - 2] === '=') cut -= 2;
        out.push(`${encoded.slice(0, cut)}=`);
        encoded = encoded.slice(cut);
      }
      out.push(encoded);
      return out.join('\r\n');
    })
    .join('\r\n');
}

/** Base64 in 76-character lines, as MIME writes it. */
export function base64Lines(bytes: Uint8Array | string): string {
  return (Buffer.from(bytes).toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** An RFC 2047 encoded word (UTF-8, base64). */
export const encodedWord = (text: string) => `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;

export const INVOICE_SUBJECT = 'Rechnung INV-2026-031 für März ✓';
export const INVOICE_PLAIN = [
  'Hello Jane,',
  '',
  'please find attached our invoice INV-2026-031 for the März delivery of 48 pallets to Düsseldorf. The total of EUR 12,480.00 is due on 2 April 2026.',
  '',
  '- Payment by bank transfer',
  '- Reference: INV-2026-031',
  '',
  'Kind regards,',
  'Acme Billing',
].join('\n');
export const INVOICE_HTML = `<!DOCTYPE html><html><head><style>p { color: #333 }</style></head><body>
<p>Hello Jane,</p><p>This HTML alternative is not read when a plain text part exists.</p></body></html>`;
export const INVOICE_PDF_PAGES = [
  ['Acme Logistics GmbH', 'INVOICE INV-2026-031', 'Bill to: Jane Mueller, Example Org', 'Pallet transport Duesseldorf 48 x 260.00 = 12,480.00'],
  ['Payment terms', 'Total due EUR 12,480.00 by 2 April 2026', 'IBAN DE89 3704 0044 0532 0130 00'],
];

/** A multipart/mixed invoice e-mail: text/plain (quoted-printable) + text/html (base64) and a 2-page PDF. */
export async function invoiceEmail(): Promise<Buffer> {
  const pdf = await textPdf(INVOICE_PDF_PAGES);
  const message = [
    'Return-Path: <billing@acme.example>',
    'Received: from mail.acme.example (mail.acme.example [192.0.2.10])',
    '\tby mx.example.org with ESMTPS id 4Q1x; Tue, 03 Mar 2026 10:15:02 +0100',
    'From: "Acme Billing" <billing@acme.example>',
    'To: =?UTF-8?Q?Jane_M=C3=BCller?= <jane@example.org>, ops@example.org',
    'Cc: accounts@example.org',
    'Date: Tue, 03 Mar 2026 10:15:00 +0100',
    `Subject: ${encodedWord(INVOICE_SUBJECT)}`,
    'Message-ID: <20260303101500.4711@acme.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="=_mixed_4711"',
    '',
    'This is a multi-part message in MIME format.',
    '',
    '--=_mixed_4711',
    'Content-Type: multipart/alternative; boundary="=_alt_4711"',
    '',
    '--=_alt_4711',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(INVOICE_PLAIN),
    '--=_alt_4711',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(INVOICE_HTML),
    '--=_alt_4711--',
    '',
    '--=_mixed_4711',
    'Content-Type: application/pdf; name="INV-2026-031.pdf"',
    'Content-Disposition: attachment; filename="INV-2026-031.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(pdf),
    '--=_mixed_4711--',
    '',
  ];
  return Buffer.from(message.join('\r\n'), 'utf8');
}

export const ORDER_HTML = `<!DOCTYPE html>
<html><head><title>Order</title><script>track("open & read");</script></head>
<body>
<table role="presentation" width="100%"><tr><td>
  <h1>Order confirmed</h1>
  <p>Thanks for your order <b>#A-1001</b> &amp; welcome!</p>
  <table>
    <thead><tr><th>Item</th><th>Qty</th><th>Price</th></tr></thead>
    <tbody><tr><td>Desk lamp</td><td>2</td><td>39.90</td></tr>
    <tr><td>Cable set</td><td>1</td><td>12.50</td></tr></tbody>
  </table>
  <div style="display:none">Hidden preheader text</div>
</td></tr></table>
</body></html>`;

/** A 1×1 GIF: a type Quire does not read. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/**
 * An HTML-only order e-mail (no text/plain part) with an inline image the HTML shows, a CSV, a GIF
 * (not readable), a damaged PDF and a forwarded message attached.
 */
export function orderEmail(): Buffer {
  const forwarded = [
    'From: Supplier <sales@supplier.example>',
    'To: buyer@example.org',
    'Date: Mon, 02 Mar 2026 09:00:00 +0000',
    'Subject: Stock confirmation',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'All 3 desk lamps are in stock.',
  ].join('\r\n');
  const message = [
    'From: Shop <shop@store.example>',
    'To: buyer@example.org',
    'Date: Tue, 03 Mar 2026 11:00:00 +0000',
    'Subject: Your order A-1001',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b-mixed"',
    '',
    '--b-mixed',
    'Content-Type: multipart/related; boundary="b-related"',
    '',
    '--b-related',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(ORDER_HTML.replace('<h1>', '<img src="cid:logo@store" alt="Store"><h1>')),
    '--b-related',
    'Content-Type: image/gif',
    'Content-ID: <logo@store>',
    'Content-Disposition: inline; filename="logo.gif"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(GIF),
    '--b-related--',
    '--b-mixed',
    'Content-Type: text/csv; name="items.csv"',
    'Content-Disposition: attachment; filename="items.csv"',
    '',
    'sku,name,qty',
    'L-1,Desk lamp,2',
    'C-7,Cable set,1',
    '--b-mixed',
    'Content-Type: image/gif; name="spacer.gif"',
    'Content-Disposition: attachment; filename="spacer.gif"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(GIF),
    '--b-mixed',
    'Content-Type: application/pdf; name="broken.pdf"',
    'Content-Disposition: attachment; filename="broken.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines('%PDF-1.7\n1 0 obj\n<< /Type /Catalog'),
    '--b-mixed',
    'Content-Type: message/rfc822; name="stock.eml"',
    'Content-Disposition: attachment; filename="stock.eml"',
    '',
    forwarded,
    '--b-mixed--',
    '',
  ];
  return Buffer.from(message.join('\r\n'), 'utf8');
}

// ---------------------------------------------------------------------------------------------
// Outlook .msg: an OLE compound file of MAPI property streams ([MS-OXMSG]), written with the CFB
// writer that ships with @kenjiuno/msgreader.

interface MsgStream {
  name: string;
  data: Uint8Array;
}
interface MsgStorage {
  name: string;
  children: (MsgStream | MsgStorage)[];
}

/** A Unicode string property stream (PT_UNICODE, UTF-16LE, NUL-terminated). */
const unicode = (tag: string, text: string): MsgStream => ({ name: `__substg1.0_${tag}001F`, data: Buffer.from(`${text}\0`, 'utf16le') });

/** The fixed-size property stream: a header of `headerSize` bytes, then 16-byte entries. */
function properties(headerSize: number, entries: [tag: number, value: bigint][]): MsgStream {
  const data = Buffer.alloc(headerSize + 16 * entries.length);
  entries.forEach(([tag, value], i) => {
    data.writeUInt32LE(tag, headerSize + 16 * i);
    data.writeUInt32LE(6, headerSize + 16 * i + 4); // readable | writable
    data.writeBigUInt64LE(value, headerSize + 16 * i + 8);
  });
  return { name: '__properties_version1.0', data };
}

/** A Windows FILETIME (100 ns since 1601). */
const fileTime = (iso: string) => BigInt(Date.parse(iso) + 11_644_473_600_000) * 10_000n;

function recipient(index: number, name: string, address: string, type: 1 | 2): MsgStorage {
  return {
    name: `__recip_version1.0_#${index.toString(16).toUpperCase().padStart(8, '0')}`,
    children: [unicode('3001', name), unicode('39FE', address), properties(8, [[0x0c150003, BigInt(type)]])],
  };
}

function burnMsg(root: MsgStorage['children']): Uint8Array {
  const entries: Entry[] = [{ name: 'Root Entry', type: TypeEnum.ROOT, children: [], length: 0 }];
  const add = (parent: number, node: MsgStream | MsgStorage) => {
    const index = entries.length;
    if ('data' in node) {
      // The writer reads the bytes through their ArrayBuffer: give each stream a buffer of its own.
      const data = Uint8Array.from(node.data);
      entries.push({ name: node.name, type: TypeEnum.DOCUMENT, length: data.length, binaryProvider: () => data });
    } else {
      entries.push({ name: node.name, type: TypeEnum.DIRECTORY, length: 0, children: [] });
      for (const child of node.children) add(index, child);
    }
    entries[parent]!.children!.push(index);
  };
  for (const node of root) add(0, node);
  return burn(entries);
}

/**
 * An Outlook message: sender, To and Cc, sent time, subject, plain body, a 2-page PDF attachment and
 * a forwarded Outlook item attached as an embedded message.
 */
export async function outlookMessage(): Promise<Uint8Array> {
  const pdf = await textPdf(INVOICE_PDF_PAGES);
  const forwarded: MsgStorage = {
    name: '__attach_version1.0_#00000001',
    children: [
      unicode('3001', 'Stock confirmation'),
      properties(8, [[0x37050003, 5n]]), // PR_ATTACH_METHOD = embedded message
      {
        name: '__substg1.0_3701000D',
        children: [unicode('0037', 'Stock confirmation'), unicode('0C1A', 'Supplier'), unicode('5D01', 'sales@supplier.example'), unicode('1000', 'All 3 desk lamps are in stock.'), properties(24, [])],
      },
    ],
  };
  return burnMsg([
    unicode('0037', INVOICE_SUBJECT),
    unicode('0C1A', 'Acme Billing'),
    unicode('5D01', 'billing@acme.example'),
    unicode('1000', INVOICE_PLAIN.replace(/\n/g, '\r\n')),
    properties(32, [[0x00390040, fileTime('2026-03-03T09:15:00Z')]]), // PR_CLIENT_SUBMIT_TIME
    recipient(0, 'Jane Müller', 'jane@example.org', 1),
    recipient(1, 'Accounts', 'accounts@example.org', 2),
    {
      name: '__attach_version1.0_#00000000',
      children: [unicode('3707', 'INV-2026-031.pdf'), unicode('370E', 'application/pdf'), { name: '__substg1.0_37010102', data: pdf }, properties(8, [[0x37050003, 1n]])],
    },
    forwarded,
  ]);
}
