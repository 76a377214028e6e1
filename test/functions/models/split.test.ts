/**
 * quire-local splitting (API §4.1) on generated bundles: page accuracy, instances, "other", the output
 * rules, consensus and edge cases.
 */
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../functions/documents/csv.ts';
import type { Doc } from '../../../functions/documents/doc.ts';
import type { SplitRequest, SplitResult, Subdocument } from '../../../functions/models/engine.ts';
import { localEngine } from '../../../functions/models/local/index.ts';
import { probabilityOf } from '../../../functions/models/local/logistic-model.ts';
import { split, SPLIT_PAGE_FEATURES } from '../../../functions/models/local/split.ts';
import { SPLIT_PAGE_MODEL } from '../../../functions/models/local/weights/split-pages.ts';
import { bankStatement, contract, fixtureDoc, type FixtureBundle, type FixtureKind, invoice, longBundle, mixedBundle, packingList } from '../../support/bundle-fixtures.ts';

const SUBDOCUMENTS: Subdocument[] = [
  { name: 'invoice', description: 'A bill from a supplier requesting payment for goods or services', allow_multiple_instances: true },
  { name: 'contract', description: 'A legal agreement between parties that sets out terms and obligations', allow_multiple_instances: false },
  { name: 'bank statement', description: 'A periodic summary of transactions and balances on a bank account', allow_multiple_instances: false },
];
const NAME_OF: Record<FixtureKind, string> = { invoice: 'invoice', contract: 'contract', bank_statement: 'bank statement', packing_list: 'other', receipt: 'other', payslip: 'other' };

const request = (doc: Doc, over: Partial<SplitRequest> = {}): SplitRequest => ({ doc, subdocuments: SUBDOCUMENTS, instructions: null, nConsensus: 1, seed: 'seed-1', ...over });

/** The name each page got, by page index. */
function pageNames(result: SplitResult, pageCount: number): string[] {
  const names = Array<string>(pageCount).fill('');
  for (const entry of result.output) for (const page of entry.pages) names[page - 1] = entry.name;
  return names;
}

function truthNames(bundle: FixtureBundle, nameOf: Record<FixtureKind, string>): string[] {
  const names: string[] = [];
  for (const document of bundle.documents) for (const page of document.pages) names[page - 1] = nameOf[document.kind];
  return names;
}

/** API §4.1 rules: pages 1-based ascending, entries by first page, every page exactly once, likelihoods parallel and in 0..1. */
function expectWellFormed(result: SplitResult, pageCount: number, n: number): void {
  const seen = result.output.flatMap((e) => e.pages).sort((a, b) => a - b);
  expect(seen).toEqual(Array.from({ length: pageCount }, (_, i) => i + 1));
  for (const entry of result.output) expect(entry.pages).toEqual([...entry.pages].sort((a, b) => a - b));
  const firsts = result.output.map((e) => e.pages[0]!);
  expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
  expect(result.consensus.likelihoods).toHaveLength(result.output.length);
  result.consensus.likelihoods.forEach((l, i) => {
    expect(l.pages).toHaveLength(result.output[i]!.pages.length);
    for (const x of [l.name, ...l.pages]) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
    }
  });
  expect(result.consensus.choices).toHaveLength(n);
  // Names without multiple instances (and "other") appear once.
  const single = result.output.filter((e) => e.name !== 'invoice').map((e) => e.name);
  expect(new Set(single).size).toBe(single.length);
}

