/**
 * Affine transforms as PDF writes them, [a, b, c, d, e, f]: point (x, y) goes to
 * (a·x + c·y + e, b·x + d·y + f). Shared by the PDF reader (./pdf.ts: text and drawing through the
 * page's viewport) and the text read in its pictures (./pictures.ts: a picture's pixels to the page).
 */
import type { Box } from './doc.ts';

export type Matrix = [number, number, number, number, number, number];

/** Apply n first, then m (the PDF `cm` composition order, same as pdf.js Util.transform(m, n)). */
export function multiply(m: Matrix, n: readonly number[]): Matrix {
  return [
    m[0] * n[0]! + m[2] * n[1]!,
    m[1] * n[0]! + m[3] * n[1]!,
    m[0] * n[2]! + m[2] * n[3]!,
    m[1] * n[2]! + m[3] * n[3]!,
    m[0] * n[4]! + m[2] * n[5]! + m[4],
    m[1] * n[4]! + m[3] * n[5]! + m[5],
  ];
}

export function apply(m: Readonly<Matrix>, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export function boundingBox(points: [number, number][]): Box {
  let [left, top] = points[0]!;
  let [right, bottom] = points[0]!;
  for (const [x, y] of points) {
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  }
  return { left, top, width: right - left, height: bottom - top };
}

/** The bounds of a box's four corners through `m`. */
export function boxThrough(m: Readonly<Matrix>, box: Box): Box {
  const right = box.left + box.width;
  const bottom = box.top + box.height;
  return boundingBox([apply(m, box.left, box.top), apply(m, right, box.top), apply(m, box.left, bottom), apply(m, right, bottom)]);
}

/** The unit square images are drawn in. */
export const UNIT_SQUARE: Box = { left: 0, top: 0, width: 1, height: 1 };
