import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planOf } from '../../src/facts/plan.js';
import { cacheMatchers, readMatcher, SHIPPED_MATCHERS, writeMatcher } from '../../src/facts/matcherStore.js';
import { type Matcher, storeMatchers } from '../../src/facts/scan.js';
import { loadRubric } from '../../src/rubric/load.js';
import { RUBRIC } from '../helpers.js';

const matcher = (n: number): Matcher => ({ config: { rule: { kind: `kind${n}` } } as Matcher['config'], index: { kinds: [[`kind${n}`, [0]]], anyKind: [] } });

describe('stored combined matchers', () => {
  it('gives back what was stored under the same key, and nothing for another key or an unreadable entry', () => {
    const cache = mkdtempSync(join(tmpdir(), 'matchers-'));
    writeMatcher('key one', cacheMatchers(cache), matcher(1));
    expect(readMatcher('key one', cache)).toEqual(matcher(1));
    expect(readMatcher('key two', cache)).toBeNull();
    expect(readMatcher('key one')).toBeNull();
    // A torn or hand-edited entry is built again, never used.
    const [entry] = readdirSync(cacheMatchers(cache));
    writeFileSync(join(cacheMatchers(cache), entry!), '{"config": {');
    expect(readMatcher('key one', cache)).toBeNull();
    writeFileSync(join(cacheMatchers(cache), entry!), '{"config": {}, "index": null}');
    expect(readMatcher('key one', cache)).toBeNull();
  });

  it('keeps the newest 64 in a cache folder', () => {
    const dir = cacheMatchers(mkdtempSync(join(tmpdir(), 'matchers-')));
    for (let n = 0; n < 70; n++) {
      writeMatcher(`key ${n}`, dir, matcher(n));
      // Distinct ages, oldest first, whatever the file system's clock resolution.
      for (const f of readdirSync(dir)) if (!f.endsWith('.tmp')) utimesSync(join(dir, f), 1_000 + n, 1_000 + n);
    }
    const cache = join(dir, '..');
    expect(readdirSync(dir)).toHaveLength(64);
    expect(readMatcher('key 69', cache)).toEqual(matcher(69));
  });

  it('are stored by the build for the bundled rubric: one per parser and scan size its rules use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchers-'));
    storeMatchers(planOf(loadRubric(RUBRIC)).probes, dir);
    const count = readdirSync(dir).length;
    // TypeScript, TSX (JavaScript too), Python, Rust and Go, each for small and large scans.
    expect(count).toBe(10);
    expect(readdirSync(SHIPPED_MATCHERS).filter((f) => f.endsWith('.json'))).toHaveLength(count);
  });
});
