import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaderboardCsv } from '../src/batch/leaderboard.js';
import { readTargets, shardOf, slugOf } from '../src/batch/targets.js';
import { cli, fixtureRepo } from './helpers.js';

/**
 * The CLI run in this process (see `cli` in helpers.ts). The batch itself still scores each
 * target in an `audit score` process of its own, from dist/cli.js: that is what it is.
 */
const run = (...args: string[]) => cli(args);

describe('target lists', () => {
  it('reads repo[@commit] lines, comments, scp URLs and YAML', () => {
    const dir = mkdtempSync(join(tmpdir(), 'targets-'));
    writeFileSync(join(dir, 't.txt'), '# agents\nowner/repo@v1.2\n\ngit@github.com:o/r.git\ngit@github.com:o/r.git@abc1234  # pinned\nhttps://example.com/x.git\n');
    expect(readTargets(join(dir, 't.txt'))).toEqual([
      { repo: 'owner/repo', commit: 'v1.2' },
      { repo: 'git@github.com:o/r.git' },
      { repo: 'git@github.com:o/r.git', commit: 'abc1234' },
      { repo: 'https://example.com/x.git' },
    ]);
    writeFileSync(join(dir, 't.yaml'), '- owner/repo\n- { repo: ./local, commit: deadbeef }\n');
    expect(readTargets(join(dir, 't.yaml'))).toEqual([{ repo: 'owner/repo' }, { repo: './local', commit: 'deadbeef' }]);
    writeFileSync(join(dir, 'bad.yaml'), '- { repo: 3 }\n');
    expect(() => readTargets(join(dir, 'bad.yaml'))).toThrow(/bad\.yaml: at 0/);
  });

  it('splits a list into disjoint shards that cover it', () => {
    const items = [...'abcdefg'];
    const shards = [1, 2, 3].map((i) => shardOf(items, `${i}/3`));
    expect(shards.flat().sort()).toEqual(items);
    expect(shards[0]).toEqual(['a', 'd', 'g']);
    expect(() => shardOf(items, '4/3')).toThrow(/--shard/);
    expect(slugOf({ repo: 'https://github.com/o/r.git', commit: 'abc' })).toBe('github.com_o_r@abc');
  });

  it('keeps CSV cells from being read as formulas', () => {
    const csv = leaderboardCsv([{ target: '=HYPERLINK("x")', report: null, error: 'a, "quoted" error' }]);
    expect(csv.split('\n')[1]).toBe(`,"'=HYPERLINK(""x"")",,,,,,,"a, ""quoted"" error"`);
  });
});

describe('audit batch', () => {
  let dir: string;
  let list: string;
  let repos: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-'));
    repos = Object.fromEntries(['desktop-chat', 'naive-agent', 'hardened-agent'].map((n) => [n, fixtureRepo(n).dir]));
    list = join(dir, 'targets.txt');
    writeFileSync(list, `${repos['naive-agent']}\n${repos['desktop-chat']}\n/no/such/repo/anywhere\n${repos['hardened-agent']}\n`);
  });

  it('scores every target, lists the failure, ranks by total, exits 1 for the failure, and resumes', async () => {
    const out = join(dir, 'out');
    const r = await run('batch', list, '--jobs', '2', '--out-dir', out);
    // A failed target fails the batch like a gate: exit 1 after every file is written.
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`3 scored, 1 failed; leaderboard in ${join(out, 'leaderboard.md')}\n`);
    // No progress (that is only for a terminal): just the one line naming the failure.
    expect(r.stderr).toBe(`audit: 1 of 4 targets failed: /no/such/repo/anywhere (errors in ${join(out, 'leaderboard.md')})\n`);
    const md = readFileSync(join(out, 'leaderboard.md'), 'utf8');
    const ranked = md.split('\n').filter((l) => /^\| \d+ \|/.test(l)).map((l) => l.split('|')[2]!.trim());
    expect(ranked).toEqual(['hardened-agent', 'desktop-chat', 'naive-agent']);
    expect(md).toMatch(/## Failed\n\n- `\/no\/such\/repo\/anywhere`: /);
    const csv = readFileSync(join(out, 'leaderboard.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(5);
    expect(csv[2]).toMatch(/^2,.*desktop-chat,desktop-chat,[0-9a-f]{40},4\.7,Minimal,/);
    const report = join(out, 'reports', `${readdirName(out, 'desktop-chat')}.md`);
    expect(readFileSync(report, 'utf8')).toMatch(/^# Defense-in-Depth Score: desktop-chat/);

    const before = statSync(join(out, 'reports', `${readdirName(out, 'desktop-chat')}.json`)).mtimeMs;
    const again = await run('batch', list, '--out-dir', out);
    expect(again.code).toBe(1);
    // The three reports already there are reused, and said to be, not counted as scored again.
    expect(again.stdout).toBe(`0 scored, 3 skipped (already scored), 1 failed; leaderboard in ${join(out, 'leaderboard.md')}\n`);
    expect(statSync(join(out, 'reports', `${readdirName(out, 'desktop-chat')}.json`)).mtimeMs).toBe(before);
  });

  it('runs shards that merge into the same leaderboard', async () => {
    const whole = join(dir, 'whole');
    expect((await run('batch', list, '--out-dir', whole)).code).toBe(1);
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    // Shard 1 holds the missing repository (targets 1 and 3); shard 2 scores both of its targets and passes.
    expect((await run('batch', list, '--shard', '1/2', '--out-dir', a)).code).toBe(1);
    const second = await run('batch', list, '--shard', '2/2', '--out-dir', b);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^2 scored, 0 failed; /);
    expect(second.stderr).toBe('');
    const merged = join(dir, 'merged');
    const m = await run('batch', 'merge', join(a, 'reports'), join(b, 'reports'), '--out-dir', merged);
    expect(m.code).toBe(0);
    expect(m.stdout).toMatch(/^3 reports merged/);
    const rows = (f: string) => readFileSync(f, 'utf8').split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(rows(join(merged, 'leaderboard.md'))).toEqual(rows(join(whole, 'leaderboard.md')));
  });
});

function readdirName(out: string, name: string): string {
  const all = spawnSync('ls', [join(out, 'reports')], { encoding: 'utf8' }).stdout.split('\n');
  return all.find((f) => f.endsWith(`${name}.json`))!.replace(/\.json$/, '');
}
