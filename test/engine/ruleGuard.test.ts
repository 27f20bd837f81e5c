import { Lang, parse } from '@ast-grep/napi';
import { describe, expect, it } from 'vitest';
import { guardedGroups, guardOf, kindIndex, prefilter, rulesOfKind, shareRegexes } from '../../src/facts/ruleGuard.js';

const sorted = (s: Set<string> | null) => (s ? [...s].sort() : null);

describe('rule guards (what every node a rule matches must satisfy)', () => {
  it('reads kinds and regexes from the node itself, not from relations or negations', () => {
    const g = guardOf({ kind: 'call_expression', has: { field: 'function', regex: '^exec$' }, not: { regex: 'x' } });
    expect(sorted(g.kinds)).toEqual(['call_expression']);
    expect(g.regexes).toBeNull();
    const h = guardOf({ all: [{ any: [{ kind: 'identifier' }, { kind: 'property_identifier' }] }, { regex: '^TOKEN$' }, { inside: { kind: 'program', stopBy: 'end' } }] });
    expect(sorted(h.kinds)).toEqual(['identifier', 'property_identifier']);
    expect(h.regexes).toEqual(['^TOKEN$']);
  });

  it('knows a disjunction only as far as every branch does', () => {
    const g = guardOf({ any: [{ kind: 'identifier', regex: 'a' }, { kind: 'string', regex: 'b' }] });
    expect(sorted(g.kinds)).toEqual(['identifier', 'string']);
    expect(g.regexes).toEqual(['a', 'b']);
    const h = guardOf({ any: [{ kind: 'identifier', regex: 'a' }, { kind: 'string' }] });
    expect(h.regexes).toBeNull();
    expect(guardOf({ any: [{ kind: 'identifier' }, { pattern: 'foo($A)' }] }).kinds).toBeNull();
  });

  it('lets through every node any rule matches, and far fewer of the others', () => {
    const rules = [
      { any: [{ kind: 'identifier' }, { kind: 'property_identifier' }], regex: '(?i)^api_?key$' },
      { kind: 'identifier', regex: '^exec$', not: { inside: { kind: 'import_statement', stopBy: 'end' } } },
      { kind: 'call_expression', has: { field: 'function', regex: 'spawn$' } },
      { pattern: 'eval($X)' },
      { kind: 'string_fragment', regex: '(?-i:[A-Z])+' },
    ];
    const source = 'import { exec } from "x";\nconst apiKey = 1; obj.API_KEY = 2; exec("A"); cp.spawn("b"); eval(code); other(1);\n';
    const root = parse(Lang.TypeScript, source).root();
    const at = (rule: object) => root.findAll({ rule } as never).map((n) => `${n.kind()}@${n.range().start.index}`);
    const gate = at(prefilter(rules));
    const matched = [...new Set(rules.flatMap(at))];
    expect(matched.length).toBeGreaterThan(4);
    for (const m of matched) expect(gate).toContain(m);
    // The identifiers named other than the regexes say (obj, cp, code, other …) are kept out.
    expect(gate.filter((g) => g.startsWith('identifier')).length).toBeLessThan(at({ kind: 'identifier' }).length);
  });

  it('lists, for a node kind, the rules that can match it', () => {
    const byKind = rulesOfKind(kindIndex([{ kind: 'identifier' }, { pattern: 'f($A)' }, { any: [{ kind: 'string' }, { kind: 'identifier' }] }]));
    expect(byKind.of('identifier')).toEqual([0, 1, 2]);
    expect(byKind.of('string')).toEqual([1, 2]);
    expect(byKind.of('number')).toEqual([1]);
  });
  it('reads a child at a field as a guard, but not a search below it', () => {
    expect(guardOf({ kind: 'call_expression', has: { field: 'function', regex: '^exec$' } }).field).toEqual({ name: 'function', regexes: ['^exec$'] });
    expect(guardOf({ all: [{ kind: 'call_expression' }, { has: { field: 'function', any: [{ regex: '^a' }, { regex: '(?i)^b' }] } }] }).field).toEqual({ name: 'function', regexes: ['^a', '(?i)^b'] });
    expect(guardOf({ kind: 'call_expression', has: { field: 'arguments', stopBy: 'end', regex: '^x' } }).field).toBeNull();
    expect(guardOf({ any: [{ has: { field: 'function', regex: '^a' } }, { has: { field: 'arguments', regex: '^b' } }] }).field).toBeNull();
    // Unanchored regexes make no field guard: their unions cost memory (see fieldGuardOf).
    expect(guardOf({ kind: 'call_expression', has: { field: 'function', regex: '(^|\\.)exec$' } }).field).toBeNull();
  });

  it('groups alternatives behind guards of a few regexes each, and keeps the unguarded ones on their own', () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({ kind: 'call_expression', has: { field: 'function', regex: `^f${i}$` } }));
    const groups = guardedGroups([...calls, { kind: 'call_expression', pattern: 'g($A)' }]);
    expect(groups.map((g) => g.members.length)).toEqual([16, 4, 1]);
    expect(groups.at(-1)).toEqual({ guard: null, members: [20] });
    expect(groups[0]!.guard).toEqual({ has: { field: 'function', regex: calls.slice(0, 16).map((c) => `(?:${c.has.regex})`).join('|') } });
  });

  it('lets through every call a callee rule matches, and not the other calls', () => {
    const rules = Array.from({ length: 12 }, (_, i) => ({ kind: 'call_expression', has: { field: 'function', regex: `^(cp\\.)?run${i}$` }, not: { has: { field: 'arguments', regex: 'skip' } } }));
    const source = Array.from({ length: 12 }, (_, i) => `cp.run${i}(a); run${i}(skip); other${i}(b);`).join('\n');
    const root = parse(Lang.TypeScript, source).root();
    const at = (rule: object) => root.findAll({ rule } as never).map((n) => `${n.kind()}@${n.range().start.index}`);
    const gate = at(prefilter(rules));
    const matched = [...new Set(rules.flatMap(at))];
    expect(matched).toHaveLength(12);
    for (const m of matched) expect(gate).toContain(m);
    // The calls to run0…run11 pass (the gate is a necessary condition); other0…other11 do not.
    expect(gate.filter((g) => g.startsWith('call_expression'))).toHaveLength(24);
  });

  it('writes each repeated regex once, as a rule the others reference, and matches the same nodes', () => {
    const callee = '^(exec|spawn)$';
    const rule = {
      any: [
        { kind: 'call_expression', has: { field: 'function', regex: callee } },
        { all: [{ kind: 'call_expression' }, { has: { field: 'function', regex: callee, matches: 'short' } }] },
        { kind: 'identifier', regex: '^once$' },
      ],
    };
    const utils = { short: { regex: '^.{1,5}$' }, named: { kind: 'identifier', regex: callee } };
    const shared = shareRegexes({ rule, utils });
    const regexes: string[] = [];
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) k === 'regex' ? regexes.push(v as string) : walk(v);
    };
    walk(shared);
    expect(regexes.sort()).toEqual(['^(exec|spawn)$', '^.{1,5}$', '^once$'].sort());
    const root = parse(Lang.TypeScript, 'exec(a); spawn(b); cp.spawn(c); once; other(d); exec;\n').root();
    const at = (config: object) => root.findAll(config as never).map((n) => `${n.kind()}@${n.range().start.index}`);
    expect(at(shared)).toEqual(at({ rule, utils }));
    expect(at(shared)).toEqual(['call_expression@0', 'call_expression@9', 'identifier@32']);
  });
});

