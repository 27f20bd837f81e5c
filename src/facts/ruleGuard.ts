type Rule = Record<string, unknown>;

/**
 * What every node a rule matches is sure to satisfy, read from the rule's own node: the node kinds
 * it can be (null: any kind) and regexes one of which its text matches, or the text of its child in
 * `field` (null: none known). Other relations and negations are left out, so a guard is always a
 * necessary condition, never a sufficient one.
 */
export interface Guard {
  kinds: Set<string> | null;
  text: TextGuard | null;
}
export interface TextGuard {
  field: string | null;
  regexes: string[];
}

export function guardOf(rule: unknown): Guard {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return { kinds: null, text: null };
  const r = rule as Rule;
  // An object is a conjunction: each part is necessary, so any one part's guard holds.
  const parts: Guard[] = [];
  if (typeof r.kind === 'string') parts.push({ kinds: new Set([r.kind]), text: null });
  if (typeof r.regex === 'string') parts.push({ kinds: null, text: { field: null, regexes: [r.regex] } });
  // `has: { field: f, … }` without stopBy looks at the one child in field f: what that child's own
  // text must match, the node's child in f must match.
  const has = r.has as Rule | undefined;
  if (has && typeof has === 'object' && typeof has.field === 'string' && (has.stopBy === undefined || has.stopBy === 'neighbor')) {
    const { field, stopBy, ...child } = has;
    const inner = guardOf(child).text;
    if (inner && inner.field === null) parts.push({ kinds: null, text: { field, regexes: inner.regexes } });
  }
  if (Array.isArray(r.all)) parts.push(...r.all.map(guardOf));
  // A disjunction holds one of its branches' guards: known only when every branch knows it (and,
  // for text, of the same field).
  if (Array.isArray(r.any) && r.any.length > 0) {
    const branches = r.any.map(guardOf);
    const field = branches[0]!.text?.field;
    parts.push({
      kinds: branches.every((b) => b.kinds) ? new Set(branches.flatMap((b) => [...b.kinds!])) : null,
      text: branches.every((b) => b.text && b.text.field === field) ? { field: field ?? null, regexes: branches.flatMap((b) => b.text!.regexes) } : null,
    });
  }
  const known = parts.flatMap((p) => (p.kinds ? [p.kinds] : []));
  const kinds = known.length ? known.reduce((a, b) => new Set([...a].filter((k) => b.has(k)))) : null;
  // A child's text is shorter than the node's, and the fewest regexes are the cheapest to test.
  const text = parts.flatMap((p) => (p.text ? [p.text] : [])).sort((a, b) => Number(a.field === null) - Number(b.field === null) || a.regexes.length - b.regexes.length)[0] ?? null;
  return { kinds, text };
}

/** A rule's alternatives: the branches of a rule that is nothing but `any`, recursively. */
export function branchesOf(rule: unknown): unknown[] {
  if (rule && typeof rule === 'object' && !Array.isArray(rule)) {
    const r = rule as Rule;
    if (Object.keys(r).length === 1 && Array.isArray(r.any)) return r.any.flatMap(branchesOf);
  }
  return [rule];
}

/** One regex that matches where any of these does (each keeps its own flags inside its group). */
export const unionRegex = (regexes: string[]) => (regexes.length === 1 ? regexes[0]! : regexes.map((re) => `(?:${re})`).join('|'));

/**
 * A rule that every node matching one of `rules` also matches, and cheap for most other nodes to
 * fail: alternatives grouped by node kind, and in each kind the alternatives that carry a regex on
 * the node or on one of its fields replaced by one regex per field for all of them. The many rules
 * that look for a name among identifiers, or for a callee among calls, then cost one regex per
 * node instead of one check each.
 */
export function prefilter(rules: unknown[]): Rule {
  const byKind = new Map<string, { fields: Map<string | null, string[]>; rest: unknown[] }>();
  const loose: unknown[] = [];
  for (const branch of rules.flatMap(branchesOf)) {
    const g = guardOf(branch);
    if (!g.kinds) {
      loose.push(branch);
      continue;
    }
    for (const kind of [...g.kinds].sort()) {
      let group = byKind.get(kind);
      if (!group) byKind.set(kind, (group = { fields: new Map(), rest: [] }));
      if (g.text) group.fields.set(g.text.field, [...(group.fields.get(g.text.field) ?? []), ...g.text.regexes]);
      else group.rest.push(branch);
    }
  }
  const textRule = (field: string | null, regexes: string[]) => {
    const regex = unionRegex([...new Set(regexes)]);
    return field === null ? { regex } : { has: { field, regex } };
  };
  const groups = [...byKind].map(([kind, { fields, rest }]) => ({
    kind,
    any: [...[...fields].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([field, regexes]) => textRule(field, regexes)), ...rest],
  }));
  return { any: [...groups, ...loose] };
}

/**
 * For each node kind, the indices of the rules that can match a node of it (rules of unknown kind
 * are in every list); `kinds` are the kinds some rule names, `loose` the rules of unknown kind.
 */
export function rulesByKind(rules: unknown[]): { of: (kind: string) => number[]; kinds: string[]; loose: number[] } {
  const byKind = new Map<string, number[]>();
  const anyKind: number[] = [];
  rules.forEach((r, k) => {
    const kinds = guardOf(r).kinds;
    if (!kinds) anyKind.push(k);
    else for (const kind of kinds) byKind.set(kind, [...(byKind.get(kind) ?? []), k]);
  });
  const merged = new Map([...byKind].map(([kind, ks]) => [kind, [...new Set([...ks, ...anyKind])].sort((a, b) => a - b)]));
  return { of: (kind) => merged.get(kind) ?? anyKind, kinds: [...merged.keys()].sort(), loose: anyKind };
}

/**
 * The same rule with each exclusion written more than once (`not: { inside: a logging call … }`,
 * repeated in dozens of probes) compiled once, as a utility rule. Compiling regexes is most of the
 * matcher's cost. Only what sits under `not` is shared: a positive part may carry the node kinds
 * the search and the prefilter select on, and a `matches` reference would hide them.
 */
export function shareNegations<T>(rule: T): T & { shared: Record<string, unknown> } {
  const count = new Map<string, number>();
  const visit = (x: unknown, f: (negated: unknown) => unknown): unknown => {
    if (Array.isArray(x)) return x.map((y) => visit(y, f));
    if (!x || typeof x !== 'object') return x;
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, k === 'not' ? f(v) : visit(v, f)]));
  };
  visit(rule, (v) => {
    const key = JSON.stringify(v);
    count.set(key, (count.get(key) ?? 0) + 1);
    return v;
  });
  const utils: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const shared = visit(rule, (v) => {
    const key = JSON.stringify(v);
    // A short exclusion (the tags' `not: { kind: root }`) is cheaper written out than referenced.
    if ((count.get(key) ?? 0) < 2 || key.length < 200) return v;
    let name = names.get(key);
    if (!name) {
      names.set(key, (name = `shared${names.size}`));
      utils[name] = v;
    }
    return { matches: name };
  }) as T;
  return { ...shared, shared: utils };
}
