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
  /** Per field, regexes the node's child in that field matches at least one of (from `has: { field, regex }`). */
  fields: Map<string, string[]>;
}

/** The child a `has` names by its field, when the relation looks at that child alone (no `stopBy`). */
function fieldGuard(has: unknown): Map<string, string[]> {
  if (!has || typeof has !== 'object' || Array.isArray(has)) return new Map();
  const h = has as Rule;
  if (typeof h.field !== 'string' || h.stopBy !== undefined) return new Map();
  const regexes = guardOf(h).regexes;
  return regexes ? new Map([[h.field, regexes]]) : new Map();
}

export function guardOf(rule: unknown): Guard {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return { kinds: null, regexes: null, fields: new Map() };
  const r = rule as Rule;
  // An object is a conjunction: each part is necessary, so any one part's guard holds.
  const parts: Guard[] = [];
  if (typeof r.kind === 'string') parts.push({ kinds: new Set([r.kind]), regexes: null, fields: new Map() });
  if (typeof r.regex === 'string') parts.push({ kinds: null, regexes: [r.regex], fields: new Map() });
  if (r.has !== undefined) parts.push({ kinds: null, regexes: null, fields: fieldGuard(r.has) });
  if (Array.isArray(r.all)) parts.push(...r.all.map(guardOf));
  // A disjunction holds one of its branches' guards: known only when every branch knows it.
  if (Array.isArray(r.any) && r.any.length > 0) {
    const branches = r.any.map(guardOf);
    const fields = new Map<string, string[]>();
    for (const f of branches[0]!.fields.keys()) if (branches.every((b) => b.fields.has(f))) fields.set(f, branches.flatMap((b) => b.fields.get(f)!));
    parts.push({
      kinds: branches.every((b) => b.kinds) ? new Set(branches.flatMap((b) => [...b.kinds!])) : null,
      regexes: branches.every((b) => b.regexes) ? branches.flatMap((b) => b.regexes!) : null,
      fields,
    });
  }
  const known = parts.flatMap((p) => (p.kinds ? [p.kinds] : []));
  const kinds = known.length ? known.reduce((a, b) => new Set([...a].filter((k) => b.has(k)))) : null;
  // The shortest list of regexes is the cheapest to test.
  const shortest = (lists: string[][]) => lists.sort((a, b) => a.length - b.length)[0] ?? null;
  const regexes = shortest(parts.flatMap((p) => (p.regexes ? [p.regexes] : [])));
  const fields = new Map<string, string[]>();
  for (const f of new Set(parts.flatMap((p) => [...p.fields.keys()]))) fields.set(f, shortest(parts.flatMap((p) => (p.fields.has(f) ? [p.fields.get(f)!] : [])))!);
  return { kinds, regexes, fields };
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
const unionRegex = (regexes: string[]) => (regexes.length === 1 ? regexes[0]! : regexes.map((re) => `(?:${re})`).join('|'));

/** The top-level alternatives of a regex (or of a group's body), split at `|` outside groups and classes. */
function alternativesOf(re: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(re.slice(start, i));
      start = i + 1;
    }
  }
  out.push(re.slice(start));
  return out;
}

/** The body of a group that spans all of `re` (`(…)`, `(?:…)`, `(?i:…)`), or null. */
function wholeGroup(re: string): string | null {
  if (!re.startsWith('(') || !re.endsWith(')') || alternativesOf(re).length !== 1) return null;
  // The group opened first must close last: nothing outside it at depth 0.
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0 && i !== re.length - 1) return null;
  }
  return re.slice(1, -1).replace(/^\?[a-zA-Z-]*:/, '');
}

