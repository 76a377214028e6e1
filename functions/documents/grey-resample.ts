import type { Box, GreyImage } from './doc.ts';

/**
 * Bilinear resampling of the `box` of a grey image to width × height pixels, `scaleX` and `scaleY`
 * output pixels per source pixel: output pixel (x, y) samples the source at
 * (box.left + (x + 0.5) / scaleX − 0.5, box.top + (y + 0.5) / scaleY − 0.5), clamped to the image.
 */
export function resampleGrey(image: GreyImage, box: Box, width: number, height: number, scaleX: number, scaleY: number): Uint8Array {
  const { data } = image;
  const out = new Uint8Array(width * height);
  const x0s = new Int32Array(width);
  const fxs = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const sx = Math.max(0, Math.min(image.width - 1, box.left + ((x + 0.5) / scaleX - 0.5)));
    x0s[x] = Math.floor(sx);
    fxs[x] = sx - x0s[x]!;
  }
  for (let y = 0; y < height; y++) {
    const sy = Math.max(0, Math.min(image.height - 1, box.top + ((y + 0.5) / scaleY - 0.5)));
    const y0 = Math.floor(sy);
    const y1 = Math.min(image.height - 1, y0 + 1);
    const fy = sy - y0;
    const row0 = y0 * image.width;
    const row1 = y1 * image.width;
    for (let x = 0; x < width; x++) {
      const x0 = x0s[x]!;
      const x1 = Math.min(image.width - 1, x0 + 1);
      const fx = fxs[x]!;
      const top = data[row0 + x0]! * (1 - fx) + data[row0 + x1]! * fx;
      const bottom = data[row1 + x0]! * (1 - fx) + data[row1 + x1]! * fx;
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return out;
}
