/**
 * Straight lines of a scanned page: long, thin runs of dark pixels, horizontal and vertical, in PDF
 * points (the raster's dpi gives the scale). Form field detection finds underlines and boxes in them
 * as it does in a PDF's vector strokes.
 *
 * Rows (or columns) are scanned for dark runs at least MIN_LENGTH_PT long; runs of neighbouring rows
 * with the same extent are one line; a "line" thicker than MAX_THICKNESS_PT is a filled area, not a rule.
 */
import type { GreyImage, Rule } from './doc.ts';

const DARK = 160;
const MIN_LENGTH_PT = 7;
const MAX_THICKNESS_PT = 4;
/** Runs of neighbouring rows belong to one line when their ends are this close (pixels). */
const END_TOLERANCE_PX = 4;

interface Run {
  from: number;
  to: number;
}

interface Open extends Run {
  first: number;
  last: number;
}

/**
 * Light pixels a run may bridge (the anti-aliased joins of underscore glyphs), as long as the run
 * stays mostly dark: a row through text crosses letter stems and counters, about half dark.
 */
const GAP_PX = 4;
const MIN_DENSITY = 0.75;

/** Dark runs of one row (or column) at least `minLength` long. */
function runsOf(length: number, dark: (i: number) => boolean, minLength: number): Run[] {
  const runs: Run[] = [];
  let start = -1;
  let lastDark = -1;
  let count = 0;
  const end = () => {
    const span = lastDark - start + 1;
    if (span >= minLength && count >= MIN_DENSITY * span) runs.push({ from: start, to: lastDark });
    start = -1;
    count = 0;
  };
  for (let i = 0; i < length; i++) {
    if (dark(i)) {
      if (start >= 0 && i - lastDark - 1 > GAP_PX) end();
      if (start < 0) start = i;
      lastDark = i;
      count++;
    }
  }
  if (start >= 0) end();
  return runs;
}

/** Lines along one axis: `lines` rows of `length` pixels; `at(line, i)` reads a pixel. */
function linesAlong(lines: number, length: number, at: (line: number, i: number) => number, minLength: number, maxThickness: number): Open[] {
  const found: Open[] = [];
  let open: Open[] = [];
  const close = (segment: Open) => {
    if (segment.last - segment.first + 1 <= maxThickness) found.push(segment);
  };
  for (let line = 0; line < lines; line++) {
    const runs = runsOf(length, (i) => at(line, i) < DARK, minLength);
    const next: Open[] = [];
    for (const run of runs) {
      const i = open.findIndex((s) => Math.abs(s.from - run.from) <= END_TOLERANCE_PX && Math.abs(s.to - run.to) <= END_TOLERANCE_PX);
      if (i >= 0) {
        const segment = open[i]!;
        open.splice(i, 1);
        next.push({ from: Math.min(segment.from, run.from), to: Math.max(segment.to, run.to), first: segment.first, last: line });
      } else {
        next.push({ ...run, first: line, last: line });
      }
    }
    for (const segment of open) close(segment);
    open = next;
  }
  for (const segment of open) close(segment);
  return found;
}

/** Lines at least this long are erased before OCR: they are no text, and they make it drop the text beside them. */
const ERASE_MIN_PT = 20;

/**
 * The rules of a scanned page (in points), and (with `erase`) the page with its long lines erased:
 * OCR reads the labels of a form far better without the underlines and box borders that touch them
 * (though it reads ruled tables worse, so only form filling asks for it).
 */
export function scanLines(image: GreyImage, options: { erase: boolean } = { erase: true }): { rules: Rule[]; cleaned: GreyImage } {
  const { width, height, data, dpi } = image;
  const scale = 72 / dpi;
  const minLength = Math.round(MIN_LENGTH_PT / scale);
  const maxThickness = Math.max(2, Math.round(MAX_THICKNESS_PT / scale));
  const horizontal = linesAlong(height, width, (y, x) => data[y * width + x]!, minLength, maxThickness);
  const vertical = linesAlong(width, height, (x, y) => data[y * width + x]!, minLength, maxThickness);
  const pt = (n: number) => Math.round(n * scale * 100) / 100;
  const rules = [
    ...horizontal.map((h) => ({ x1: pt(h.from), y1: pt((h.first + h.last) / 2), x2: pt(h.to + 1), y2: pt((h.first + h.last) / 2) })),
    ...vertical.map((v) => ({ x1: pt((v.first + v.last) / 2), y1: pt(v.from), x2: pt((v.first + v.last) / 2), y2: pt(v.to + 1) })),
  ];
  const eraseFrom = Math.round(ERASE_MIN_PT / scale);
  const long = (s: Open) => s.to - s.from + 1 >= eraseFrom;
  if (!options.erase || (!horizontal.some(long) && !vertical.some(long))) return { rules, cleaned: image };
  const cleaned = new Uint8Array(data);
  for (const h of horizontal.filter(long)) {
    for (let y = Math.max(0, h.first - 1); y <= Math.min(height - 1, h.last + 1); y++) cleaned.fill(255, y * width + h.from, y * width + h.to + 1);
  }
  for (const v of vertical.filter(long)) {
    for (let y = v.from; y <= v.to; y++) for (let x = Math.max(0, v.first - 1); x <= Math.min(width - 1, v.last + 1); x++) cleaned[y * width + x] = 255;
  }
  return { rules, cleaned: { ...image, data: cleaned } };
}
