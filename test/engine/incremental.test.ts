import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { CLI, fixtureRepo, git, ROOT } from '../helpers.js';

// Each audit in a process of its own, as the CLI runs (not `cli` from helpers.ts): in this process
// the facts it keeps in memory would answer instead of the cache folder, and no audit would be cold.
function score(dir: string, commit: string, cache: string): Report {
  const r = spawnSync(process.execPath, [CLI, 'score', dir, '--commit', commit, '--cache-dir', cache, '--no-result-cache', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

/**
 * Distinct entries per facts set (one set per build and plan), largest first: the audit's own set
 * is the first. A set's entries are in its packs, each listing its keys in the JSON line after the
 * first.
 */
const entries = (cache: string) =>
  readdirSync(join(cache, 'facts'))
    .map((set) => {
      const keys = new Set<string>();
      for (const pack of readdirSync(join(cache, 'facts', set)).filter((f) => f.endsWith('.pack'))) {
        const index = JSON.parse(readFileSync(join(cache, 'facts', set, pack), 'utf8').split('\n')[1]!) as Array<[string, number, number]>;
        for (const [key] of index) keys.add(key);
      }
      return keys.size;
    })
    .sort((a, b) => b - a);

type Lines = { kind: 'lines'; path: string; startLine: number; endLine: number; verified: boolean };
const linesOf = (report: Report) => report.criteria.flatMap((c) => c.evidence).filter((e): e is typeof e & Lines => e.kind === 'lines');

describe('re-auditing the next commit with the facts cache', () => {
  it('reads only the changed file, verifies its moved evidence against its new content, and reports what a cold audit reports', () => {
    const { dir, commit } = fixtureRepo('py-no-exec-agent');
    const cache = mkdtempSync(join(tmpdir(), 'facts-'));
    const first = score(dir, commit, cache);
    // The audit's own facts only: verification reads the cited lines, it searches nothing again.
    const stored = entries(cache);
    expect(stored).toHaveLength(1);

    // One cited file gains a line at the top: everything cited in it moves down by one.
    const cited = linesOf(first).find((e) => e.path.endsWith('.py'))!;
    expect(cited).toBeDefined();
    writeFileSync(join(dir, cited.path), `# moved\n${readFileSync(join(dir, cited.path), 'utf8')}`);
    git(dir, 'commit', '-q', '-am', 'move');
    const next = git(dir, 'rev-parse', 'HEAD');

    const incremental = score(dir, next, cache);
    // Facts are kept by content: the changed file is the one new entry.
    expect(entries(cache)).toEqual([stored[0]! + 1]);
    const before = linesOf(first).filter((e) => e.path === cited.path);
    const after = linesOf(incremental).filter((e) => e.path === cited.path);
    expect(after.map((e) => [e.startLine, e.endLine])).toEqual(before.map((e) => [e.startLine + 1, e.endLine + 1]));
    expect(linesOf(incremental).every((e) => e.verified)).toBe(true);

    const cold = score(dir, next, mkdtempSync(join(tmpdir(), 'facts-')));
    expect(incremental).toEqual(cold);
  });
});
