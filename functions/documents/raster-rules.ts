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

/** Dark runs of one row (or column) at least `minLength` long. */
function runsOf(length: number, dark: (i: number) => boolean, minLength: number): Run[] {
  const runs: Run[] = [];
  let start = -1;
  for (let i = 0; i <= length; i++) {
    const isDark = i < length && dark(i);
    if (isDark && start < 0) start = i;
    else if (!isDark && start >= 0) {
      if (i - start >= minLength) runs.push({ from: start, to: i - 1 });
      start = -1;
    }
  }
  return runs;
}

/** Lines along one axis: `lines` rows of `length` pixels; `at(line, i)` reads a pixel. */
function linesAlong(lines: number, length: number, at: (line: number, i: number) => number, minLength: number, maxThickness: number): Array<Run & { at: number }> {
  const found: Array<Run & { at: number }> = [];
  let open: Open[] = [];
  const close = (segment: Open) => {
    if (segment.last - segment.first + 1 <= maxThickness) found.push({ from: segment.from, to: segment.to, at: (segment.first + segment.last) / 2 });
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

export function rasterRules(image: GreyImage): Rule[] {
  const { width, height, data, dpi } = image;
  const scale = 72 / dpi;
  const minLength = Math.round(MIN_LENGTH_PT / scale);
  const maxThickness = Math.max(2, Math.round(MAX_THICKNESS_PT / scale));
  const horizontal = linesAlong(height, width, (y, x) => data[y * width + x]!, minLength, maxThickness);
  const vertical = linesAlong(width, height, (x, y) => data[y * width + x]!, minLength, maxThickness);
  const pt = (n: number) => Math.round(n * scale * 100) / 100;
  return [
    ...horizontal.map((h) => ({ x1: pt(h.from), y1: pt(h.at), x2: pt(h.to + 1), y2: pt(h.at) })),
    ...vertical.map((v) => ({ x1: pt(v.at), y1: pt(v.from), x2: pt(v.at), y2: pt(v.to + 1) })),
  ];
}
