import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstLine, runGit } from './git.js';
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

const CLONE_TIMEOUT = 30 * 60_000;

export interface Remote {
  url: string;
  host: string;
  owner: string;
  repo: string;
}

/**
 * Returns the bare clone of `remote` in the cache, cloning it first when absent. The clone goes
 * to a temporary sibling and is renamed into place, so a failed or interrupted clone never
 * leaves an entry that later runs would trust.
 */
export async function cachedClone(remote: Remote, cacheDir: string): Promise<{ gitDir: string; fresh: boolean }> {
  const [host, owner, repo] = cacheSegments(remote) as [string, string, string];
  const parent = path.join(cacheDir, host, owner);
  await mkdirPrivate(cacheDir);
  await mkdirPrivate(parent);
  const gitDir = path.join(parent, repo);
  const existing = await fsp.lstat(gitDir).catch(() => null);
  if (existing) {
    if (!existing.isDirectory()) throw new Error(`cache entry ${gitDir} is not a directory; remove it`);
    return { gitDir, fresh: false };
  }
  const tmp = await fsp.mkdtemp(path.join(parent, `.${repo}.tmp-`));
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
    await fsp.rename(tmp, gitDir).catch(async (e: NodeJS.ErrnoException) => {
      // Another run finished the same clone first: use theirs.
      if (e.code !== 'EEXIST' && e.code !== 'ENOTEMPTY') throw e;
      await fsp.rm(tmp, { recursive: true, force: true });
    });
    return { gitDir, fresh: true };
  } catch (e) {
    await fsp.rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Brings every branch and tag of the cache entry up to date with the remote. */
export async function refresh(gitDir: string, url: string): Promise<void> {
  const r = await runGit(
    ['fetch', '--quiet', '--', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'],
    { gitDir, network: true, maxStdout: 1024 * 1024, timeoutMs: CLONE_TIMEOUT },
  );
  if (r.code !== 0) throw new InputError(`cannot fetch ${redactUrl(url)}: ${firstLine(r.stderr)}`);
}