describe('split accuracy', () => {
  it('splits the 20-page bundle: page accuracy ≥ 95%, three invoice instances, the packing list as "other"', async () => {
    const bundle = mixedBundle(7);
    expect(bundle.pages).toHaveLength(20);
    const doc = fixtureDoc(bundle.pages);
    const result = await localEngine.split(request(doc));
    const got = pageNames(result, 20);
    const truth = truthNames(bundle, NAME_OF);
    const accuracy = got.filter((name, i) => name === truth[i]).length / 20;
    console.log(`split page accuracy (20-page bundle): ${(100 * accuracy).toFixed(1)}%\n  ${result.output.map((e) => `${e.name} [${e.pages.join(',')}]`).join('\n  ')}`);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
    const invoices = result.output.filter((e) => e.name === 'invoice');
    expect(invoices).toHaveLength(3);
    expect(invoices.map((e) => e.pages)).toEqual(bundle.documents.filter((d) => d.kind === 'invoice').map((d) => d.pages));
    expectWellFormed(result, 20, 1);
  });

  it('holds over many generated bundles, shuffled, with the packing list declared or not, and with votes', async () => {
    let correct = 0;
    let pages = 0;
    let instancesRight = 0;
    let bundles = 0;
    const withPacking: Subdocument[] = [...SUBDOCUMENTS, { name: 'packing list', description: 'A list of the goods in a shipment', allow_multiple_instances: false }];
    for (let seed = 1; seed <= 12; seed++) {
      for (const [subdocuments, nameOf] of [
        [SUBDOCUMENTS, NAME_OF],
        [withPacking, { ...NAME_OF, packing_list: 'packing list' }],
      ] as const) {
        const bundle = mixedBundle(seed, { shuffle: seed % 2 === 0 });
        const n = seed % 3 === 0 ? 5 : 1;
        const result = await localEngine.split(request(fixtureDoc(bundle.pages), { subdocuments, nConsensus: n, seed: `s${seed}` }));
        expectWellFormed(result, 20, n);
        const truth = truthNames(bundle, nameOf);
        correct += pageNames(result, 20).filter((name, i) => name === truth[i]).length;
        pages += 20;
        bundles++;
        const invoices = result.output.filter((e) => e.name === 'invoice').map((e) => e.pages);
        if (JSON.stringify(invoices) === JSON.stringify(bundle.documents.filter((d) => d.kind === 'invoice').map((d) => d.pages))) instancesRight++;
      }
    }
    console.log(`split page accuracy over ${bundles} bundles: ${((100 * correct) / pages).toFixed(2)}%, invoice instances exact in ${instancesRight}/${bundles}`);
    expect(correct / pages).toBeGreaterThanOrEqual(0.95);
    expect(instancesRight / bundles).toBeGreaterThanOrEqual(0.9);
  });
});

describe('split output rules', () => {
  it('without allow_multiple_instances one entry holds all pages of the name, contiguous or not', async () => {
    const bundle = { pages: [...contract(1, 2).pages, ...bankStatement(2, 2).pages, ...contract(3, 2).pages] };
    const result = await localEngine.split(request(fixtureDoc(bundle.pages)));
    expect(result.output).toEqual([
      { name: 'contract', pages: [1, 2, 5, 6] },
      { name: 'bank statement', pages: [3, 4] },
    ]);
    const multiple = await localEngine.split(request(fixtureDoc(bundle.pages), { subdocuments: SUBDOCUMENTS.map((s) => ({ ...s, allow_multiple_instances: true })) }));
    expect(multiple.output.map((e) => `${e.name}:${e.pages}`)).toEqual(['contract:1,2', 'bank statement:3,4', 'contract:5,6']);
  });

  it('pages that match no subdocument go to one "other" entry; nothing matching → all "other"', async () => {
    const doc = fixtureDoc([
      { blocks: [{ kind: 'paragraph', lines: ['Minutes of the garden club', 'We planted tulips and discussed the compost heap.'] }] },
      { blocks: [{ kind: 'paragraph', lines: ['Recipe: lemon cake', 'Mix flour, sugar and eggs; bake for forty minutes.'] }] },
    ]);
    const result = await localEngine.split(request(doc, { nConsensus: 3 }));
    expect(result.output).toEqual([{ name: 'other', pages: [1, 2] }]);
    expectWellFormed(result, 2, 3);
  });

  it('likelihoods come from the model for one vote, and from the votes\' own for several (not their shares)', async () => {
    const doc = fixtureDoc(mixedBundle(3).pages);
    const one = await localEngine.split(request(doc));
    // One vote: the single choice is the output itself.
    expect(one.consensus.choices).toEqual([one.output]);
    const five = await localEngine.split(request(doc, { nConsensus: 5 }));
    expect(five.output).toEqual(one.output);
    // Five votes that agree on a clear bundle are about as sure as one (each weighs the evidence a little
    // differently), not certain: a share of votes would say 1 for every page.
    five.consensus.likelihoods.forEach((l, e) =>
      l.pages.forEach((x, i) => {
        expect(x).toBeLessThan(0.99);
        expect(Math.abs(x - one.consensus.likelihoods[e]!.pages[i]!)).toBeLessThan(0.1);
      }),
    );
  });

  it("one vote's page likelihood is the learned model's probability of the page's features (npm run train, weights/split-pages.ts)", () => {
    // The shipped model was fitted with the features the engine computes, in their order.
    expect(SPLIT_PAGE_MODEL?.features).toEqual([...SPLIT_PAGE_FEATURES]);
    const doc = fixtureDoc(mixedBundle(3).pages);
    let features: number[][] = [];
    const result = split(request(doc), { model: SPLIT_PAGE_MODEL, trace: (x) => (features = x) });
    expect(features).toHaveLength(doc.pages.length);
    for (const x of features) expect(x).toHaveLength(SPLIT_PAGE_FEATURES.length);
    result.output.forEach((entry, e) =>
      entry.pages.forEach((page, i) => expect(result.consensus.likelihoods[e]!.pages[i]).toBeCloseTo(probabilityOf(SPLIT_PAGE_MODEL!, features[page - 1]!), 12)),
    );
    // Without a model a page has its segment's share of the evidence: other numbers, the same split.
    const unlearned = split(request(doc), { model: null });
    expect(unlearned.output).toEqual(result.output);
    expect(unlearned.consensus.likelihoods).not.toEqual(result.consensus.likelihoods);
  });
});

