type Rule = Record<string, unknown>;

/**
 * What every node a rule matches is sure to satisfy, read from the rule's own node: the node kinds
 * it can be (null: any kind) and regexes its text matches at least one of (null: none known).
 * Relations and negations say nothing of the node itself and are left out, so a guard is always a
 * necessary condition, never a sufficient one.
 */
export interface Guard {
  kinds: Set<string> | null;
  regexes: string[] | null;
}

export function guardOf(rule: unknown): Guard {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return { kinds: null, regexes: null };
  const r = rule as Rule;
  // An object is a conjunction: each part is necessary, so any one part's guard holds.
  const parts: Guard[] = [];
  if (typeof r.kind === 'string') parts.push({ kinds: new Set([r.kind]), regexes: null });
  if (typeof r.regex === 'string') parts.push({ kinds: null, regexes: [r.regex] });
  if (Array.isArray(r.all)) parts.push(...r.all.map(guardOf));
  // A disjunction holds one of its branches' guards: known only when every branch knows it.
  if (Array.isArray(r.any) && r.any.length > 0) {
    const branches = r.any.map(guardOf);
    parts.push({
      kinds: branches.every((b) => b.kinds) ? new Set(branches.flatMap((b) => [...b.kinds!])) : null,
      regexes: branches.every((b) => b.regexes) ? branches.flatMap((b) => b.regexes!) : null,
    });
  }
  const known = parts.flatMap((p) => (p.kinds ? [p.kinds] : []));
  const kinds = known.length ? known.reduce((a, b) => new Set([...a].filter((k) => b.has(k)))) : null;
  // The shortest list of regexes is the cheapest to test.
  const regexes = parts.flatMap((p) => (p.regexes ? [p.regexes] : [])).sort((a, b) => a.length - b.length)[0] ?? null;
  return { kinds, regexes };
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
 * fail: alternatives grouped by node kind, and in each kind the alternatives that carry a regex
 * replaced by one regex for all of them. The many rules that look for a name among identifiers
 * then cost one regex per identifier instead of one check each. `kindsOnly` keeps only the kinds:
 * half the compile (the alternatives are not compiled a second time), for a batch too small for
 * the filtering to pay for it.
 *
 * Alternatives that test a child (`has: { field: function, regex }`, most call rules) stay written
 * out in full. Standing for them with unions of their field regexes made gemini-cli's first audit
 * 10-15% faster, but doubled the peak memory on a 5,000-file repository (540 to 1,147 MB), with the
 * unions kept small or the scan chunked alike. It was tried at stops 33 and 40: see the README's
 * Speed section before trying it a third time.
 */
export function prefilter(rules: unknown[], kindsOnly = false): Rule {
  const byKind = new Map<string, { regexes: string[]; rest: unknown[] }>();
  const loose: unknown[] = [];
  for (const branch of rules.flatMap(branchesOf)) {
    const g = guardOf(branch);
    if (!g.kinds) {
      loose.push(branch);
      continue;
    }
    for (const kind of [...g.kinds].sort()) {
      let group = byKind.get(kind);
      if (!group) byKind.set(kind, (group = { regexes: [], rest: [] }));
      if (g.regexes) group.regexes.push(...g.regexes);
      else group.rest.push(branch);
    }
  }
  const groups = [...byKind].map(([kind, { regexes, rest }]) => (kindsOnly ? { kind } : { kind, any: [...(regexes.length ? [{ regex: unionRegex([...new Set(regexes)]) }] : []), ...rest] }));
  return { any: [...groups, ...loose] };
}

/** For each node kind, the indices of the rules that can match a node of it, as plain data (it is stored with a matcher). */
export interface KindIndex {
  /** Kind → rule indices, rules of unknown kind included, sorted by kind. */
  kinds: Array<[string, number[]]>;
  /** Rules of no known kind: the list for any other kind. */
  anyKind: number[];
}

export function kindIndex(rules: unknown[]): KindIndex {
  const byKind = new Map<string, number[]>();
  const anyKind: number[] = [];
  rules.forEach((r, k) => {
    const kinds = guardOf(r).kinds;
    if (!kinds) anyKind.push(k);
    else for (const kind of kinds) byKind.set(kind, [...(byKind.get(kind) ?? []), k]);
  });
  const kinds = [...byKind].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([kind, ks]) => [kind, [...new Set([...ks, ...anyKind])].sort((a, b) => a - b)] as [string, number[]]);
  return { kinds, anyKind };
}

/** Lookups over a kind index: the rules that can match a node of a kind, and the kinds it names. */
export function rulesOfKind(index: KindIndex): { of: (kind: string) => number[]; kinds: () => string[] } {
  const merged = new Map(index.kinds);
  return { of: (kind) => merged.get(kind) ?? index.anyKind, kinds: () => index.kinds.map(([kind]) => kind) };
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
