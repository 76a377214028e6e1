import { describe, expect, it } from 'vitest';
import { DistinctCounter, hashString, HashSet64, HyperLogLog, lastHash, removeRepeats } from '../../../functions/tables/hyperloglog.ts';

describe('HyperLogLog', () => {
  it('estimates 1.5 million distinct values within 2%', () => {
    const sketch = new HyperLogLog(16);
    const n = 1_500_000;
    for (let i = 0; i < n; i++) {
      hashString(`customer-${i}`);
      sketch.add(lastHash.lo, lastHash.hi);
    }
    // Adding them all again changes nothing: it counts distinct values, not values.
    for (let i = 0; i < n; i += 3) {
      hashString(`customer-${i}`);
      sketch.add(lastHash.lo, lastHash.hi);
    }
    expect(Math.abs(sketch.estimate() - n) / n).toBeLessThan(0.02);
  });

  it('is close for small counts too (linear counting)', () => {
    const sketch = new HyperLogLog(16);
    for (let i = 0; i < 1000; i++) {
      hashString(String(i));
      sketch.add(lastHash.lo, lastHash.hi);
    }
    expect(Math.abs(sketch.estimate() - 1000)).toBeLessThan(20);
  });
});

describe('DistinctCounter', () => {
  it('counts exactly up to its limit, then estimates (and says so)', () => {
    const counter = new DistinctCounter(50_000);
    for (let i = 0; i < 50_000; i++) counter.add(`v${i % 40_000}`);
    expect(counter.isExact).toBe(true);
    expect(counter.count()).toBe(40_000);
    for (let i = 0; i < 200_000; i++) counter.add(`w${i}`);
    expect(counter.isExact).toBe(false);
    expect(Math.abs(counter.count() - 240_000) / 240_000).toBeLessThan(0.02);
  });

  it('stays exact through the append-and-deduplicate phase, duplicates spread over several compactions', () => {
    // Limit 200k: the buffer holds 400k hashes. 600k values, 150k distinct, each seen 4 times far
    // apart: the buffer fills and compacts with duplicates on both sides of the compaction.
    const counter = new DistinctCounter(200_000);
    for (let round = 0; round < 4; round++) for (let i = 0; i < 150_000; i++) counter.add(`id-${(i * 7919) % 150_000}`);
    expect(counter.isExact).toBe(true);
    expect(counter.count()).toBe(150_000);
    counter.add('one more');
    counter.add('id-7');
    expect(counter.count()).toBe(150_001);
  });
});

describe('DistinctCounter past its table', () => {
  it('knows repeats while its table holds under 65,536 values, then counts exactly by appending', () => {
    const counter = new DistinctCounter();
    for (let i = 0; i < 65_535; i++) expect(counter.add(`v${i}`)).toBe(true);
    expect(counter.add('v0')).toBe(false);
    expect(counter.seen).toBe(true);
    // The 65,536th distinct value is the table's last: from then on a repeat is not told from a new value.
    expect(counter.add('v65535')).toBe(true);
    counter.add('v1');
    expect(counter.seen).toBe(false);
    for (let i = 0; i < 100_000; i++) counter.add(`v${(i * 7919) % 100_000}`);
    expect(counter.isExact).toBe(true);
    expect(counter.count()).toBe(100_000);
  });
});

describe('HashSet64', () => {
  it('keeps every distinct hash through its growth', () => {
    const set = new HashSet64(16);
    let added = 0;
    for (let i = 0; i < 100_000; i++) if (set.add(i * 2654435761, i)) added++;
    let again = 0;
    for (let i = 0; i < 100_000; i++) if (set.add(i * 2654435761, i)) again++;
    expect(added).toBe(100_000);
    expect(again).toBe(0);
    expect(set.size).toBe(100_000);
  });
});

describe('removeRepeats', () => {
  it('keeps each distinct (lo, hi) pair once, at the front, whatever the buckets', () => {
    const length = 50_000;
    const words = new Uint32Array(2 * length);
    for (let i = 0; i < length; i++) {
      // 20k distinct pairs; some share lo, some share hi (and so a bucket), repeats far apart.
      const k = (i * 7919) % 20_000;
      words[2 * i] = (k % 5000) * 2654435761;
      words[2 * i + 1] = ((k * 40503) | 1) >>> 0;
    }
    const expected = new Set<string>();
    for (let i = 0; i < length; i++) expected.add(`${words[2 * i]}:${words[2 * i + 1]}`);
    const kept = removeRepeats(words, length);
    const front = new Set<string>();
    for (let i = 0; i < kept; i++) front.add(`${words[2 * i]}:${words[2 * i + 1]}`);
    expect(kept).toBe(20_000);
    expect(front).toEqual(expected);
    expect(removeRepeats(words, 0)).toBe(0);
  });
});