describe('split consensus and determinism', () => {
  it('the same request gives the same result', async () => {
    const doc = fixtureDoc(mixedBundle(5).pages);
    for (const n of [1, 4]) expect(await localEngine.split(request(doc, { nConsensus: n, seed: 'q' }))).toEqual(await localEngine.split(request(doc, { nConsensus: n, seed: 'q' })));
  });

  it('different seeds give different votes but the same consolidated split', async () => {
    // A 200-page file with receipts and payslips among the declared kinds: pages votes can read differently
    // (each vote weighs the evidence a little differently, so they part only where pages are close).
    const doc = fixtureDoc(longBundle(200).pages);
    const single = await localEngine.split(request(doc));
    let differing = 0;
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const result = await localEngine.split(request(doc, { nConsensus: 5, seed }));
      expectWellFormed(result, 200, 5);
      if (new Set(result.consensus.choices.map((choice) => JSON.stringify(choice))).size > 1) differing++;
      expect(result.output).toEqual(single.output);
    }
    expect(differing).toBeGreaterThan(0);
    // On a clear bundle every seed's consolidated split is the same.
    const clear = fixtureDoc(mixedBundle(9).pages);
    const reference = (await localEngine.split(request(clear))).output;
    for (const seed of ['a', 'b', 'c', 'd']) expect((await localEngine.split(request(clear, { nConsensus: 5, seed }))).output).toEqual(reference);
  });
});