const FLAGS = /^\(\?[a-zA-Z-]+\)/;
/** Whether every match of `re` starts at the text's start (`^…`) or ends at its end (`…$`). */
function anchored(re: string, end: boolean): boolean {
  const body = re.replace(FLAGS, '');
  return alternativesOf(body).every((alt) => {
    const a = alt.replace(FLAGS, '');
    if (end ? /(^|[^\\])\$$/.test(a) : a.startsWith('^')) return true;
    const group = wholeGroup(a);
    if (group !== null) return anchored(group, end);
    if (end) {
      // `x(a$|b$)`: a closing group at the end, every alternative in it anchored.
      const last = lastGroup(a);
      return last !== null && anchored(last, true);
    }
    // `(^|\.)x`: an opening group at the start, every alternative in it anchored.
    const first = firstGroup(a);
    return first !== null && anchored(first, false);
  });
}
function lastGroup(a: string): string | null {
  if (!a.endsWith(')')) return null;
  for (let i = a.length - 2; i >= 0; i--) if (a[i] === '(' && wholeGroup(a.slice(i)) !== null) return wholeGroup(a.slice(i));
  return null;
}
function firstGroup(a: string): string | null {
  if (!a.startsWith('(')) return null;
  for (let i = 2; i <= a.length; i++) if (a[i - 1] === ')' && wholeGroup(a.slice(0, i)) !== null) return /^[*?+{]/.test(a.slice(i)) ? null : wholeGroup(a.slice(0, i));
  return null;
}

/**
 * Regexes joined into as few unions as keep the regex engine fast: those anchored at the start,
 * those anchored at the end (searched backwards from it), and the rest. One union of all of them
 * is unanchored and scans every text whole: on gemini-cli a call's callee tried against the union
 * of 98 callee regexes cost 1.6 s of CPU in a first audit, split this way 0.4 s. Any split matches
 * where the whole union does, so a wrong guess here costs time, never a match.
 */
export function unionRegexes(regexes: string[]): string[] {
  const groups: [string[], string[], string[]] = [[], [], []];
  for (const re of new Set(regexes)) groups[anchored(re, false) ? 0 : anchored(re, true) ? 1 : 2].push(re);
  return groups.filter((g) => g.length).map(unionRegex);
}

/**
 * A rule that every node matching one of `rules` also matches, and cheap for most other nodes to
 * fail: alternatives grouped by node kind, and in each kind the alternatives that carry a regex
 * replaced by one regex for all of them, and those that test a field's child with a regex (`has:
 * { field: function, regex }`, a callee) by one such test per field. The many rules that look for
 * a name among identifiers, or for a callee among calls, then cost one regex per node instead of
 * one check each (on gemini-cli a call tried 100 callee regexes). `kindsOnly` keeps only the kinds:
 * half the compile (the alternatives are not compiled a second time), for a batch too small for
 * the filtering to pay for it.
 */
export function prefilter(rules: unknown[], kindsOnly = false): Rule {
  const byKind = new Map<string, { regexes: string[]; fields: Map<string, string[]>; rest: unknown[] }>();
  const loose: unknown[] = [];
  const guarded = rules.flatMap(branchesOf).map((branch) => ({ branch, g: guardOf(branch) }));
  // A branch tests the field most branches of its kinds test: one regex for all of them (a call's
  // callee, not its arguments, whose text can be most of the file).
  const fieldUse = new Map<string, number>();
  for (const { g } of guarded) if (g.kinds && !g.regexes) for (const kind of g.kinds) for (const f of g.fields.keys()) fieldUse.set(`${kind}\0${f}`, (fieldUse.get(`${kind}\0${f}`) ?? 0) + 1);
  for (const { branch, g } of guarded) {
    if (!g.kinds) {
      loose.push(branch);
      continue;
    }
    for (const kind of [...g.kinds].sort()) {
      let group = byKind.get(kind);
      if (!group) byKind.set(kind, (group = { regexes: [], fields: new Map(), rest: [] }));
      const use = (f: string) => fieldUse.get(`${kind}\0${f}`) ?? 0;
      const field = g.regexes ? undefined : [...g.fields.keys()].sort((a, b) => use(b) - use(a) || (a < b ? -1 : 1))[0];
      if (g.regexes) group.regexes.push(...g.regexes);
      else if (field) group.fields.set(field, [...(group.fields.get(field) ?? []), ...g.fields.get(field)!]);
      else group.rest.push(branch);
    }
  }
  const groups = [...byKind].map(([kind, { regexes, fields, rest }]) =>
    kindsOnly
      ? { kind }
      : {
          kind,
          any: [
            ...unionRegexes(regexes).map((regex) => ({ regex })),
            ...[...fields].sort((a, b) => (a[0] < b[0] ? -1 : 1)).flatMap(([field, res]) => unionRegexes(res).map((regex) => ({ has: { field, regex } }))),
            ...rest,
          ],
        },
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
