/**
 * The PP-OCR reader (functions/documents/ppocr.ts) on a rendered scan, whose words and boxes are
 * known, and on a real photographed receipt from the corpus, whose printed text was read by eye.
 */
import { describe, expect, it } from 'vitest';
import type { Box, Word } from '../../../functions/documents/doc.ts';
import { decodeImage } from '../../../functions/documents/image.ts';
import { createOcrPool, ocrReaderOf, recognizeReadable } from '../../../functions/documents/ocr.ts';
import { turnGrey } from '../../../functions/documents/orientation.ts';
import { paddleRecognize } from '../../../functions/documents/ppocr.ts';
import { corpusAvailable, corpusBytes } from '../../support/corpus.ts';
import { renderScan, wordAccuracy } from '../../support/scan-fixtures.ts';

function overlapShare(inner: Box, outer: Box): number {
  const width = Math.min(inner.left + inner.width, outer.left + outer.width) - Math.max(inner.left, outer.left);
  const height = Math.min(inner.top + inner.height, outer.top + outer.height) - Math.max(inner.top, outer.top);
  return width <= 0 || height <= 0 ? 0 : (width * height) / (inner.width * inner.height);
}

/** The words in reading order: lines top to bottom (a word starts a line below the last one's middle), left to right. */
function readingOrder(words: Word[]): string[] {
  const sorted = [...words].sort((a, b) => a.box!.top - b.box!.top);
  const lines: Word[][] = [];
  for (const word of sorted) {
    const last = lines.at(-1);
    if (last && word.box!.top < last[0]!.box!.top + last[0]!.box!.height / 2) last.push(word);
    else lines.push([word]);
  }
  return lines.flatMap((line) => line.sort((a, b) => a.box!.left - b.box!.left).map((w) => w.text));
}

/** A word read on an image turned half round, as it sits on the image upright (to compare reading order). */
function turned(word: Word, image: { width: number; height: number }): Word {
  const b = word.box!;
  return { ...word, box: { left: image.width - b.left - b.width, top: image.height - b.top - b.height, width: b.width, height: b.height } };
}

