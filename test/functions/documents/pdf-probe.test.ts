/**
 * The PDF probe uploads are checked with (functions/documents/pdf-probe.ts) against pdf.js itself:
 * it must open what pdf.js opens, with pdf.js's page count, and refuse what pdf.js refuses on opening
 * with the message a read gives (readDocument is the oracle for messages).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadFailure } from '../../../functions/documents/doc.ts';
import { probePdf } from '../../../functions/documents/pdf-probe.ts';
import * as pdfjs from '../../../functions/documents/pdfjs.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { CORPUS_DIR, corpusAvailable, corpusBytes } from '../../support/corpus.ts';
import { encryptedPdf, pdfOfObjects, twoColumnPdf } from '../../support/pdf-fixtures.ts';

/** What pdf.js says on opening: the page count, or that it cannot open the file. */
async function pdfjsOpens(bytes: Uint8Array): Promise<number | 'refused'> {
  const worker = pdfjs.sameThreadWorker();
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), worker, verbosity: 0 });
  try {
    const pdf = await task.promise;
    const count = pdf.numPages;
    await pdf.destroy();
    return count;
  } catch {
    await task.destroy().catch(() => undefined);
    return 'refused';
  } finally {
    worker.destroy();
  }
}

function probe(bytes: Uint8Array): number | null | 'refused' {
  try {
    return probePdf(bytes).pageCount;
  } catch (error) {
    if (error instanceof ReadFailure) return 'refused';
    throw error;
  }
}

/** The message a parse gives for a document it cannot read. */
async function readMessage(bytes: Uint8Array): Promise<string> {
  try {
    await readDocument(bytes, { kind: 'pdf', dpi: 72, deadline: Date.now() + 60_000 });
  } catch (error) {
    if (error instanceof ReadFailure) return error.message;
  }
  return 'read';
}

function probeMessage(bytes: Uint8Array): string {
  try {
    probePdf(bytes);
    return 'read';
  } catch (error) {
    return (error as Error).message;
  }
}

const ONE_PAGE = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'];
const FILE_ID = '3663383939326136636565633164306465623638656338623037623564306561';

/** A one-page PDF under a standard security handler with these parameters (taken from files pypdf encrypted). */
function encrypted(dict: string): Uint8Array {
  return pdfOfObjects([...ONE_PAGE, `<< /Filter /Standard /P -4 ${dict} >>`], ` /Encrypt 4 0 R /ID [<${FILE_ID}> <${FILE_ID}>]`);
}
const AESV2 = '/StmF /StdCF /StrF /StdCF /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV2 /Length 16 >> >>';
const AESV3 = '/StmF /StdCF /StrF /StdCF /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >>';

/** Each revision of the standard security handler, with an empty user password and with one ("secret"). */
const SECURITY_HANDLERS: [string, string][] = [
  ['RC4 40-bit (R2), empty user password', '/V 1 /R 2 /Length 40 /O <c92422687facee686e373f10b5c7d04738053152f7e2ee30e11c69ec442576ab> /U <2a62140990f8df1eb394145ca3837f594fe99e95bf7b8c4f41a4402e460c8cfc>'],
  ['RC4 40-bit (R2), user password', '/V 1 /R 2 /Length 40 /O <92fe0f4454ad4c9644693f33c07cb54f587dce1e2682fe9ecea6107a1ef630dd> /U <d1debac719a6f33344d1082f19c85d58bf0cb734459c75121ef4815ff56fd1bc>'],
  ['RC4 128-bit (R3), empty user password', '/V 2 /R 3 /Length 128 /O <566fa873ee33c797cd3b904fdadf814afa34df9a38f6ed41b984e2c6da2aa6f5> /U <c9b61c42a9082fc41b1887e5d2749eb528bf4e5e4e758a4164004e56fffa0108>'],
  ['RC4 128-bit (R3), user password', '/V 2 /R 3 /Length 128 /O <0db5855fc5326569e765906caf64e4429a4c20d6e996fdef963e9b5080f9e083> /U <9dc4ab81ab7fe192e2da0a85b8519de828bf4e5e4e758a4164004e56fffa0108>'],
  ['AES-128 (R4), empty user password', `/V 4 /R 4 /Length 128 ${AESV2} /O <566fa873ee33c797cd3b904fdadf814afa34df9a38f6ed41b984e2c6da2aa6f5> /U <c9b61c42a9082fc41b1887e5d2749eb528bf4e5e4e758a4164004e56fffa0108>`],
  ['AES-128 (R4), user password', `/V 4 /R 4 /Length 128 ${AESV2} /O <0db5855fc5326569e765906caf64e4429a4c20d6e996fdef963e9b5080f9e083> /U <9dc4ab81ab7fe192e2da0a85b8519de828bf4e5e4e758a4164004e56fffa0108>`],
  [
    'AES-256 (R5), empty user password',
    `/V 5 /R 5 /Length 256 ${AESV3} /O <35a56f35e00fa8d7096189d30181781590c78427eb71a3ac45562edbb3ee74ded15a81a58a6a854eff62fc99c14a1ec3> /U <3da51a45ef9075ac39587ad55d181c9c7361c5acc2b4c0091ecebb92ff2b070f4a01b09e9beec7d051f6a5fe86c2921e> /OE <cc8e13e6916386ae8fec3deaebfd6090bf0919d3fa537b42936348a25e4611af> /UE <61bc3f9d3aa97c2088ed4fd9c365ad361fda90fa874549ce71f9fb7cfcf6a453> /Perms <da58281f8c89aaf8792111c978b46b55>`,
  ],
  [
    'AES-256 (R5), user password',
    `/V 5 /R 5 /Length 256 ${AESV3} /O <6248f781845f371281fe3aca8721ba754d27205a20f9935f84078040e3060696c68ea55f773fe141b9111eebd895531c> /U <19d882e74c3796ea9854376e244e648f705ad12b1b37a68f7f6fd905a2ef19aaaec64bd9e38e90818caa4f4ae10dd665> /OE <670aa5c24c897870f408eac4fc75308656e51e4500790151a74f562835278dd4> /UE <d6a83cd17af847483b6ff4441c52ee2d37c3978bb66811dcbdaa18bbdc8e898e> /Perms <961a5cc6daf569ea43207b1ffe4694a6>`,
  ],
  [
    'AES-256 (R6), empty user password',
    `/V 5 /R 6 /Length 256 ${AESV3} /O <1b6431adeb682ec73e42e6416e46861daf4c1eb69348ee3a5984225348368b44efc91a68fd15b26fe11eba8ce694dd5a> /U <75d0e66cbb9ca65c27bc46c00bc4328b6b04005a683cec4d91bb19a6200e0a5de1bc700cea2d7e7ccc22d79ec39a90c8> /OE <868a0127ca8ec0b4aa114e45658e77764dca008f0d4e0ba839056a2e31e1e8e9> /UE <a3be7665224bc069e3944e5b5146593b70a19b3be9faba1b1d6a6a74a4d28565> /Perms <7c1c235659eb75fac8418d25e9e5fd97>`,
  ],
  [
    'AES-256 (R6), user password',
    `/V 5 /R 6 /Length 256 ${AESV3} /O <edbec6519759f6e79172b390b90577ada2f1d319788a17555cbfed325b349bbe3348afb6ed95998542ba51c977d39716> /U <28558bce3b19ce390b5c477606406072448f361416bb5cdbea8cf728f37d232f9c58d8e7f23791d0df32fdb37cb37268> /OE <1bacb0da7c3209cd65f22b45bf40dcb282d8a8237d0f55cb25639d60efd76fa5> /UE <596b49aac9d86c575665617df5b8bc29a9f866e6709f182b573adb7a14d1d94c> /Perms <63e19b8b71feef28bb738fbe5453219f>`,
  ],
];

