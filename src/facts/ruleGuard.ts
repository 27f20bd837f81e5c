type Rule = Record<string, unknown>;

/**
 * What every node a rule matches is sure to satisfy, read from the rule's own node: the node kinds
 * it can be (null: any kind), regexes its text matches at least one of (null: none known), and a
 * child at a field whose text matches one of some regexes (`has: { field: function, regex }`: null,
 * none known). Other relations and negations are left out, so a guard is always a necessary
 * condition, never a sufficient one.
 */
export interface Guard {
  kinds: Set<string> | null;
  regexes: string[] | null;
  field: FieldGuard | null;
}
export interface FieldGuard {
  name: string;
  regexes: string[];
}

const NONE: Guard = { kinds: null, regexes: null, field: null };

/** A regex that begins with `^` (after inline flags): mostly matched from the start only. */
const ANCHORED = /^(?:\(\?[a-z-]+\))?\^/;

/**
 * `has` reaching only the child at a field (no `stopBy`: the default stops at the children), with
 * regexes anchored at the start. A union of unanchored regexes, tried on every call's callee, grew
 * the regex engine's lazy DFA caches until a 5,000-file repository peaked at 1,147 MB instead of
 * 540 MB (stops 33, 36 and 40; see the README's Speed section); anchored ones have few states to cache
 * (597 MB), and they are most of the speed: gemini-cli's first audit 7.3 to 6.8 s.
 */
function fieldGuardOf(has: unknown): FieldGuard | null {
  if (!has || typeof has !== 'object' || Array.isArray(has)) return null;
  const { field, stopBy, ...rest } = has as Rule;
  if (typeof field !== 'string' || (stopBy !== undefined && stopBy !== 'neighbor')) return null;
  const inner = guardOf(rest);
  return inner.regexes && inner.regexes.every((r) => ANCHORED.test(r)) ? { name: field, regexes: inner.regexes } : null;
}

// A matcher asks each alternative's guard several times (its kinds, its group, the kind it is
// tried under); rules are not changed once made, so each object's guard is read once.
const guards = new WeakMap<object, Guard>();

export function guardOf(rule: unknown): Guard {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return NONE;
  let g = guards.get(rule);
  if (!g) guards.set(rule, (g = readGuard(rule as Rule)));
  return g;
}

function readGuard(r: Rule): Guard {
  // An object is a conjunction: each part is necessary, so any one part's guard holds.
  const parts: Guard[] = [];
  if (typeof r.kind === 'string') parts.push({ ...NONE, kinds: new Set([r.kind]) });
  if (typeof r.regex === 'string') parts.push({ ...NONE, regexes: [r.regex] });
  if (r.has !== undefined) parts.push({ ...NONE, field: fieldGuardOf(r.has) });
  if (Array.isArray(r.all)) parts.push(...r.all.map(guardOf));
  // A disjunction holds one of its branches' guards: known only when every branch knows it.
  if (Array.isArray(r.any) && r.any.length > 0) {
    const branches = r.any.map(guardOf);
    const field = branches[0]!.field?.name;
    parts.push({
      kinds: branches.every((b) => b.kinds) ? new Set(branches.flatMap((b) => [...b.kinds!])) : null,
      regexes: branches.every((b) => b.regexes) ? branches.flatMap((b) => b.regexes!) : null,
      field: field !== undefined && branches.every((b) => b.field?.name === field) ? { name: field, regexes: branches.flatMap((b) => b.field!.regexes) } : null,
    });
  }
  const known = parts.flatMap((p) => (p.kinds ? [p.kinds] : []));
  const kinds = known.length ? known.reduce((a, b) => new Set([...a].filter((k) => b.has(k)))) : null;
  // The shortest list of regexes is the cheapest to test.
  const regexes = parts.flatMap((p) => (p.regexes ? [p.regexes] : [])).sort((a, b) => a.length - b.length)[0] ?? null;
  const field = parts.flatMap((p) => (p.field ? [p.field] : [])).sort((a, b) => a.regexes.length - b.regexes.length)[0] ?? null;
  return { kinds, regexes, field };
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
 * A node kind's alternatives grouped under a cheap test every member passes: one regex for a few
 * members at a time, on the node's text or (tested first: shorter) on the child at a field, such
 * as a call's callee. A node then tries the members of the groups whose test it passes, not every
 * alternative of its kind. Members with no such test form groups of one with no guard. Groups
 * keep the members' order.
 *
 * Regexes are joined sixteen at a time: a union of a hundred unanchored, case-folded regexes
 * outgrows the regex engine's lazy DFA, which then falls back to a far slower search (on gemini-cli
 * one union of 101 callee regexes cost 1.5 s of CPU; in unions of five to ten, too little to
 * measure). Unions of 16 to 32 scanned gemini-cli fastest; of 4, 6% slower.
 */
