/**
 * Lines of a scanned page (for form field detection): underlines and box borders become rules in
 * points; text-like strokes do not; long lines are erased from the image OCR reads.
 */
import { describe, expect, it } from 'vitest';
import { scanLines } from '../../../functions/documents/raster-rules.ts';
import type { GreyImage } from '../../../functions/documents/doc.ts';

/** A white 200 dpi image with dark pixels where `ink` says. */
function image(width: number, height: number, ink: (x: number, y: number) => boolean): GreyImage {
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (ink(x, y)) data[y * width + x] = 0;
  return { width, height, data, dpi: 200 };
}

describe('scanLines', () => {
  it('finds an underline (with small gaps, like underscore glyphs) and the four sides of a box, in points', () => {
    const img = image(600, 300, (x, y) => {
      const underline = y >= 100 && y <= 101 && x >= 50 && x < 450 && x % 40 !== 0; // 1-px gaps every 40 px
      const box = x >= 500 && x <= 540 && y >= 200 && y <= 240 && (x <= 501 || x >= 539 || y <= 201 || y >= 239);
      return underline || box;
    });
    const { rules, cleaned } = scanLines(img);
    const pt = (px: number) => (px * 72) / 200;
    const horizontal = rules.filter((r) => r.y1 === r.y2);
    const vertical = rules.filter((r) => r.x1 === r.x2);
    const underline = horizontal.find((r) => Math.abs(r.y1 - pt(100.5)) < 0.5)!;
    expect(underline).toBeDefined();
    expect(underline.x1).toBeCloseTo(pt(50), 0);
    expect(underline.x2).toBeCloseTo(pt(450), 0);
    expect(horizontal.filter((r) => r.x1 > pt(495)).length).toBe(2);
    expect(vertical.filter((r) => r.x1 > pt(495)).length).toBe(2);
    // The long underline is erased for OCR; the small box (14 pt) stays.
    expect(cleaned.data[100 * 600 + 201]).toBe(255);
    expect(cleaned.data[220 * 600 + 500]).toBe(0);
    expect(img.data[100 * 600 + 201]).toBe(0);
  });

  it('sees no line in text-like strokes (stems and counters, about half dark) or in a filled area', () => {
    const img = image(600, 200, (x, y) => (y >= 20 && y < 50 && x >= 20 && x < 500 && x % 7 < 3) || (y >= 100 && y < 180 && x >= 100 && x < 400));
    expect(scanLines(img).rules.filter((r) => r.y1 === r.y2)).toEqual([]);
  });
});
