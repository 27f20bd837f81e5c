import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquire, defaultCacheDir, InputError, parseTarget } from '../src/acquire/index.js';
import { cacheSegments } from '../src/acquire/target.js';

// Test fixtures are built with the test's own git, isolated from the user's config.
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const commitAll = (cwd: string, msg: string) => {
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', msg);
  return git(cwd, 'rev-parse', 'HEAD');
};

let tmp: string;
let repo: string;
let c1: string;
let c2: string;
const BIN = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]);
const BIG = 'x'.repeat(300_000);

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'acquire-test-'));
  repo = path.join(tmp, 'repo');
  mkdirSync(path.join(repo, 'sub'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'README.md'), 'one\n');
  writeFileSync(path.join(repo, 'bin.dat'), BIN);
  writeFileSync(path.join(repo, 'big.txt'), BIG);
  writeFileSync(path.join(repo, 'sub', 'a.txt'), 'a\n');
  symlinkSync('/etc/passwd', path.join(repo, 'evil'));
  c1 = commitAll(repo, 'first');
  git(repo, 'tag', '-a', 'v1.0', '-m', 'v1');
  writeFileSync(path.join(repo, 'README.md'), 'two\n');
  c2 = commitAll(repo, 'second');
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parseTarget', () => {
  it('classifies every form', () => {
    mkdirSync(path.join(tmp, 'fixtures', 'desktop-chat'), { recursive: true });
    mkdirSync(path.join(tmp, 'owner2', 'repo2'), { recursive: true });
    // An existing path beats the owner/repo shorthand.
    expect(parseTarget('fixtures/desktop-chat', tmp)).toMatchObject({ kind: 'folder', name: 'desktop-chat' });
    expect(parseTarget('owner2/repo2', tmp)).toMatchObject({ kind: 'folder' });
    expect(parseTarget('repo', tmp)).toEqual({ kind: 'local-git', path: repo, name: 'repo' });
    expect(parseTarget(repo)).toMatchObject({ kind: 'local-git' });
    const gh = { kind: 'remote', host: 'github.com', owner: 'octo', repo: 'hello', webUrl: 'https://github.com/octo/hello', name: 'octo/hello' };
    const https = { ...gh, url: 'https://github.com/octo/hello.git' };
    expect(parseTarget('octo/hello', tmp)).toEqual(https);
    expect(parseTarget('github.com/octo/hello', tmp)).toEqual(https);
    for (const u of ['https://github.com/octo/hello', 'https://github.com/octo/hello.git', 'https://github.com/octo/hello/', 'http://github.com/octo/hello.git']) {
      expect(parseTarget(u, tmp)).toEqual(https);
    }
    expect(parseTarget('git@github.com:octo/hello.git', tmp)).toEqual({ ...gh, url: 'git@github.com:octo/hello.git' });
    expect(parseTarget('ssh://git@github.com/octo/hello.git', tmp)).toEqual({ ...gh, url: 'ssh://git@github.com/octo/hello.git' });
    expect(parseTarget('https://gitlab.com/group/sub/proj.git', tmp)).toEqual({
      kind: 'remote', url: 'https://gitlab.com/group/sub/proj.git', host: 'gitlab.com', owner: 'group/sub', repo: 'proj', webUrl: null, name: 'proj',
    });
    expect(parseTarget('git@gitlab.example.org:g/r.git', tmp)).toMatchObject({ kind: 'remote', host: 'gitlab.example.org', webUrl: null, name: 'r' });
    expect(parseTarget('git://example.org/r', tmp)).toMatchObject({ kind: 'remote', name: 'r', webUrl: null });
    expect(parseTarget('file:///srv/git/thing.git', tmp)).toMatchObject({ kind: 'remote', host: 'file', owner: 'srv/git', name: 'thing' });
  });

  it('rejects anything else with a one-line InputError', () => {
    writeFileSync(path.join(tmp, 'plain-file'), 'x');
    const bad = ['', 'foo', 'a/b/c', './missing', '/no/such/dir', 'plain-file', '-oProxyCommand=x', 'ext::sh -c touch% /tmp/x',
      'ftp://example.org/r.git', 'https://github.com/octo/hello/tree/main', 'ssh://-oProxyCommand=x/r', 'https://example.org/', 'a\nb/c'];
    for (const b of bad) {
      expect(() => parseTarget(b, tmp), b).toThrow(InputError);
      try {
        parseTarget(b, tmp);
      } catch (e) {
        expect((e as Error).message).not.toContain('\n');
      }
    }
  });

  it('sanitises cache path segments', () => {
    const segs = cacheSegments({ url: 'x', host: '..', owner: '../..', repo: '..' });
    for (const s of segs) expect(s).toMatch(/^(?!\.\.?$)[A-Za-z0-9._-]+$/);
    expect(cacheSegments({ url: 'u', host: 'github.com', owner: 'Octo', repo: 'Hello' })).toEqual(['github.com', 'octo', 'hello.git']);
  });

  it('defaultCacheDir follows XDG on Linux', () => {
    if (process.platform !== 'linux') return;
    const old = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = '/x/cache';
    expect(defaultCacheDir()).toBe('/x/cache/agent-audit');
    delete process.env.XDG_CACHE_HOME;
    expect(defaultCacheDir()).toBe(path.join(os.homedir(), '.cache', 'agent-audit'));
    if (old !== undefined) process.env.XDG_CACHE_HOME = old;
  });
});

