/** Pictures of print for tests: black sans-serif on white, drawn by canvas. */
import { createCanvas } from '@napi-rs/canvas';

/** A PNG of `width` × `height` pixels printing each line at its baseline (x, y), `size` pixels high. */
export function textPicture(width: number, height: number, lines: Array<{ text: string; size: number; x: number; y: number }>): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  for (const { text, size, x, y } of lines) {
    context.font = `${size}px sans-serif`;
    context.fillText(text, x, y);
  }
  return canvas.toBuffer('image/png');
}
