/**
 * Sets `key` in a map a long-lived process keeps between audits, first dropping the entry set
 * longest ago when the map already holds `max`: a batch or a test worker never grows it without
 * bound, and the oldest entry is the one least likely to be asked for again.
 */
export function keepBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}
