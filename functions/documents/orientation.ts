/**
 * Turned pages: a page scanned sideways or upside down is read upright, its word boxes given back in
 * the coordinates of the page as the file shows it.
 *
 * Turns are clockwise quarter turns of the pixels. `turnGrey(image, t)` turns an image by t degrees;
 * a box found in the turned image goes back to the original with `unturnBox(box, t, original)`.
 */
import type { Box, GreyImage } from './doc.ts';

export type Turn = 0 | 90 | 180 | 270;

export const TURNS: readonly Turn[] = [0, 90, 180, 270];

/** The image turned clockwise by `turn` degrees (a new image; `image` is untouched). */
export function turnGrey(image: GreyImage, turn: Turn): GreyImage {
  if (turn === 0) return image;
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  if (turn === 180) {
    for (let i = 0, j = data.length - 1; i < data.length; i++, j--) out[j] = data[i]!;
    return { ...image, data: out };
  }
  // A quarter turn: the turned image is `height` wide and `width` high.
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      // Clockwise: (x, y) goes to (height-1-y, x); anticlockwise (270): to (y, width-1-x).
      const to = turn === 90 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y;
      out[to] = data[row + x]!;
    }
  }
  return { width: height, height: width, data: out, dpi: image.dpi };
}

/**
 * A box found in the image turned by `turn`, in the coordinates of the original image (`width` ×
 * `height`, the size before turning).
 */
export function unturnBox(box: Box, turn: Turn, original: { width: number; height: number }): Box {
  const { left, top, width, height } = box;
  switch (turn) {
    case 0:
      return { ...box };
    case 180:
      return { left: original.width - left - width, top: original.height - top - height, width, height };
    case 90:
      // The turned image's x runs down the original's y; its y runs leftwards along the original's x.
      return { left: top, top: original.height - left - width, width: height, height: width };
    case 270:
      return { left: original.width - top - height, top: left, width: height, height: width };
  }
}
