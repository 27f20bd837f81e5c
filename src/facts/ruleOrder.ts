const ATOMIC = ['kind', 'pattern', 'regex', 'nthChild', 'range'];
const MODIFIERS = new Set(['stopBy', 'field']);
const RELATIONS = new Set(['has', 'inside', 'precedes', 'follows']);
/** How far a relational rule may walk: to the end of the tree (costly), or one step. */
const reach = (v: unknown) => (v && typeof v === 'object' && 'stopBy' in v && (v as { stopBy: unknown }).stopBy !== 'neighbor' ? 1 : 0);

/**
 * The same rule with the parts of each conjunction in order of cost. ast-grep checks an object's
 * relational keys in a fixed order (`inside` before `has`), so `inside: { kind: program, stopBy:
 * end, … }` next to a rare `has` walks to the root for every candidate node first. Here atomic
 * checks come first, then relations one step away, then relations that walk, then composites:
 * the conjunction is the same, only cheap failures come earlier.
 */
export function orderRule<T>(rule: T): T {
  if (Array.isArray(rule)) return rule.map(orderRule) as T;
  if (!rule || typeof rule !== 'object') return rule;
  const entries = Object.entries(rule).map(([k, v]) => [k, MODIFIERS.has(k) || ATOMIC.includes(k) ? v : orderRule(v)] as [string, unknown]);
  const modifiers = entries.filter(([k]) => MODIFIERS.has(k));
  const parts = entries.filter(([k]) => !MODIFIERS.has(k));
  // Only a walking `inside` beside another relation is worth splitting: an `all` costs more than a plain object otherwise.
  const walks = parts.some(([k, v]) => k === 'inside' && reach(v)) && parts.some(([k]) => RELATIONS.has(k) && k !== 'inside');
  if (!walks) return Object.fromEntries(entries) as T;
  const rank = ([k, v]: [string, unknown]) => (ATOMIC.includes(k) ? 0 : RELATIONS.has(k) ? 1 + reach(v) : 3);
  const sorted = [...parts].sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries([...modifiers, ['all', sorted.map(([k, v]) => ({ [k]: v }))]]) as T;
}
