/**
 * Hashing and distinct counting for table profiles: a 64-bit string hash (two 32-bit lanes), an
 * exact set of those hashes (open addressing, bounded), and a HyperLogLog sketch used once the exact
 * set would outgrow its bound. Pure: no I/O.
 */

/** murmur3's 32-bit finaliser: spreads every input bit over the whole word. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The two lanes of the last `hashString` call (module state avoids an allocation per cell). */
export const lastHash = { lo: 0, hi: 0 };

/**
 * Hashes the UTF-16 code units of `s[start, end)` into `lastHash` (two independently mixed 32-bit
 * lanes): a text hashes the same wherever it is.
 */
export function hashString(s: string, start = 0, end = s.length): void {
  const n = end;
  let a = 0x811c9dc5 ^ (end - start);
  let b = 0x9747b28c;
  let i = start;
  // Two code units per step (each is < 2^16, so the pair is one exact 32-bit word).
  for (; i + 1 < n; i += 2) {
    const w = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ w, 0x5bd1e995);
    b ^= b >>> 15;
  }
  if (i < n) {
    const w = s.charCodeAt(i);
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ w, 0x5bd1e995);
    b ^= b >>> 15;
  }
  lastHash.lo = fmix32(a ^ (a >>> 13));
  lastHash.hi = fmix32(b ^ a);
}

/** Folds one more hash into a running key hash (composite unique keys). */
export function combineHash(seedLo: number, seedHi: number, lo: number, hi: number): void {
  lastHash.lo = fmix32(Math.imul(seedLo ^ lo, 0x9e3779b1) + 0x7f4a7c15);
  lastHash.hi = fmix32(Math.imul(seedHi ^ hi, 0x85ebca77) + lo);
}

/**
 * A set of 64-bit hashes with linear probing, both halves of a slot side by side (one cache miss per
 * lookup). A zero high half marks an empty slot, so the high half is kept odd (63 significant bits):
 * the chance that two of a million distinct values collide is about 1e-7.
 */
