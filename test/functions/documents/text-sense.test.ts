/**
 * Unusable text layers (issue 23, "no silent loss"): a PDF whose fonts map glyphs to the wrong
 * characters is read by OCR; real text layers (prose, tables of figures, part numbers, other scripts)
 * are not flagged.
 */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../../functions/documents/read.ts';
import { readPdf } from '../../../functions/documents/pdf.ts';
import { judgeToken, looksGarbled } from '../../../functions/documents/text-sense.ts';
import { corpusAvailable, corpusBytes } from '../../support/corpus.ts';

const AIRBNB = 'documents/pitch_deck/airbnb_pitch_deck.pdf';

describe('text sense', () => {
  it('tells garbage words from words, numbers, codes and other scripts', () => {
    for (const garbage of ['9ffbiffdjn`k_cfZXcj#iXk_\\ik_Xe_fk\\cj%', 'J<8I:?9P:@KP', 'nnn%n\\YnXi\\%Zfd', 'Gi`Z\\`jX`dgfikXekZfeZ\\ie]fiZljkfd\\ij', 'cfzxcjbt']) {
      expect(judgeToken(garbage), garbage).toBe('implausible');
    }
    for (const real of ['Book', 'rooms', "l'homme", 'Jean-Luc', 'and/or', 'tire(s).', '$1,234.50', '12/05/2024', 'ES1000', 'WA45-/2A', 'F-14', 'IV.E.1.b', 'US$250,000', '20°F', 'μg/L', 'joe@airbedandbreakfast.com', 'www.airbedandbreakfast.com', 'NEtFOSAA', 'kWh', '서울특별시', 'الرياض', 'Москва', '東京都', 'Straße', 'Größe', '公司董事会、监事会及董事', '营业收入（元）', '基本每股收益（元/股）', '《上市公司收购管理办法》', '「東京」、', '新增发行H股',
      // Code and markup printed in manuals and templates.
      '<groupId>org.mustangproject.ZUGFeRD</groupId>', '</repositories>', '<asm/io.h>', '#include', 'BUYER_ADDR_1', 'setup_works', 'ZUGFeRDExporterFromA1Factory().setProducer("My', 'bd->bd.next', 'E:\\FR\\FM\\06AUP1.SGM']) {
      expect(judgeToken(real), real).toBe('plausible');
    }
  });

  it('flags a wrongly mapped text layer and no real page of prose, figures, codes or other scripts', () => {
    expect(looksGarbled(['Welcome', '1', '9ffbiffdjn`k_cfZXcj#iXk_\\ik_Xe_fk\\cj%', '19 rausch street, ste c, san francisco, ca 94103'])).toBe(true);
    // A Caesar-shifted font with no symbols: prose-like words, none of them a common word.
    const shifted = 'xli uymgo fvsar jsb nyqtw sziv xli pedc hsk erh xlir vyrw eaec jvsq xli jevq'.repeat(4).split(' ');
    expect(looksGarbled(shifted)).toBe(true);
    const prose = 'Book rooms with locals, rather than hotels. Price is an important concern for customers booking travel online.';
    const figures = 'Q1 FY26 $44,062 $39,331 12% 69% (10)% Y/Y Q/Q 2,345.67 0.0123 1,000,000 -4.5% 3.11 4.62 11.23';
    const parts = 'WA45-/2A 9555916500133 ES1000 EW-1000-1L RE-71RS F-87 VI.C.5.a #EO-93-036-MM R&I A/M w/o';
    const korean = '대한민국 헌법 제1조 대한민국은 민주공화국이다 모든 권력은 국민으로부터 나온다';
    const arabic = 'تعتبر المملكة العربية السعودية من أكبر الدول المصدرة للنفط في العالم';
    const chinese = '本公司的财务报告显示收入增长了百分之十二';
    const german = 'Für Schülern und Lehrer: die Größe der Straße ist 12 m. Rüdiger wohnt dort.';
    const form = 'NAME:[______________] DATE:[________] VOLTAGE:[_______] ........ MAX[_____]kW';
    for (const text of [prose, figures, parts, korean, arabic, chinese, german, form]) expect(looksGarbled(text.split(' ')), text).toBe(false);
  });

  it.skipIf(!corpusAvailable())('flags no page of the born-digital corpus PDFs but the airbnb deck', async () => {
    // A few documents of every kind of text: prose, a form with blanks, tables of figures, codes.
    const documents = [
      'documents/press_release/NVIDIA-PR-Q1-2026.pdf',
      'documents/power_purchase_agreement/ppa_sample1.pdf',
      'documents/repair_estimate/repair_estimates_sample1.pdf',
      'documents/warranty_booklet/warranty_booklet_sample3.pdf',
      'documents/fact_sheet/ETF-facts.pdf',
      'documents/book_listing/energy_insurance_sample1.pdf',
      // Chinese: a clause is one "word", with its commas and brackets inside (it was OCR'd, in English, page by page).
      'documents/report/issue-67-example.pdf',
      // Source code, XML, C, an order template's placeholders (these pages were OCR'd too).
      'documents/manual/ZugferdDev.de.pdf',
      'documents/scientific_paper/issue-982-example.pdf',
      'documents/purchase_order/ORDER-X_EX01_ORDER_FULL_DATA-COMFORT.pdf',
      'documents/legal_text/federal-register-2020-17221.pdf',
    ];
    for (const document of documents) {
      const pages = await readPdf(corpusBytes(document), { deadline: Date.now() + 120_000 });
      const flagged = pages.filter((page) => looksGarbled(page.words.map((w) => w.text))).map((page) => page.number);
      expect(flagged, document).toEqual([]);
    }
    const deck = await readPdf(corpusBytes(AIRBNB), { deadline: Date.now() + 120_000 });
    const flagged = deck.filter((page) => looksGarbled(page.words.map((w) => w.text))).map((page) => page.number);
    expect(flagged).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  }, 120_000);

  it.skipIf(!corpusAvailable())('reads the airbnb deck slides whose text layer is garbage by OCR', async () => {
    // Two slides of the real deck (the whole deck is 14 pages of OCR): its fonts map "Book rooms with
    // locals, rather than hotels." to "9ffbiffdjn`k_cfZXcj#iXk_\ik_Xe_fk\cj%".
    const source = await PDFDocument.load(corpusBytes(AIRBNB));
    const excerpt = await PDFDocument.create();
    for (const page of await excerpt.copyPages(source, [0, 1])) excerpt.addPage(page);
    const bytes = await excerpt.save();
    const doc = await readDocument(bytes, { kind: 'pdf', dpi: 192, deadline: Date.now() + 120_000 });
    const words = doc.pages.flatMap((page) => page.words.map((w) => w.text.toLowerCase().replace(/[^\p{L}]/gu, '')));
    for (const word of ['book', 'rooms', 'locals', 'hotels', 'price', 'travel']) expect(words, word).toContain(word);
    // The slides' pale titles, which OCR misses, are kept from the text layer where they read as words.
    for (const word of ['welcome', 'problem']) expect(words, word).toContain(word);
    expect(words).not.toContain('ffbiffdjnkcfzxcjixkikxefkcj');
    expect(doc.pages.every((page) => page.ocr)).toBe(true);
    expect(looksGarbled(doc.pages.flatMap((page) => page.words.map((w) => w.text)))).toBe(false);
  }, 120_000);
});