describe('probePdf', () => {
  it.each(SECURITY_HANDLERS)('%s: opens as pdf.js does', async (name, dict) => {
    const bytes = encrypted(dict);
    const opened = await pdfjsOpens(bytes);
    expect(opened, 'the fixture itself').toBe(name.includes('empty') ? 1 : 'refused');
    expect(probe(bytes)).toBe(opened);
    expect(probeMessage(bytes)).toBe(name.includes('empty') ? 'read' : await readMessage(bytes));
  });

  it('refuses damaged files as a read does, with its message; counts what pdf.js counts', async () => {
    const pdf = Buffer.from((await twoColumnPdf({ pages: 3 })).bytes);
    const cases: [string, Uint8Array][] = [
      ['three pages', pdf],
      ['cut in half', pdf.subarray(0, Math.floor(pdf.length / 2))],
      ['a header then junk', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x5a)])],
      ['a catalog whose page tree is missing', Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n')],
      ['an empty page tree', pdfOfObjects(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>'])],
      ['no trailer: a catalog alone is not enough', Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n%%EOF\n')],
      ['no trailer, but a dictionary naming the root', Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n3 0 obj\n<< /Root 1 0 R >>\nendobj\n%%EOF\n')],
      ['encrypted (the shared fixture)', encryptedPdf()],
    ];
    for (const [name, bytes] of cases) {
      const opened = await pdfjsOpens(bytes);
      expect(probe(bytes), name).toBe(opened);
      if (opened === 'refused') expect(probeMessage(bytes), name).toBe(await readMessage(bytes));
    }
    expect(probe(pdf)).toBe(3);
  });

  it('refuses more pages than a read takes, with its message', async () => {
    const kids = Array.from({ length: 2001 }, (_, i) => `${i + 3} 0 R`).join(' ');
    const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';
    const bytes = pdfOfObjects(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count 2001 >>`, ...Array<string>(2001).fill(page)]);
    expect(probe(bytes)).toBe('refused');
    expect(probeMessage(bytes)).toBe(await readMessage(bytes));
    expect(probeMessage(bytes)).toMatch(/2001 pages; at most 2000/);
  });

  it.skipIf(!corpusAvailable())('counts the pages of every corpus PDF as pdf.js does, in milliseconds', async () => {
    const paths = readdirSync(join(CORPUS_DIR, 'documents')).flatMap((dir) =>
      readdirSync(join(CORPUS_DIR, 'documents', dir))
        .filter((name) => name.endsWith('.pdf'))
        .map((name) => `documents/${dir}/${name}`),
    );
    expect(paths.length).toBeGreaterThan(30);
    let slowest = 0;
    for (const path of paths) {
      const bytes = corpusBytes(path);
      const started = performance.now();
      const counted = probe(bytes);
      slowest = Math.max(slowest, performance.now() - started);
      expect(counted, path).toBe(await pdfjsOpens(bytes));
    }
    // o&m_sample2.pdf is encrypted with an empty user password (R2): opened, not refused.
    expect(probe(corpusBytes('documents/om_agreement/o&m_sample2.pdf'))).toBe(31);
    expect(slowest).toBeLessThan(500);
  }, 120_000);
});
