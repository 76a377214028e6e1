/**
 * The per-container caches' one rule (compiled schemas, resolved callers, recent run ends …): an
 * entry set is the newest, and beyond `kept` entries the oldest goes.
 */
export function keepNewest<K, V>(map: Map<K, V>, key: K, value: V, kept: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > kept) map.delete(map.keys().next().value!);
}
