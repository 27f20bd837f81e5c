import { describe, expect, it } from 'vitest';
import { requiredLiterals } from '../src/probes/prefilter.js';
import { loadRubric } from '../src/rubric/load.js';
import { testProbe } from '../src/probes/selftest.js';
import { RUBRIC } from './helpers.js';

describe('regex prefilter literals', () => {
  it.each([
    ['\\.env_clear\\(\\)', false, ['.env_clear()']],
    ['killpg|setsid', false, ['killpg', 'setsid']],
    ['Sha256::new|hashlib\\.sha256', false, ['Sha256::new', 'hashlib.sha256']],
    ['allow_?once|always_?allow', true, ['allow', 'always']],
    ['--tmpfs"[^\\n]*(home|data)', true, ['--tmpfs"']],
    ['max_?(response|body)_?bytes', false, ['bytes']],
    ['xyzb+cd', false, ['xyzb']],
    ["\\x27npx\\x27,\\s*\\x27-y", false, ["'npx',"]],
    ['\\u0041bcd|\\p{L}xyz', false, ['bcd', 'xyz']],
  ])('%s → %j', (source, ic, expected) => {
    expect(requiredLiterals(source, ic)).toEqual(expected);
  });

  it.each([['\\b(a|b)\\b'], ['(foo|bar)baz?'], ['x|[abc]+'], ['[unclosed'], ['ab+cd']])('gives no prefilter for %s', (source) => {
    expect(requiredLiterals(source, false)).toBeNull();
  });

  it('never rejects a file that one of its own probe snippets matches', () => {
    const rubric = loadRubric(RUBRIC);
    for (const probe of rubric.probes.filter((p) => p.engine === 'text')) {
      const lits = requiredLiterals(probe.pattern!, probe.ignoreCase);
      if (!lits) continue;
      for (const s of probe.tests.match) {
        const text = probe.ignoreCase ? s.code.toLowerCase() : s.code;
        expect(lits.some((l) => text.includes(l)), `${probe.id}: ${lits.join(' | ')} vs ${s.code}`).toBe(true);
      }
      expect(testProbe(probe).every((o) => o.ok)).toBe(true);
    }
  });
});
