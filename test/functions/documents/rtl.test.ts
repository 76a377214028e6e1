/**
 * Right-to-left lines (./functions/documents/bidi.ts) in PDFs a real browser prints: Debian's
 * chromium (playwright-core, headless) shapes Arabic and Hebrew with the system's DejaVu fonts and
 * places the glyphs left to right as printed, as real producers do. The reader must give each line in
 * reading order, left-to-right runs (numbers, Latin names) kept whole, Arabic presentation forms read
 * as letters. `.ci/run` installs chromium and DejaVu.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRtlLine, logicalOrder, plainLetters } from '../../../functions/documents/bidi.ts';
import { readDocument } from '../../../functions/documents/read.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

const LINES = [
  'مرحبا بالعالم هذه فاتورة رقم 12345 بتاريخ اليوم',
  'المبلغ الإجمالي 250 دولار مع شركة Acme Corp للتجارة',
  'שלום עולם זוהי חשבונית מספר 678',
  'An English line for contrast.',
];

let browser: Browser;
beforeAll(async () => {
  if (!CHROMIUM) throw new Error('This test needs Debian chromium: apt-get install chromium');
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  await browser?.close();
});

async function printed(html: string): Promise<Uint8Array> {
  const page = await browser.newPage();
  await page.setContent(`<html><head><meta charset="utf-8"><style>body{font-family:'DejaVu Sans';font-size:14pt}</style></head><body>${html}</body></html>`);
  const pdf = await page.pdf({ format: 'A4' });
  await page.close();
  return new Uint8Array(pdf);
}

describe('right-to-left lines in a printed PDF', () => {
  it('reads Arabic and Hebrew lines in reading order, numbers and Latin names kept whole', { timeout: 60_000 }, async () => {
    const bytes = await printed(LINES.map((line, i) => `<p${i < 3 ? ' dir="rtl"' : ''}>${line}</p>`).join(''));
    const doc = await readDocument(bytes, { kind: 'pdf', dpi: 200, deadline: Date.now() + 30_000 });
    const page = doc.pages[0]!;
    expect(page.lines.map((l) => l.text)).toEqual(LINES);
    // The first word read of an Arabic line is the one printed rightmost.
    const first = page.lines[0]!;
    const lefts = first.words.map((w) => page.words[w]!.box!.left);
    expect(lefts[0]).toBe(Math.max(...lefts));
    expect(page.words[first.words[0]!]!.text).toBe('مرحبا');
  });
});

describe('bidi helpers', () => {
  it('orders a right-to-left line right to left, keeping left-to-right runs in their order', () => {
    // As printed, left to right: "للتجارة Acme Corp شركة مع"
    const printedOrder = ['للتجارة', 'Acme', 'Corp', 'شركة', 'مع'];
    expect(logicalOrder(printedOrder, (w) => w)).toEqual(['مع', 'شركة', 'Acme', 'Corp', 'للتجارة']);
    expect(logicalOrder(['Total', '250', 'EUR'], (w) => w)).toEqual(['Total', '250', 'EUR']);
    // A left-to-right line with one Arabic name stays as printed.
    expect(isRtlLine(['Supplier:', 'شركة', 'Acme', 'Trading', 'International'])).toBe(false);
  });

  it('reads Arabic presentation forms as the letters they show', () => {
    expect(plainLetters('ﺎﺒﺣﺮﻣ')).toBe('ابحرم');
    expect(plainLetters('ﻻ')).toBe('لا');
    expect(plainLetters('Invoice ﬁle')).toBe('Invoice ﬁle');
  });
});
