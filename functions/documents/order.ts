/**
 * Ordering many numbers by key: the hot sorts of page layout (every word of every page, by its left
 * edge or its middle) without a JavaScript comparator call per comparison.
 */

/**
 * The positions 0..n-1 of `keys` ordered by key, equal keys in position order: the same order as a
 * stable `positions.sort((a, b) => keys[a] - keys[b])`. A bottom-up merge sort over typed arrays:
 * insertion-sorted runs of RUN first, then merges, skipped where two runs are in order already.
 * Words come mostly in reading order, so little is left to do. With a comparator, sorting the words of
 * the 200-page bench file took ~16 ms of its ~110 ms layout.
 */
export function orderByKey(keys: Float64Array): Int32Array {
  const n = keys.length;
  let from = new Int32Array(n);
  let to = new Int32Array(n);
  for (let k = 0; k < n; k++) from[k] = k;
  for (let start = 0; start < n; start += RUN) {
    const end = Math.min(start + RUN, n);
    for (let k = start + 1; k < end; k++) {
      const position = from[k]!;
      let j = k - 1;
      // Only a strictly greater key moves up: equal keys keep their order.
      for (; j >= start && keys[from[j]!]! > keys[position]!; j--) from[j + 1] = from[j]!;
      from[j + 1] = position;
    }
  }
  for (let width = RUN; width < n; width *= 2) {
    for (let start = 0; start < n; start += 2 * width) {
      const middle = Math.min(start + width, n);
      const end = Math.min(start + 2 * width, n);
      if (middle === end || keys[from[middle - 1]!]! <= keys[from[middle]!]!) {
        to.set(from.subarray(start, end), start);
        continue;
      }
      let a = start;
      let b = middle;
      let k = start;
      // The left run's element goes first unless the right one's key is smaller: equal keys keep their order.
      while (a < middle && b < end) to[k++] = keys[from[b]!]! < keys[from[a]!]! ? from[b++]! : from[a++]!;
      while (a < middle) to[k++] = from[a++]!;
      while (b < end) to[k++] = from[b++]!;
    }
    [from, to] = [to, from];
  }
  return from;
}

/** The length of the runs orderByKey sorts by insertion before merging them. */
const RUN = 16;

/** The median of the values (the mean of the middle two for an even count), undefined for none. */
export function medianOf(values: ArrayLike<number>): number | undefined {
  if (values.length === 0) return undefined;
  // A typed array sorts numerically without a comparator.
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