describe('local git repository', () => {
  it('scores HEAD by default and lists entries with sizes', async () => {
    const s = await acquire(repo, {});
    expect(s).toMatchObject({ kind: 'git', commit: c2, name: 'repo', webUrl: null, dirtyFiles: 0 });
    const oid = (p: string) => git(repo, 'rev-parse', `HEAD:${p}`);
    expect(s.entries).toEqual([
      { path: 'README.md', size: 4, kind: 'file', oid: oid('README.md') },
      { path: 'big.txt', size: BIG.length, kind: 'file', oid: oid('big.txt') },
      { path: 'bin.dat', size: BIN.length, kind: 'file', oid: oid('bin.dat') },
      { path: 'evil', size: '/etc/passwd'.length, kind: 'symlink' },
      { path: 'sub/a.txt', size: 2, kind: 'file', oid: oid('sub/a.txt') },
    ]);
  });

  it('resolves full SHA, short SHA, tag and branch; rejects unknown and option-like commits', async () => {
    expect((await acquire(repo, { commit: c1 })).commit).toBe(c1);
    expect((await acquire(repo, { commit: c1.slice(0, 7) })).commit).toBe(c1);
    expect((await acquire(repo, { commit: 'v1.0' })).commit).toBe(c1);
    expect((await acquire(repo, { commit: 'main' })).commit).toBe(c2);
    await expect(acquire(repo, { commit: 'nope' })).rejects.toThrow(new InputError(`unknown commit 'nope' in ${repo}`));
    await expect(acquire(repo, { commit: '--output=/tmp/x' })).rejects.toThrow(InputError);
    const old = await acquire(repo, { commit: 'v1.0' });
    expect((await old.read(['README.md'], 100)).get('README.md')?.toString()).toBe('one\n');
  });

  it('reads binary and big files from objects, honours maxBytes, never reads symlinks', async () => {
    const s = await acquire(repo, {});
    const small = await s.read(['bin.dat', 'big.txt', 'evil', 'missing', 'README.md'], 1000);
    expect([...small.keys()]).toEqual(['bin.dat', 'big.txt', 'evil', 'missing', 'README.md']);
    expect(small.get('bin.dat')).toEqual(BIN);
    expect(small.get('big.txt')).toBeNull();
    expect(small.get('evil')).toBeNull();
    expect(small.get('missing')).toBeNull();
    expect(small.get('README.md')?.toString()).toBe('two\n');
    expect((await s.read(['big.txt'], 1_000_000)).get('big.txt')?.toString()).toBe(BIG);
  });

  it('counts dirty tracked files without following symlinks, and links GitHub origins', async () => {
    const d = path.join(tmp, 'dirty');
    mkdirSync(path.join(d, 'dir'), { recursive: true });
    git(d, 'init', '-q');
    for (const f of ['a', 'b', 'c', 'd', 'dir/e']) writeFileSync(path.join(d, f), `${f}\n`);
    commitAll(d, 'x');
    git(d, 'remote', 'add', 'origin', 'git@github.com:Octo/Thing.git');
    expect((await acquire(d, {})).dirtyFiles).toBe(0);
    writeFileSync(path.join(d, 'a'), 'changed\n'); // dirty
    unlinkSync(path.join(d, 'b')); // missing: dirty
    unlinkSync(path.join(d, 'c'));
    symlinkSync('/etc/passwd', path.join(d, 'c')); // symlink: skipped
    rmSync(path.join(d, 'dir'), { recursive: true });
    symlinkSync(tmp, path.join(d, 'dir')); // symlinked parent: not followed, counts as dirty
    writeFileSync(path.join(d, 'untracked'), 'u');
    const s = await acquire(d, {});
    expect(s.dirtyFiles).toBe(3);
    expect(s).toMatchObject({ webUrl: 'https://github.com/Octo/Thing', name: 'Octo/Thing' });
    expect((await acquire(d, { commit: 'HEAD' })).dirtyFiles).toBe(0);
  });

  it('never runs the hostile repository\'s fsmonitor, hooks, filters or lazy fetch', async () => {
    const h = path.join(tmp, 'hostile');
    const marker = path.join(tmp, 'PWNED');
    const script = path.join(tmp, 'evil.sh');
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
    chmodSync(script, 0o755);
    mkdirSync(h);
    git(h, 'init', '-q');
    writeFileSync(path.join(h, '.gitattributes'), '* filter=evil diff=evil\n');
    writeFileSync(path.join(h, 'a.txt'), 'a\n');
    writeFileSync(path.join(h, 'gone.txt'), 'gone\n');
    commitAll(h, 'x');
    // Make one blob missing so a lazy fetch from the "promisor" would be attempted.
    const gone = git(h, 'rev-parse', 'HEAD:gone.txt');
    unlinkSync(path.join(h, '.git', 'objects', gone.slice(0, 2), gone.slice(2)));
    for (const hook of ['post-checkout', 'pre-commit', 'post-index-change', 'reference-transaction', 'pre-auto-gc', 'post-merge']) {
      writeFileSync(path.join(h, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${marker}'\n`);
      chmodSync(path.join(h, '.git', 'hooks', hook), 0o755);
    }
    const cfg = {
      'core.fsmonitor': script, 'core.hooksPath': path.join(h, '.git', 'hooks'), 'core.pager': script, 'core.sshCommand': script,
      'diff.external': script, 'filter.evil.smudge': script, 'filter.evil.clean': script, 'filter.evil.process': script,
      'diff.evil.textconv': script, 'core.repositoryformatversion': '1', 'extensions.partialClone': 'origin',
      'remote.origin.url': `file://${path.join(tmp, 'nowhere')}`, 'remote.origin.promisor': 'true', 'remote.origin.uploadpack': script,
      'uploadpack.packObjectsHook': script, 'core.alternateRefsCommand': script, 'gpg.program': script,
    };
    for (const [k, v] of Object.entries(cfg)) git(h, 'config', k, v);
    const s = await acquire(h, {});
    const got = await s.read(s.entries.map((e) => e.path), 1 << 20);
    expect(got.get('a.txt')?.toString()).toBe('a\n');
    expect(got.get('gone.txt')).toBeNull();
    await acquire(h, { commit: 'HEAD' });
    expect(existsSync(marker)).toBe(false);
    // Positive control: plain git in the same repository does run the payload.
    try {
      git(h, 'status');
    } catch {
      /* the payload exits 1 */
    }
    expect(existsSync(marker)).toBe(true);
  });
});

describe('remote clone cache', () => {
  it('bare-clones a file:// URL once, reuses the entry and fetches missing commits', async () => {
    const cacheDir = path.join(tmp, 'cache');
    const url = `file://${repo}`;
    const s = await acquire(url, { cacheDir });
    expect(s).toMatchObject({ kind: 'git', commit: c2, name: 'repo', webUrl: null, dirtyFiles: 0 });
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const [owner] = readdirSync(path.join(cacheDir, 'file'));
    const entry = path.join(cacheDir, 'file', owner!, 'repo.git');
    expect(readdirSync(path.dirname(entry))).toEqual(['repo.git']); // no temporary leftovers
    expect(existsSync(path.join(entry, 'README.md'))).toBe(false); // bare: no working tree
    expect((await s.read(['README.md'], 100)).get('README.md')?.toString()).toBe('two\n');
    expect((await acquire(url, { cacheDir, commit: 'v1.0' })).commit).toBe(c1);

    const ino = statSync(entry).ino;
    writeFileSync(path.join(entry, 'reuse-marker'), '');
    writeFileSync(path.join(repo, 'new.txt'), 'new\n');
    const c3 = commitAll(repo, 'third');
    const again = await acquire(url, { cacheDir, commit: c3.slice(0, 10) });
    expect(again.commit).toBe(c3);
    expect(again.entries.map((e) => e.path)).toContain('new.txt');
    expect(statSync(entry).ino).toBe(ino);
    expect(existsSync(path.join(entry, 'reuse-marker'))).toBe(true);
    expect((await acquire(url, { cacheDir })).commit).toBe(c3);
    await expect(acquire(url, { cacheDir, commit: 'deadbeef' })).rejects.toThrow(`unknown commit 'deadbeef' in ${url}`);
  });

  it('reports clone failures as one-line InputErrors and leaves no cache entry', async () => {
    const cacheDir = path.join(tmp, 'cache2');
    const url = `file://${path.join(tmp, 'does-not-exist')}`;
    const err = await acquire(url, { cacheDir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(new RegExp(`^cannot clone ${url}: [^\\n]+$`));
    const [owner] = readdirSync(path.join(cacheDir, 'file'));
    expect(readdirSync(path.join(cacheDir, 'file', owner!))).toEqual([]);
  });
});

describe('plain folder', () => {
  it('lists symlinks without following them and refuses to read them', async () => {
    const f = path.join(tmp, 'folder');
    mkdirSync(path.join(f, 'sub', '.git'), { recursive: true });
    mkdirSync(path.join(f, 'd'));
    writeFileSync(path.join(f, 'a.txt'), 'hello');
    writeFileSync(path.join(f, 'sub', 'b.bin'), BIN);
    writeFileSync(path.join(f, 'sub', '.git', 'config'), 'x');
    writeFileSync(path.join(f, 'later'), 'x');
    symlinkSync('/etc/passwd', path.join(f, 'passwd'));
    symlinkSync('..', path.join(f, 'up'));
    const s = await acquire(f, {});
    expect(s).toMatchObject({ kind: 'folder', commit: null, name: 'folder', truncated: false });
    expect(s.entries).toEqual([
      { path: 'a.txt', size: 5, kind: 'file' },
      { path: 'later', size: 1, kind: 'file' },
      { path: 'passwd', size: '/etc/passwd'.length, kind: 'symlink' },
      { path: 'sub/b.bin', size: BIN.length, kind: 'file' },
      { path: 'up', size: 2, kind: 'symlink' },
    ]);
    // The folder changes after listing: a listed file becomes a symlink.
    unlinkSync(path.join(f, 'later'));
    symlinkSync('/etc/passwd', path.join(f, 'later'));
    const got = await s.read(['a.txt', 'sub/b.bin', 'passwd', 'up', 'later', '../repo/README.md', 'up/repo/README.md'], 1000);
    expect(got.get('a.txt')?.toString()).toBe('hello');
    expect(got.get('sub/b.bin')).toEqual(BIN);
    for (const p of ['passwd', 'up', 'later', '../repo/README.md', 'up/repo/README.md']) expect(got.get(p), p).toBeNull();
    expect((await s.read(['a.txt'], 4)).get('a.txt')).toBeNull();
    await expect(acquire(f, { commit: 'HEAD' })).rejects.toThrow(InputError);
  });
});
