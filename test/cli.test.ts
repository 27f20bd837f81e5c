import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, CLI, fixtureRepo, git, ROOT, RUBRIC } from './helpers.js';

/** The CLI run in this process (see `cli` in helpers.ts): what most tests here check is its output and exit code. */
const run = (...args: string[]) => cli(args);

/**
 * The built binary, `node dist/cli.js`, in a process of its own: for the few tests that keep its
 * entry point covered (start-up, the exit code it ends with, an error with no stack trace), and
 * the cross-check that it prints what the in-process run prints.
 */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('audit CLI', () => {
  // The built binary end to end: start-up, a whole audit, the exit code it ends with.
  it('scores the demo fixture folder as JSON with the 40 Jan levels and total 4.7', () => {
    const r = spawned('score', 'fixtures/desktop-chat', '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.target.commit).toBeNull();
    expect(report.target.kind).toBe('folder');
    expect(report.criteria.map((c: { levels: Record<string, number> }) => Object.values(c.levels).join('')).join(' ')).toBe('2232 3222 2212 3342 2121 2331 1121 2222 2221 1110');
    expect(report.total.toFixed(1)).toBe('4.7');
    expect(report.rubric).toMatchObject({ id: 'dids', version: '1.0.0' });
    expect(report.ruleOfTwo.sameDefaultSession).toBe(true);
  });

  it('pins a commit by short SHA and is byte-identical across runs', async () => {
    const { dir, commit } = fixtureRepo('desktop-chat');
    // Both runs compute the report: the result cache would make the comparison trivial. One is
    // the built binary in a process of its own, the other the in-process run the other tests use:
    // the same bytes from both is what lets those tests stand for the binary.
    const a = spawned('score', dir, '--commit', commit.slice(0, 8), '--no-result-cache');
    const b = await run('score', dir, '--commit', commit, '--no-result-cache');
    expect(a.code).toBe(0);
    expect(a.stdout).toContain(`**Commit:** \`${commit}\``);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toMatch(/Reviewed/);
  });

  it('reads a bare repository (a mirror) in place, pinned to its HEAD', async () => {
    const { dir, commit } = fixtureRepo('desktop-chat');
    const bare = `${dir}-mirror.git`;
    git(dirname(dir), 'clone', '-q', '--bare', dir, bare);
    const r = await run('score', bare, '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    // The name is the package metadata's (package.json), not the mirror folder's.
    expect(report.target).toMatchObject({ kind: 'git', commit, name: 'desktop-chat', dirtyFiles: 0 });
    expect(report.total.toFixed(1)).toBe('4.7');
  });

  it('serves a re-audit of the same commit, build and rubric from the result cache, and only then', async () => {
    // A small Python agent: the point is the cache, and its report is computed four times.
    const { dir, commit } = fixtureRepo('py-no-exec-agent');
    const cache = mkdtempSync(join(tmpdir(), 'results-'));
    const results = () => (existsSync(join(cache, 'results')) ? readdirSync(join(cache, 'results'), { recursive: true }).filter((f) => String(f).endsWith('.json')) : []);
    expect((await run('score', dir, '--commit', commit, '--cache-dir', cache, '--no-result-cache')).code).toBe(0);
    expect(results()).toHaveLength(0);
    const first = await run('score', dir, '--commit', commit, '--cache-dir', cache, '--format', 'json');
    expect(results()).toHaveLength(1);
    const second = await run('score', dir, '--commit', commit, '--cache-dir', cache, '--format', 'json');
    expect(second.stdout).toBe(first.stdout);
    // Proof the second answer came from the cache: a planted entry is what it returns. An entry is
    // its JSON after a line with the JSON's SHA-256; one that does not match is recomputed.
    const entry = join(cache, 'results', String(results()[0]));
    const stored = readFileSync(entry, 'utf8');
    const planted = JSON.parse(stored.slice(stored.indexOf('\n') + 1));
    planted.target.whatItIs = 'served from the result cache';
    const json = JSON.stringify(planted);
    writeFileSync(entry, `${createHash('sha256').update(json).digest('hex')}\n${json}`);
    expect(JSON.parse((await run('score', dir, '--commit', commit, '--cache-dir', cache, '--format', 'json')).stdout).target.whatItIs).toBe('served from the result cache');
    // Edited without its digest (a torn write, a hand edit): not served, the report is computed again.
    writeFileSync(entry, `${createHash('sha256').update(json).digest('hex')}\n${json.replace('served from the result cache', 'edited by hand')}`);
    expect(JSON.parse((await run('score', dir, '--commit', commit, '--cache-dir', cache, '--format', 'json')).stdout)).toEqual(JSON.parse(first.stdout));
    // A different rubric (any byte) is a different key.
    const rubric = join(mkdtempSync(join(tmpdir(), 'rubric-')), 'dids');
    cpSync(RUBRIC, rubric, { recursive: true });
    writeFileSync(join(rubric, 'playbooks.yaml'), `${readFileSync(join(rubric, 'playbooks.yaml'), 'utf8')}\n# edited\n`);
    const other = JSON.parse((await run('score', dir, '--commit', commit, '--cache-dir', cache, '--format', 'json', '--rubric', rubric)).stdout);
    expect(other.target.whatItIs).not.toBe('served from the result cache');
    expect(results()).toHaveLength(2);
  });

  it('answers a pinned commit from the result cache without listing its tree', async () => {
    const { dir, commit } = fixtureRepo('py-no-exec-agent');
    const cache = mkdtempSync(join(tmpdir(), 'results-'));
    const first = await run('score', dir, '--commit', commit, '--cache-dir', cache, '--format', 'json');
    expect(first.code).toBe(0);
    // The commit's root tree object goes: listing the tree now fails, resolving the commit does not.
    const tree = git(dir, 'rev-parse', `${commit}^{tree}`);
    rmSync(join(dir, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
    const again = await run('score', dir, '--commit', commit, '--cache-dir', cache, '--format', 'json');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    const computed = await run('score', dir, '--commit', commit, '--cache-dir', cache, '--no-result-cache');
    expect(computed.code).toBe(2);
    expect(computed.stderr).toMatch(/^audit: cannot list files of [0-9a-f]{40}: [^\n]*\n$/);
  });

  it('writes --out atomically and leaves nothing behind on failure', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'out-')), 'report.md');
    expect((await run('score', 'fixtures/py-no-exec-agent', '--out', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^# Defense-in-Depth Score: scout/);
    const bad = await run('score', 'fixtures/desktop-chat', '--out', '/nonexistent-dir/report.md');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('audit: cannot write /nonexistent-dir/report.md: folder /nonexistent-dir does not exist (expected a writable file path)\n');
    expect(existsSync('/nonexistent-dir')).toBe(false);
  });

  it.each([
    ['the root folder', () => '/', 'it is a folder'],
    ['an existing folder', () => mkdtempSync(join(tmpdir(), 'out-')), 'it is a folder'],
    ['a path ending in a slash', () => `${join(mkdtempSync(join(tmpdir(), 'out-')), 'new')}/`, 'it ends in a slash, so it names a folder'],
    ['a path under a file', () => {
      const file = join(mkdtempSync(join(tmpdir(), 'out-')), 'file');
      writeFileSync(file, 'keep');
      return join(file, 'report.md');
    }, 'is not a folder'],
  ])('refuses --out naming %s: one line with the path and what was expected, exit 2, nothing written', async (_what, path, why) => {
    const out = path();
    const before = existsSync(out) ? readdirSync(out).sort() : null;
    const r = await run('score', 'fixtures/desktop-chat', '--out', out);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^audit: [^\n]*\n$/);
    expect(r.stderr).toContain(`audit: cannot write ${out}: `);
    expect(r.stderr).toContain(`${why} (expected a writable file path)\n`);
    expect(r.stderr).not.toMatch(/EBUSY|EISDIR|ENOTDIR/);
    if (before) expect(readdirSync(out).sort()).toEqual(before);
  });

  it.each([
    ['an unknown commit', ['--commit', 'deadbeefdeadbeef'], /unknown commit 'deadbeefdeadbeef'/],
    ['a commit that looks like an option', ['--commit', '--upload-pack=touch'], /commit/],
  ])('fails on %s with one line and exit code 2', async (_what, extra, message) => {
    const { dir } = fixtureRepo('desktop-chat');
    const r = await run('score', dir, ...extra);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  // The first through the built binary: an error ends its process with the code and one line.
  it.each([
    ['a missing path that is not owner/repo', ['score', './no/such/folder/here'], spawned],
    ['a URL with an unsupported scheme', ['score', 'ext::sh -c touch% /tmp/pwned'], run],
    ['a --commit on a plain folder', ['score', 'fixtures/desktop-chat', '--commit', 'abc1234'], run],
    ['an unknown format', ['score', 'fixtures/desktop-chat', '--format', 'pdf'], run],
  ])('rejects %s with exit code 2 and no stack trace', async (_what, args, how) => {
    const r = await how(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('rejects a malformed rubric naming the file and the path inside it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'rubric-')), 'dids');
    cpSync(RUBRIC, dir, { recursive: true });
    writeFileSync(join(dir, 'criteria', 'C3.yaml'), readFileSync(join(dir, 'criteria', 'C3.yaml'), 'utf8').replace('title:', 'titel:'));
    const r = await run('score', 'fixtures/desktop-chat', '--rubric', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^audit: criteria\/C3\.yaml: at /);
  });

  it('prints the report JSON Schema generated from the zod type', async () => {
    const r = await run('schema');
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.$schema).toMatch(/2020-12/);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['rubric', 'target', 'criteria', 'total', 'band', 'surface', 'ruleOfTwo']));
  });

  // Every probe's snippets run in process in rubric.test.ts; here the command itself, on two probes.
  it('runs probes against their own snippets, and names an unknown probe', async () => {
    const r = await run('rules', 'test', '--probe', 'exec.host-spawn', 'approval.choices');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^2 probes, \d+ snippets passed, 0 failed$/m);
    const bad = await run('rules', 'test', '--probe', 'no.such-probe');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^audit: rules test --probe: no probe "no.such-probe" in /);
  });
});