const UNION_SIZE = 16;
export interface GuardedGroup {
  guard: Rule | null;
  members: number[];
}
export function guardedGroups(branches: unknown[]): GuardedGroup[] {
  const byTest = new Map<string, Array<{ member: number; regexes: string[] }>>();
  const unguarded: GuardedGroup[] = [];
  branches.forEach((branch, member) => {
    const g = guardOf(branch);
    const test = g.field ? { key: `field:${g.field.name}`, regexes: g.field.regexes } : g.regexes ? { key: 'text', regexes: g.regexes } : null;
    if (!test) unguarded.push({ guard: null, members: [member] });
    else (byTest.get(test.key) ?? byTest.set(test.key, []).get(test.key)!).push({ member, regexes: test.regexes });
  });
  const out: GuardedGroup[] = [];
  for (const [key, members] of [...byTest].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const guard = (regexes: string[]): Rule => {
      const regex = unionRegex([...new Set(regexes)]);
      return key === 'text' ? { regex } : { has: { field: key.slice('field:'.length), regex } };
    };
    let chunk: { regexes: string[]; members: number[] } = { regexes: [], members: [] };
    for (const m of members) {
      if (chunk.members.length && chunk.regexes.length + m.regexes.length > UNION_SIZE) {
        out.push({ guard: guard(chunk.regexes), members: chunk.members });
        chunk = { regexes: [], members: [] };
      }
      chunk.regexes.push(...m.regexes);
      chunk.members.push(m.member);
    }
    if (chunk.members.length) out.push({ guard: guard(chunk.regexes), members: chunk.members });
  }
  return [...out, ...unguarded];
}

/** Whether a rule alternative can match a node of this kind (its own kinds name it, or it names none). */
export const canBeKind = (branch: unknown, kind: string): boolean => guardOf(branch).kinds?.has(kind) ?? true;

/**
 * A rule that every node matching one of `rules` also matches, and cheap for most other nodes to
 * fail: alternatives grouped by node kind, and in each kind by their guards (see `guardedGroups`),
 * the guards standing for the alternatives. The many rules that look for a name among identifiers
 * then cost a few regexes per identifier instead of one check each. `kindsOnly` keeps only the
 * kinds: half the compile (the alternatives are not compiled a second time), for a batch too small
 * for the filtering to pay for it.
 */
export function prefilter(rules: unknown[], kindsOnly = false): Rule {
  const byKind = new Map<string, unknown[]>();
  const loose: unknown[] = [];
  for (const branch of rules.flatMap(branchesOf)) {
    const kinds = guardOf(branch).kinds;
    if (!kinds) loose.push(branch);
    else for (const kind of [...kinds].sort()) (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(branch);
  }
  const groups = [...byKind].map(([kind, branches]) =>
    kindsOnly ? { kind } : { kind, any: guardedGroups(branches).map((g) => g.guard ?? branches[g.members[0]!]) },
  );
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
    else for (const kind of kinds) (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(k);
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

/**
 * Each regex written more than once in a matcher (a rule's regex repeated in the gate's guards and
 * in the rule's own alternative, a vocabulary shared by several rules) becomes one utility rule the
 * others reference: ast-grep compiles a regex wherever it is written, and compiling the regexes
 * is most of a matcher's compile.
 */
export function shareRegexes(config: { rule: unknown; utils: Record<string, unknown> }): { rule: unknown; utils: Record<string, unknown> } {
  const count = new Map<string, number>();
  const walk = (x: unknown, f: (rule: Record<string, unknown>) => Record<string, unknown>): unknown => {
    if (Array.isArray(x)) return x.map((y) => walk(y, f));
    if (!x || typeof x !== 'object') return x;
    return f(Object.fromEntries(Object.entries(x).map(([k, v]) => [k, walk(v, f)])));
  };
  const each = (x: unknown, f: (rule: Record<string, unknown>) => Record<string, unknown>) => [walk(x, f), Object.fromEntries(Object.entries(config.utils).map(([k, v]) => [k, walk(v, f)]))] as const;
  each(config.rule, (r) => {
    if (typeof r.regex === 'string') count.set(r.regex, (count.get(r.regex) ?? 0) + 1);
    return r;
  });
  const names = new Map<string, string>();
  const [rule, utils] = each(config.rule, (r) => {
    if (typeof r.regex !== 'string' || (count.get(r.regex) ?? 0) < 2) return r;
    let name = names.get(r.regex);
    if (!name) names.set(r.regex, (name = `regex${names.size}`));
    const { regex: _, ...rest } = r;
    // A rule holds one `matches`: a second reference joins it through `all`.
    if (!('matches' in rest)) return { ...rest, matches: name };
    return { ...rest, all: [...((rest.all as unknown[]) ?? []), { matches: name }] };
  });
  for (const [regex, name] of names) utils[name] = { regex };
  return { rule, utils };
}