describe('split edge cases', () => {
  it('a document without pages gives an empty split with n empty choices', async () => {
    const result = await localEngine.split(request({ kind: 'pdf', pages: [] }, { nConsensus: 2 }));
    expect(result).toEqual({ output: [], consensus: { likelihoods: [], choices: [[], []] } });
  });

  it('a blank page inside a document goes with it (a scan\'s back side)', async () => {
    const agreement = contract(4, 4).pages;
    const doc = fixtureDoc([...invoice({ seed: 3 }).pages, agreement[0]!, agreement[1]!, { blocks: [] }, agreement[2]!, agreement[3]!]);
    const result = await localEngine.split(request(doc));
    expect(result.output).toEqual([
      { name: 'invoice', pages: [1] },
      { name: 'contract', pages: [2, 3, 4, 5, 6] },
    ]);
    // …and the back side of its last page too (before, a blank last page went to "other").
    const closing = fixtureDoc([...invoice({ seed: 3 }).pages, ...agreement, { blocks: [] }]);
    expect((await localEngine.split(request(closing))).output).toEqual([
      { name: 'invoice', pages: [1] },
      { name: 'contract', pages: [2, 3, 4, 5, 6] },
    ]);
  });

  it('a page read as something else inside an agreement is the agreement\'s, also when the agreement is not the first document', async () => {
    // A schedule in the middle of an agreement, on the same paper, with nothing that starts a document:
    // read page by page it is a packing list (unasked) or a bank statement.
    const agreement = contract(5, 4).pages;
    const bill = invoice({ seed: 3 }).pages;
    for (const schedule of [packingList(2).pages[0]!, bankStatement(4).pages[0]!]) {
      const alone = fixtureDoc([agreement[0]!, agreement[1]!, schedule, agreement[2]!, agreement[3]!]);
      expect((await localEngine.split(request(alone))).output).toEqual([{ name: 'contract', pages: [1, 2, 3, 4, 5] }]);
      // After an invoice, the agreement's interruption was left as it was read (only the first change of
      // document was looked at).
      const after = fixtureDoc([...bill, agreement[0]!, agreement[1]!, schedule, agreement[2]!, agreement[3]!]);
      expect((await localEngine.split(request(after))).output).toEqual([
        { name: 'invoice', pages: [1] },
        { name: 'contract', pages: [2, 3, 4, 5, 6] },
      ]);
    }
  });

  it('pages of an unasked kind that end a document with nothing that starts another are its own (a schedule of goods), unless a title page opens them', async () => {
    const agreement = contract(5, 3).pages;
    // A packing list's second and third pages: its table and "Page 2 of 3", no header of their own.
    const goods = packingList(2, 3).pages;
    const bill = invoice({ seed: 3 }).pages;
    const appended = fixtureDoc([...bill, ...agreement, goods[1]!, goods[2]!]);
    expect((await localEngine.split(request(appended))).output).toEqual([
      { name: 'invoice', pages: [1] },
      { name: 'contract', pages: [2, 3, 4, 5, 6] },
    ]);
    // A title page of a few lines opens a document of its own; so does a packing list's own first page.
    const title = { blocks: [{ kind: 'paragraph' as const, lines: ['Annual report', 'Northwind Traders', 'March 2024'] }] };
    for (const pages of [[title, goods[1]!, goods[2]!], goods]) {
      expect((await localEngine.split(request(fixtureDoc([...bill, ...agreement, ...pages])))).output).toEqual([
        { name: 'invoice', pages: [1] },
        { name: 'contract', pages: [2, 3, 4] },
        { name: 'other', pages: [5, 6, 7] },
      ]);
    }
  });

  it('a page marker in any language the knowledge names starts an instance at its page 1: "Seite 1 von 2" as "Page 1 of 2"', async () => {
    const page = (lines: string[]) => ({ blocks: [{ kind: 'paragraph' as const, lines }] });
    const report = (marker: (i: number) => string) =>
      [1, 2].map((i) =>
        page(['Prüfbericht Haus Weber', 'Anlage: Heizungsanlage, Baujahr 2012', 'Die Prüfung der Anlage ergab keine Mängel an Brenner und Abgasweg.', 'Messwerte: Abgasverlust 6 %, CO 40 ppm.', marker(i)]),
      );
    const subdocuments = [{ name: 'report', description: 'An inspection report', allow_multiple_instances: true }];
    const instances = async (marker: (i: number) => string) => (await localEngine.split(request(fixtureDoc([...report(marker), ...report(marker)]), { subdocuments }))).output.map((e) => e.pages);
    for (const marker of [(i: number) => `Page ${i} of 2`, (i: number) => `Seite ${i} von 2`, (i: number) => `Página ${i} de 2`]) expect(await instances(marker)).toEqual([[1, 2], [3, 4]]);
    // Without a marker, two copies of the same report read as one.
    expect(await instances(() => '')).toEqual([[1, 2, 3, 4]]);
  });

  it('an e-mail address over a page whose page before printed none there starts a document: a CV after an agreement', async () => {
    const agreement = contract(5, 3).pages;
    const cv = (contact: string) => ({
      blocks: [
        { kind: 'paragraph' as const, lines: ['Maria Jensen', contact] },
        { kind: 'paragraph' as const, lines: ['Work experience', '2019–2024 Senior analyst, Northwind Traders, Copenhagen', '2015–2019 Analyst, Fabrikam A/S'] },
        { kind: 'paragraph' as const, lines: ['Education', 'MSc Economics, University of Aarhus, 2015'] },
        { kind: 'paragraph' as const, lines: ['Skills', 'Financial modelling, SQL, Python, Danish, English, German'] },
      ],
    });
    const names = async (contact: string) => pageNames(await localEngine.split(request(fixtureDoc([...agreement, cv(contact)]))), 4);
    expect(await names('maria.jensen@example.dk · +45 20 12 34 56')).toEqual(['contract', 'contract', 'contract', 'other']);
    // Without it, nothing starts a document there: the page read as a kind nobody asked for ends the agreement.
    expect(await names('Copenhagen · +45 20 12 34 56')).toEqual(['contract', 'contract', 'contract', 'contract']);
  });

  it('a cover that names nothing, on paper of its own, goes with the document it opens (a title slide saying "Welcome")', async () => {
    const para = (...lines: string[]) => ({ blocks: [{ kind: 'paragraph' as const, lines }] });
    const doc = fixtureDoc([
      ...contract(2, 2).pages,
      para('Welcome'),
      para('Problem', 'Customers find no easy way to book a room with a local host.'),
      para('Solution', 'A web platform where users rent out their space to travelers.'),
      para('Market validation', 'Traction: 660,000 users. Business model: we take 10% commission. Competition, team and the ask.'),
    ]);
    // The contract is on letter paper, the deck on landscape slides.
    doc.pages.forEach((page, i) => Object.assign(page, i < 2 ? { width: 612, height: 792, unit: 'pt' } : { width: 792, height: 612, unit: 'pt' }));
    const subdocuments = [...SUBDOCUMENTS, { name: 'pitch deck', description: 'A startup pitch deck', allow_multiple_instances: false }];
    const result = await localEngine.split(request(doc, { subdocuments }));
    expect(pageNames(result, 6)).toEqual(['contract', 'contract', 'pitch deck', 'pitch deck', 'pitch deck', 'pitch deck']);
  });

  it("a page under the running head of the pages before is theirs, even on other paper: a statement of account annexed to an agreement", async () => {
    const head = (text: string) => ({ kind: 'paragraph' as const, lines: [text] });
    const agreementHead = head('Master Services Agreement between Acme Holdings Ltd and Beta Systems LLC');
    const agreement = contract(7, 3).pages;
    const annexed = (annexHead: ReturnType<typeof head>) => {
      const pages = [agreement[0]!, agreement[1]!, bankStatement(4).pages[0]!, agreement[2]!];
      const doc = fixtureDoc(pages.map((page, i) => ({ blocks: [i === 2 ? annexHead : agreementHead, ...page.blocks] })));
      // The agreement's first pages on letter paper, the rest on legal-size paper.
      doc.pages.forEach((page, i) => Object.assign(page, { width: 612, height: i < 2 ? 792 : 1008, unit: 'pt' }));
      return doc;
    };
    expect((await localEngine.split(request(annexed(agreementHead)))).output).toEqual([{ name: 'contract', pages: [1, 2, 3, 4] }]);
    // Under a head of its own, the statement is a document of its own.
    const own = await localEngine.split(request(annexed(head('Northern Savings Bank plc Current Account'))));
    expect(pageNames(own, 4)).toEqual(['contract', 'contract', 'bank statement', 'contract']);
  });

  it('a blank sheet of other paper between pages under one running head is inside the document; before pages that print no such head, the document ends before it', async () => {
    const head = (text: string) => ({ kind: 'paragraph' as const, lines: [text] });
    const agreementHead = head('Master Services Agreement between Acme Holdings Ltd and Beta Systems LLC');
    const agreement = contract(7, 4).pages;
    const statement = bankStatement(4, 2).pages;
    // The agreement's first two pages on letter paper; a blank legal-size sheet; the rest on legal-size paper.
    const sized = (doc: Doc) => {
      doc.pages.forEach((page, i) => Object.assign(page, { width: 612, height: i < 2 ? 792 : 1008, unit: 'pt' }));
      return doc;
    };
    const blank = { blocks: [] };
    const headed = sized(fixtureDoc([agreement[0]!, agreement[1]!, blank, agreement[2]!, agreement[3]!].map((page) => ({ blocks: page.blocks.length === 0 ? [] : [agreementHead, ...page.blocks] }))));
    // Agreements may come several to a bundle: one, not two.
    const several = SUBDOCUMENTS.map((sub) => ({ ...sub, allow_multiple_instances: true }));
    expect((await localEngine.split(request(headed, { subdocuments: several }))).output).toEqual([{ name: 'contract', pages: [1, 2, 3, 4, 5] }]);
    // A statement with no head of the agreement's after it: the agreement ends before the blank sheet.
    const apart = pageNames(await localEngine.split(request(sized(fixtureDoc([agreement[0]!, agreement[1]!, blank, ...statement])))), 5);
    expect(apart.slice(0, 2)).toEqual(['contract', 'contract']);
    expect(apart[2]).not.toBe('contract');
    expect(apart.slice(3)).toEqual(['bank statement', 'bank statement']);
  });

  it('landscape slides with little text are read as slides together: a deck whose opening slides talk of booking rooms is one deck', async () => {
    const para = (...lines: string[]) => ({ blocks: [{ kind: 'paragraph' as const, lines }] });
    const doc = fixtureDoc([
      ...invoice({ seed: 5 }).pages,
      para('Welcome 1', 'RoomShare', 'Book rooms with locals, rather than hotels.'),
      para('Problem 2', 'Price is an important concern for customers', 'booking travel online.', 'Hotels leave you disconnected from the city and its culture.'),
      para('Solution 3', 'A web platform where users can rent out their', 'space to host travelers to save money and share culture.'),
      para('Market Size 5', 'Trips booked (worldwide)', 'Total available market', 'Share of market: 15% of available market'),
    ]);
    doc.pages.forEach((page, i) => Object.assign(page, i === 0 ? { width: 612, height: 792, unit: 'pt' } : { width: 792, height: 612, unit: 'pt' }));
    const subdocuments = [SUBDOCUMENTS[0]!, { name: 'pitch deck', description: 'A startup pitch deck', allow_multiple_instances: false }];
    const result = await localEngine.split(request(doc, { subdocuments }));
    expect(pageNames(result, 5)).toEqual(['invoice', 'pitch deck', 'pitch deck', 'pitch deck', 'pitch deck']);
  });

  it('worksheets are a workbook\'s pages whatever their cells say (an e-mail\'s XLSX or CSV attachment after its invoice)', async () => {
    const csv = 'Segment,H1 2023,H1 2022,Change\nEurope,1204,1130,6.5%\nAmericas,2310,2275,1.5%\nAsia Pacific,877,912,-3.8%\nTotal,4391,4317,1.7%\n';
    const sheet = readCsv(new TextEncoder().encode(csv))[0]!;
    const doc = fixtureDoc(invoice({ seed: 3 }).pages);
    doc.pages.push({ ...sheet, number: doc.pages.length + 1 });
    const subdocuments = [SUBDOCUMENTS[0]!, { name: 'spreadsheet', description: 'A spreadsheet or workbook', allow_multiple_instances: false }];
    const result = await localEngine.split(request(doc, { subdocuments }));
    expect(pageNames(result, doc.pages.length).at(-1)).toBe('spreadsheet');
    expect(pageNames(result, doc.pages.length).slice(0, -1).every((name) => name === 'invoice')).toBe(true);
  });

  it('pages without text go to "other"', async () => {
    const result = await localEngine.split(request(fixtureDoc([{ blocks: [] }, { blocks: [] }, { blocks: [] }])));
    expect(result.output).toEqual([{ name: 'other', pages: [1, 2, 3] }]);
  });

  it('a subdocument named "other" shares the entry of unmatched pages', async () => {
    const doc = fixtureDoc([...invoice({ seed: 1 }).pages, { blocks: [{ kind: 'paragraph', lines: ['Holiday photos'] }] }]);
    const result = await localEngine.split(request(doc, { subdocuments: [SUBDOCUMENTS[0]!, { name: 'other', description: 'Anything else', allow_multiple_instances: false }] }));
    expect(result.output).toEqual([
      { name: 'invoice', pages: [1] },
      { name: 'other', pages: [2] },
    ]);
  });
});