describe('PP-OCR reader', () => {
  it('reads a 200 dpi scan word for word, each word boxed where it was printed', async () => {
    const scan = renderScan({ dpi: 200 });
    const words = await paddleRecognize(scan.image);
    const accuracy = wordAccuracy(readingOrder(words), scan.words);
    console.log(`PP-OCR 200 dpi scan: word accuracy ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy).toBeGreaterThanOrEqual(0.97);
    for (const word of words) {
      expect(word.origin).toEqual({ kind: 'box', page: 0, box: word.box });
      expect(word.confidence).toBeGreaterThan(0);
      expect(word.confidence).toBeLessThanOrEqual(100);
    }
    // A word printed once and read once: its box holds most of the printed word and little else (a
    // box's ends are placed to about half a character: short words overlap less).
    const shares: number[] = [];
    const tallest = Math.max(...scan.boxes.map((b) => b.box.height));
    for (const printed of scan.boxes.filter((b) => scan.boxes.filter((o) => o.text === b.text).length === 1)) {
      const found = words.filter((w) => w.text === printed.text);
      if (found.length !== 1) continue;
      shares.push(overlapShare(printed.box, found[0]!.box!));
      expect(shares.at(-1), printed.text).toBeGreaterThan(0.5);
      expect(found[0]!.box!.width, printed.text).toBeLessThan(printed.box.width * 1.3 + printed.box.height);
      expect(found[0]!.box!.height, printed.text).toBeLessThan(tallest * 1.5);
    }
    expect(shares.length).toBeGreaterThan(50);
    expect(shares.reduce((a, b) => a + b, 0) / shares.length).toBeGreaterThan(0.8); // 0.84 measured
  }, 60_000);

  it('reads a page twice with the "both" reader: Tesseract first, PP-OCR second, turned upright alike', async () => {
    // Scanned upside down: both readings are of the page turned upright, boxes where the words are
    // printed on the page as scanned.
    const scan = renderScan({ dpi: 150 });
    const upsideDown = turnGrey(scan.image, 180);
    const pool = await createOcrPool({ size: 1, reader: 'both' });
    try {
      const { words, second } = await recognizeReadable(pool, upsideDown, { second: true });
      expect((await recognizeReadable(pool, upsideDown)).second).toBeUndefined();
      expect(wordAccuracy(readingOrder(second!.map((w) => turned(w, upsideDown))), scan.words)).toBeGreaterThanOrEqual(0.95);
      expect(wordAccuracy(readingOrder(words.map((w) => turned(w, upsideDown))), scan.words)).toBeGreaterThanOrEqual(0.95);
      // The same word read by both lies in the same place.
      const shares = second!.flatMap((w) => {
        const same = words.filter((o) => o.text === w.text && o.text.length >= 6);
        return same.length === 1 ? [overlapShare(same[0]!.box!, w.box!)] : [];
      });
      expect(shares.length).toBeGreaterThan(30);
      expect(shares.reduce((a, b) => a + b, 0) / shares.length).toBeGreaterThan(0.7);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it.runIf(corpusAvailable())('reads a tax name run into its rate as two words', async () => {
    // ../shared/corpus/documents/receipt/X51005441402.jpg, read by eye: the tax summary's row
    // "SR GST 6% 166.00 9.90", printed close; the model writes "GST6%".
    const [image] = await decodeImage(corpusBytes('documents/receipt/X51005441402.jpg'), 'jpeg');
    const words = readingOrder(await paddleRecognize(image!));
    const at = words.indexOf('GST', words.indexOf('SR'));
    expect(words.slice(at, at + 2)).toEqual(['GST', '6%']);
    expect(words).not.toContain('GST6%');
  }, 60_000);

  it('reads a page once, as a single reader would, when the second reader fails', async () => {
    const scan = renderScan({ dpi: 150 });
    const pool = await createOcrPool({ size: 1, reader: 'tesseract' });
    try {
      const failing = { ...pool, recognize: pool.recognize.bind(pool), readSecond: () => Promise.reject(new Error('onnxruntime cannot load here')) };
      const reading = await recognizeReadable(failing, scan.image, { second: true });
      expect(reading.second).toBeUndefined();
      expect(wordAccuracy(readingOrder(reading.words), scan.words)).toBeGreaterThanOrEqual(0.95);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('reads an upright page the second time while the first reader reads it, and a turned page again, turned', async () => {
    const scan = renderScan({ dpi: 150 });
    const pool = await createOcrPool({ size: 1, reader: 'tesseract' });
    try {
      // A second reader that says which of its calls it is, how large the page it was given was, and
      // whether the first reader had finished by then.
      let firstDone = false;
      const calls: Array<{ firstDone: boolean; width: number }> = [];
      const recognize = async (image: Parameters<typeof pool.recognize>[0], options?: { block?: boolean }) => {
        const words = await pool.recognize(image, options);
        firstDone = true;
        return words;
      };
      const readSecond = async (image: Parameters<typeof pool.recognize>[0]): Promise<Word[]> => {
        calls.push({ firstDone, width: image.width });
        const box = { left: 10, top: 20, width: 30, height: 10 };
        return [{ text: `call${calls.length}`, box, origin: { kind: 'box', page: 0, box } }];
      };
      const reader = { ...pool, recognize, readSecond, detectOrientation: pool.detectOrientation!.bind(pool) };
      const upright = await recognizeReadable(reader, scan.image, { second: true });
      expect(calls).toEqual([{ firstDone: false, width: scan.image.width }]);
      expect(upright.second?.map((w) => w.text)).toEqual(['call1']);
      expect(wordAccuracy(readingOrder(upright.words), scan.words)).toBeGreaterThanOrEqual(0.95);

      // Turned a quarter: the reading of the page as it is was not of the upright page; the one kept
      // is of the page turned upright (as wide as the scan is high), its box back on the page as given.
      calls.length = 0;
      firstDone = false;
      const sideways = turnGrey(scan.image, 90);
      const turned = await recognizeReadable(reader, sideways, { second: true });
      expect(calls.map((c) => c.width)).toEqual([sideways.width, sideways.height]);
      expect(calls[0]!.firstDone).toBe(false);
      expect(turned.second?.map((w) => w.text)).toEqual(['call2']);
      expect(turned.second![0]!.box).not.toEqual({ left: 10, top: 20, width: 30, height: 10 });
    } finally {
      await pool.close();
    }
  }, 120_000);

  it.runIf(corpusAvailable())('reads a photo Tesseract finds no text on by the second reader, asked or not; a page Tesseract reads well is read once', async () => {
    // ../shared/corpus/documents/certificate_of_origin/certificate_of_origin_sample4_picture.jpg, read
    // by eye: a 640 × 480 photo of a certificate on a guilloche background, titled "MANUFACTURER'S
    // CERTIFICATE OF ORIGIN", issued by "TAIZHOU ZHONGNENG MOTORCYCLE CO., LTD" to "COUNTYIMPORTS.COM",
    // "LAS VEGAS, NV 89104". Tesseract reads no word of it, at any turn or size.
    const [photo] = await decodeImage(corpusBytes('documents/certificate_of_origin/certificate_of_origin_sample4_picture.jpg'), 'jpeg');
    const pool = await createOcrPool({ size: 1, reader: 'both' });
    try {
      expect(await pool.recognize(photo!)).toEqual([]);
      const alone = await recognizeReadable(pool, photo!);
      const text = alone.words.map((w) => w.text).join(' ');
      for (const printed of ['CERTIFICATE', 'ZHONGNENG', 'MOTORCYCLE', 'COUNTYIMPORTS.COM', '89104']) expect(text).toContain(printed);
      expect(alone.second).toBeUndefined();
      // Asked for two readings, the better one is the page's text and Tesseract's (nothing) the second.
      const twice = await recognizeReadable(pool, photo!, { second: true });
      expect(twice.words.map((w) => w.text).join(' ')).toContain('ZHONGNENG');
      expect(twice.second).toEqual([]);

      // ../shared/corpus/documents/medical_bill/medical_bill_sample6_bad_quality.jpg, read by eye: a
      // UB-04 claim form, blurred: "OUTPATIENT" over it, "Anytown", "Report HIPAA National …" and
      // "AmeriHealth" among its boxes. Tesseract reads it poorly ("Any Hospital" as "ny apie"), PP-OCR
      // (whose detector finds few of its lines) worse: Tesseract's reading stays.
      const [bill] = await decodeImage(corpusBytes('documents/medical_bill/medical_bill_sample6_bad_quality.jpg'), 'jpeg');
      const billText = (await recognizeReadable(pool, bill!)).words.map((w) => w.text).join(' ');
      for (const printed of ['OUTPATIENT', 'Anytown', 'HIPAA', 'AmeriHealth']) expect(billText).toContain(printed);

      // A clean scan reads well: the second reader is not asked when no second reading is.
      const scan = renderScan({ dpi: 150 });
      let asked = 0;
      const counting = { ...pool, recognize: pool.recognize.bind(pool), detectOrientation: pool.detectOrientation!.bind(pool), readSecond: (image: Parameters<typeof pool.recognize>[0]) => (asked++, pool.readSecond!(image)) };
      const clean = await recognizeReadable(counting, scan.image);
      expect(asked).toBe(0);
      expect(wordAccuracy(readingOrder(clean.words), scan.words)).toBeGreaterThanOrEqual(0.95);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('names the readers QUIRE_OCR may pick, and refuses another', () => {
    expect(ocrReaderOf(undefined)).toBe('both');
    expect(ocrReaderOf('tesseract')).toBe('tesseract');
    expect(ocrReaderOf('both')).toBe('both');
    expect(() => ocrReaderOf('padle')).toThrow(/tesseract, paddle or both, not "padle"/);
  });

  it.runIf(corpusAvailable())('reads a photographed receipt: small-print digits, spaces between words set close, decimals whole', async () => {
    // ../shared/corpus/documents/receipt/X00016469669.jpg, read by eye: "ABC HO TRADING" at the top,
    // "Cash Bill : 01-143008", and the one line "Plastic 2 15.50 31.00".
    const [image] = await decodeImage(corpusBytes('documents/receipt/X00016469669.jpg'), 'jpeg');
    const words = readingOrder(await paddleRecognize(image!));
    const text = ` ${words.join(' ')} `;
    expect(text).toContain(' ABC HO TRADING ');
    expect(text).toContain(' 01-143008 ');
    for (const amount of ['15.50', '31.00', '101.00', '70.00']) expect(words).toContain(amount);
    expect(words).toContain('Plastic');
  }, 60_000);
});