export class HashSet64 {
  private slots: Uint32Array;
  private mask: number;
  size = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < initialCapacity) capacity *= 2;
    this.slots = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  /** Adds the hash; true when it was not there yet. */
  add(lo: number, hi: number): boolean {
    lo = lo >>> 0;
    hi = (hi | 1) >>> 0;
    const slots = this.slots;
    let i = lo & this.mask;
    for (;;) {
      const h = slots[2 * i + 1]!;
      if (h === 0) break;
      if (h === hi && slots[2 * i] === lo) return false;
      i = (i + 1) & this.mask;
    }
    slots[2 * i] = lo;
    slots[2 * i + 1] = hi;
    this.size++;
    if (this.size * 2 > this.mask + 1) this.grow();
    return true;
  }

  /** Empties the set, keeping its capacity. */
  clear(): void {
    if (this.size === 0) return;
    this.slots.fill(0);
    this.size = 0;
  }

  /** Calls `fn` with every hash in the set. */
  forEach(fn: (lo: number, hi: number) => void): void {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i += 2) if (slots[i + 1] !== 0) fn(slots[i]!, slots[i + 1]!);
  }

  private grow(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    const slots = new Uint32Array(capacity * 2);
    const mask = capacity - 1;
    for (let j = 0; j < old.length; j += 2) {
      const h = old[j + 1]!;
      if (h === 0) continue;
      let i = old[j]! & mask;
      while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
      slots[2 * i] = old[j]!;
      slots[2 * i + 1] = h;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** HyperLogLog with 2^precision one-byte registers (standard error 1.04 / sqrt(2^precision)). */
export class HyperLogLog {
  private readonly registers: Uint8Array;
  private readonly shift: number;

  constructor(readonly precision = 16) {
    this.registers = new Uint8Array(1 << precision);
    this.shift = 32 - precision;
  }

  /** Adds a 64-bit hash: the register from the top bits of `lo`, the rank from `hi`. */
  add(lo: number, hi: number): void {
    const index = lo >>> this.shift;
    const rank = Math.clz32(hi) + 1;
    if (rank > this.registers[index]!) this.registers[index] = rank;
  }

  estimate(): number {
    const m = this.registers.length;
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < m; i++) {
      const r = this.registers[i]!;
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / m);
    const raw = (alpha * m * m) / sum;
    // Small cardinalities: linear counting is the better estimator.
    if (raw <= 2.5 * m && zeros > 0) return m * Math.log(m / zeros);
    return raw;
  }
}

/** Exact distinct values up to a bound (then the sketch answers). */
export const EXACT_DISTINCT_LIMIT = 1_000_000;

/**
 * Distinct values at which the counter switches from its hash table to append-and-deduplicate: the
 * table is then half full, and one more value would grow it to twice the size (fresh memory, every
 * hash moved) only for it to be dropped.
 */
const TABLE_LIMIT = 1 << 16;

/** Buckets (by the top bits of a hash) that `removeRepeats` splits a buffer into. */
const BUCKET_BITS = 8;
const BUCKETS = 1 << BUCKET_BITS;

/**
 * Removes repeated hashes from the (lo, hi) pairs `words[0, 2 * length)`, in place, and returns how
 * many distinct ones remain at the front (in no particular order). The pairs are first moved into
 * BUCKETS buckets by the top bits of `hi` (an in-place permutation, one pass); each bucket then goes
 * through a small hash table that stays in the CPU cache. About twice as fast as sorting the buffer.
 */
export function removeRepeats(words: Uint32Array, length: number): number {
  const shift = 32 - BUCKET_BITS;
  // Bucket b holds the pairs [start[b], start[b + 1]).
  const start = new Int32Array(BUCKETS + 1);
  for (let i = 0; i < length; i++) start[(words[2 * i + 1]! >>> shift) + 1]!++;
  let largest = 0;
  for (let b = 0; b < BUCKETS; b++) {
    largest = Math.max(largest, start[b + 1]!);
    start[b + 1]! += start[b]!;
  }
  // Each pair not yet in its bucket is swapped into the next free place of the bucket it belongs to.
  const next = start.slice(0, BUCKETS);
  for (let b = 0; b < BUCKETS; b++) {
    while (next[b]! < start[b + 1]!) {
      const i = next[b]!;
      let lo = words[2 * i]!;
      let hi = words[2 * i + 1]!;
      let home = hi >>> shift;
      while (home !== b) {
        const j = next[home]!++;
        const displacedLo = words[2 * j]!;
        const displacedHi = words[2 * j + 1]!;
        words[2 * j] = lo;
        words[2 * j + 1] = hi;
        lo = displacedLo;
        hi = displacedHi;
        home = hi >>> shift;
      }
      words[2 * i] = lo;
      words[2 * i + 1] = hi;
      next[b]!++;
    }
  }
  // Buckets in order; the distinct pairs are written back from the front (never past the reading).
  const seen = new HashSet64(2 * largest);
  let kept = 0;
  for (let b = 0; b < BUCKETS; b++) {
    seen.clear();
    for (let i = start[b]!; i < start[b + 1]!; i++) {
      const lo = words[2 * i]!;
      const hi = words[2 * i + 1]!;
      if (!seen.add(lo, hi)) continue;
      words[2 * kept] = lo;
      words[2 * kept + 1] = hi;
      kept++;
    }
  }
  return kept;
}

/**
 * Counts distinct strings: exactly while there are at most `limit` of them, then by HyperLogLog.
 *
 * Few distinct values live in a small hash table (it stays in the CPU cache). Past TABLE_LIMIT the
 * hashes are appended to a buffer instead (sequential writes), whose repeats are removed when it is
 * full and at the end: for high-cardinality columns that is about twice as fast as a table the size of
 * the data, whose every insert misses the cache. Once more than `limit` distinct hashes are known, a
 * sketch is built from them (a sketch depends only on the distinct hashes it saw) and takes over.
 */
export class DistinctCounter {
  private table: HashSet64 | undefined = new HashSet64(4096);
  /** 64-bit hashes as (lo, hi) pairs, `length` of them; distinct below `compacted`. */
  private words: Uint32Array | undefined;
  private length = 0;
  /** `length` right after the last compaction (nothing to do while it has not changed). */
  private compacted = -1;
  private sketch: HyperLogLog | undefined;

  constructor(private readonly limit = EXACT_DISTINCT_LIMIT) {}

  /** Adds a value; returns true when it is certainly new, false when seen or no longer known. */
  add(value: string): boolean {
    hashString(value);
    return this.addHash(lastHash.lo, lastHash.hi);
  }

  /**
   * Whether the last value added was certainly seen before (only the small table knows; past it, a
   * repeat is not told from a new value): a value seen before cannot be a new minimum or maximum.
   */
  seen = false;

  addHash(lo: number, hi: number): boolean {
    hi = (hi | 1) >>> 0;
    const table = this.table;
    this.seen = false;
    if (table) {
      const added = table.add(lo, hi);
      this.seen = !added;
      if (table.size >= TABLE_LIMIT || table.size > this.limit) {
        this.table = undefined;
        this.startBuffer(table);
        if (this.length > this.limit) this.compact(false);
      }
      return added;
    }
    if (this.words) {
      if (2 * this.length === this.words.length) this.compact(true);
      if (this.words) {
        this.words[2 * this.length] = lo;
        this.words[2 * this.length + 1] = hi;
        this.length++;
        return false;
      }
    }
    this.sketch!.add(lo, hi);
    return false;
  }

  private startBuffer(table: HashSet64): void {
    this.words = new Uint32Array(2 * Math.max(4 * TABLE_LIMIT, Math.min(2 * this.limit, 1 << 21)));
    table.forEach((lo, hi) => {
      this.words![2 * this.length] = lo;
      this.words![2 * this.length + 1] = hi;
      this.length++;
    });
  }

  /** Removes the buffer's repeats; past the limit, hands over to a sketch; grows it if asked. */
  private compact(makeRoom: boolean): void {
    const words = this.words!;
    const kept = removeRepeats(words, this.length);
    this.length = kept;
    this.compacted = kept;
    if (kept > this.limit) {
      const sketch = new HyperLogLog(16);
      for (let i = 0; i < kept; i++) sketch.add(words[2 * i]!, words[2 * i + 1]!);
      this.sketch = sketch;
      this.words = undefined;
      this.length = 0;
      return;
    }
    if (makeRoom && 2 * kept > words.length / 2) {
      const bigger = new Uint32Array(words.length * 2);
      bigger.set(words.subarray(0, 2 * kept));
      this.words = bigger;
    }
  }

  /** Brings the buffer up to date (distinct, or handed over to the sketch). */
  private settle(): void {
    if (this.words && this.length !== this.compacted) this.compact(false);
  }

  get isExact(): boolean {
    this.settle();
    return this.sketch === undefined;
  }

  count(): number {
    if (this.table) return this.table.size;
    this.settle();
    return this.words ? this.length : Math.round(this.sketch!.estimate());
  }
}
