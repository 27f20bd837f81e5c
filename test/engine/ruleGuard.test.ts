import { Lang, parse } from '@ast-grep/napi';
import { describe, expect, it } from 'vitest';
import { guardOf, kindIndex, prefilter, rulesOfKind } from '../../src/facts/ruleGuard.js';

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
});
