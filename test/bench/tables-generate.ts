/**
 * The benchmark table: a generated CSV of `rows` × 8 columns (about 100 bytes a row), written in
 * blocks. Columns: id (increasing integer), customer (~200k distinct), category (5 values), amount
 * (decimal), quantity (integer), order_date (date), paid (boolean), comment (quoted text with a
 * comma, 10% null).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const BENCH_COLUMNS = ['id', 'customer', 'category', 'amount', 'quantity', 'order_date', 'paid', 'comment'];

export function generateBenchCsv(path: string, rows: number, seed = 42): number {
  const rnd = mulberry32(seed);
  const categories = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const day0 = Date.UTC(2020, 0, 1);
  const fd = openSync(path, 'w');
  let bytes = 0;
  let lines: string[] = [BENCH_COLUMNS.join(',')];
  const flush = () => {
    const block = `${lines.join('\n')}\n`;
    bytes += writeSync(fd, block);
    lines = [];
  };
  for (let i = 1; i <= rows; i++) {
    const date = new Date(day0 + Math.floor(rnd() * 2000) * 86_400_000).toISOString().slice(0, 10);
    const comment = rnd() < 0.1 ? '' : `"note ${Math.floor(rnd() * 1_000_000)}, with a comma and some text"`;
    lines.push(
      `${i},customer_${Math.floor(rnd() * 200_000)},${categories[Math.floor(rnd() * 5)]},${(rnd() * 10_000).toFixed(2)},${Math.floor(rnd() * 100)},${date},${rnd() < 0.5},${comment}`,
    );
    if (lines.length === 20_000) flush();
  }
  flush();
  closeSync(fd);
  return bytes;
}
