import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstLine, runGit } from './git.js';
import { resolveCommit } from './gitSnapshot.js';
import { withLock } from './lock.js';
import { cacheSegments, redactUrl } from './target.js';
import { InputError } from './types.js';

export function defaultCacheDir(): string {
  const home = os.homedir();
  if (process.platform === 'win32') {
    return path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'agent-audit');
  }
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'agent-audit');
  const xdg = process.env.XDG_CACHE_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'agent-audit');
}

/** mkdir -p with 0700 on every directory we create (chmod too, since umask may strip bits). */
async function mkdirPrivate(dir: string): Promise<void> {
  const first = await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (let d = dir; ; d = path.dirname(d)) {
    await fsp.chmod(d, 0o700);
    if (d === first || path.dirname(d) === d) break;
  }
}

/**
 * A cache folder someone else can write to could hold a planted "clone" that serves other content
 * for a URL, so every level we use must be a real directory of ours that others cannot write.
 */
async function checkPrivate(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const st = await fsp.lstat(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
    throw new InputError(`cache folder ${dir} is not private: expected a directory owned by you that others cannot write (remove it, or pass another --cache-dir)`);
  }
}

const CLONE_TIMEOUT = 30 * 60_000;
// Under the lock a run clones or fetches once (each bounded by CLONE_TIMEOUT) and resolves a commit.
const LOCK = { staleMs: 2 * CLONE_TIMEOUT + 5 * 60_000, waitMs: 2 * CLONE_TIMEOUT + 10 * 60_000 };

export interface Remote {
  url: string;
  host: string;
  owner: string;
  repo: string;
}

/** An entry is reused only if it is a bare repository of ours cloned from exactly this URL. */
async function validEntry(gitDir: string, url: string): Promise<boolean> {
  const st = await fsp.lstat(gitDir).catch(() => null);
  if (!st) return false;
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return false;
  const bare = await runGit(['rev-parse', '--is-bare-repository'], { gitDir, maxStdout: 1024 });
  if (bare.code !== 0 || bare.stdout.toString('utf8').trim() !== 'true') return false;
  // --file: read this file only (no includes), the URL `git clone` recorded.
  const origin = await runGit(['config', '--file', path.join(gitDir, 'config'), '--get', 'remote.origin.url'], { gitDir, maxStdout: 64 * 1024 });
  return origin.code === 0 && origin.stdout.toString('utf8').trim() === url;
}

/** Moves a path aside (atomic) and deletes it: never follows a symlink, never leaves it half-deleted in place. */
async function discard(p: string): Promise<void> {
  if (!(await fsp.lstat(p).catch(() => null))) return;
  const aside = path.join(path.dirname(p), `.${path.basename(p)}.bad-${randomBytes(6).toString('hex')}`);
  await fsp.rename(p, aside);
  await fsp.rm(aside, { recursive: true, force: true });
}

/**
 * Temporary clones and discarded entries of runs that died, and lock-taking files of runs that
 * died waiting (older than any wait); only called while holding the lock.
 */
async function removeLeftovers(parent: string, repo: string): Promise<void> {
  for (const name of await fsp.readdir(parent)) {
    const p = path.join(parent, name);
    if (name.startsWith(`.${repo}.tmp-`) || name.startsWith(`.${repo}.bad-`)) await fsp.rm(p, { recursive: true, force: true });
    else if (name.startsWith(`${repo}.lock.`)) {
      const st = await fsp.lstat(p).catch(() => null);
      if (st && Date.now() - st.mtimeMs > LOCK.waitMs) await fsp.rm(p, { force: true });
    }
  }
}

/**
 * Bare-clones into a temporary sibling and renames it into place, so a failed or interrupted
 * clone never leaves an entry that later runs would trust.
 */
async function cloneInto(remote: Remote, parent: string, gitDir: string): Promise<void> {
  const tmp = await fsp.mkdtemp(path.join(parent, `.${path.basename(gitDir)}.tmp-`));
  try {
    // --bare: no working tree, no checkout, so no filter/hook/symlink of the target ever runs.
    // --template= keeps even sample hooks out. Tags come along (needed for --commit v1.0).
    const r = await runGit(['clone', '--bare', '--quiet', '--template=', '--', remote.url, tmp], {
      cwd: parent,
      network: true,
      maxStdout: 1024 * 1024,
      timeoutMs: CLONE_TIMEOUT,
    });
    if (r.code !== 0) throw new InputError(`cannot clone ${redactUrl(remote.url)}: ${firstLine(r.stderr)}`);
    await fsp.rename(tmp, gitDir);
  } catch (e) {
    await fsp.rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Brings every branch and tag of the cache entry up to date with the remote. */
async function refresh(gitDir: string, url: string): Promise<void> {
  const r = await runGit(
    ['fetch', '--quiet', '--', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'],
    { gitDir, network: true, maxStdout: 1024 * 1024, timeoutMs: CLONE_TIMEOUT },
  );
  if (r.code !== 0) throw new InputError(`cannot fetch ${redactUrl(url)}: ${firstLine(r.stderr)}`);
}

/**
 * The bare clone of `remote` in the cache and the commit `rev` (default HEAD) names in it. The
 * entry is cloned when absent or invalid, and fetched when it lacks a pinned commit or nothing is
 * pinned (an unpinned audit means "as the remote is now", not "as it was at the first clone").
 * Everything that writes the entry happens under its lock, so concurrent runs never corrupt it.
 * Returns commit null when the repository has no such commit.
 */
export async function cachedCommit(remote: Remote, cacheDir: string, rev: string | undefined): Promise<{ gitDir: string; commit: string | null }> {
  const [host, owner, repo] = cacheSegments(remote) as [string, string, string];
  const parent = path.join(cacheDir, host, owner);
  await mkdirPrivate(parent);
  for (const d of [cacheDir, path.join(cacheDir, host), parent]) await checkPrivate(d);
  const gitDir = path.join(parent, repo);
  return withLock(`${gitDir}.lock`, LOCK, async () => {
    await removeLeftovers(parent, repo);
    let fresh = false;
    if (!(await validEntry(gitDir, remote.url))) {
      await discard(gitDir);
      await cloneInto(remote, parent, gitDir);
      fresh = true;
    }
    let commit = fresh || rev === undefined ? null : await resolveCommit(gitDir, rev);
    if (!fresh && commit === null) await refresh(gitDir, remote.url);
    commit ??= await resolveCommit(gitDir, rev ?? 'HEAD');
    return { gitDir, commit };
  });
}
