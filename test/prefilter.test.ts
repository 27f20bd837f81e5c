import { describe, expect, it } from 'vitest';
import { requiredLiterals, requiredWords } from '../src/probes/prefilter.js';
import { loadRubric } from '../src/rubric/load.js';
import { testProbe } from '../src/probes/selftest.js';
import { RUBRIC } from './helpers.js';

describe('ast-grep rule words', () => {
  it('takes words from patterns and node regexes, and gives up where a match needs none', () => {
    expect(requiredWords({ pattern: '$C.env_clear()' })).toEqual(['env_clear']);
    expect(requiredWords({ all: [{ kind: 'call_expression' }, { has: { field: 'function', regex: '^(os\\.)?(system|popen)$' } }] })).toEqual(['system', 'popen']);
    expect(requiredWords({ any: [{ pattern: 'foo($A)' }, { kind: 'pair' }] })).toBeNull();
    expect(requiredWords({ not: { pattern: 'foo()' } })).toBeNull();
    // A case-insensitive regex anywhere in the rule: lower-cased, to be compared with the lower-cased text.
    expect(requiredWords({ all: [{ kind: 'identifier' }, { regex: '(?i)^(apiKey|secretToken)$' }] })).toEqual(['apikey', 'secrettoken']);
    // all: the most selective child (longest shortest word) is required
    expect(requiredWords({ all: [{ has: { regex: '^(log|print)$' } }, { has: { regex: '(apiKey|secretToken)' } }] })).toEqual(['apiKey', 'secretToken']);
  });

  it('never skips a file that one of its own ast-grep probe snippets matches', () => {
    const rubric = loadRubric(RUBRIC);
    for (const probe of rubric.probes.filter((p) => p.engine === 'ast-grep')) {
      for (const s of probe.tests.match) {
        const lang = s.lang === 'tsx' || s.lang === 'javascript' ? 'typescript' : s.lang;
        const rule = probe.rules?.[s.lang] ?? probe.rules?.[lang];
        if (!rule) continue;
        const words = requiredWords(rule);
        if (words) expect(words.some((w) => (JSON.stringify(rule).includes('(?i') ? s.code.toLowerCase() : s.code).includes(w)), `${probe.id} ${s.lang}: ${words.join(' | ')} vs ${s.code}`).toBe(true);
      }
    }
  });
});

describe('regex prefilter literals', () => {
  it.each([
    ['\\.env_clear\\(\\)', false, ['.env_clear()']],
    ['killpg|setsid', false, ['killpg', 'setsid']],
    ['Sha256::new|hashlib\\.sha256', false, ['Sha256::new', 'hashlib.sha256']],
    ['allow_?once|always_?allow', true, ['allow', 'always']],
    ['--tmpfs"[^\\n]*(home|data)', true, ['--tmpfs"']],
    ['max_?(response|body)_?bytes', false, ['bytes']],
    ['xyzb+cd', false, ['xyzb']],
    ['(foo|bar)baz?', false, ['foo', 'bar']],
    ['^((child_process|cp)\\.)?(exec|execSync)$', false, ['exec', 'execSync']],
    ["\\x27npx\\x27,\\s*\\x27-y", false, ["'npx',"]],
    ['\\u0041bcd|\\p{L}xyz', false, ['bcd', 'xyz']],
  ])('%s → %j', (source, ic, expected) => {
    expect(requiredLiterals(source, ic)).toEqual(expected);
  });

  it.each([['\\b(a|b)\\b'], ['x|[abc]+'], ['[unclosed'], ['ab+cd']])('gives no prefilter for %s', (source) => {
    expect(requiredLiterals(source, false)).toBeNull();
  });

  it('never rejects a file that one of its own probe snippets matches', async () => {
    const rubric = loadRubric(RUBRIC);
    for (const probe of rubric.probes.filter((p) => p.engine === 'text')) {
      const lits = requiredLiterals(probe.pattern!, probe.ignoreCase);
      if (!lits) continue;
      for (const s of probe.tests.match) {
        const text = probe.ignoreCase ? s.code.toLowerCase() : s.code;
        expect(lits.some((l) => text.includes(l)), `${probe.id}: ${lits.join(' | ')} vs ${s.code}`).toBe(true);
      }
      expect((await testProbe(probe)).filter((o) => !o.ok && o.expect === 'match' && o.why.includes('does not read'))).toEqual([]);
    }
  });
});
