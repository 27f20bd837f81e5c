import { cachedCommit, defaultCacheDir } from './cache.js';
import { folderSnapshot } from './folder.js';
import { firstLine, runGit } from './git.js';
import { checkRev, gitSnapshot, resolveCommit } from './gitSnapshot.js';
import { openLocalRepo } from './localRepo.js';
import { githubWebUrl, parseTarget, redactUrl, type ParsedTarget } from './target.js';
import { InputError, type Snapshot } from './types.js';

export { defaultCacheDir, parseTarget, type ParsedTarget };
export { InputError, type Snapshot, type TreeEntry } from './types.js';

export interface AcquireOptions {
  /** SHA (full or ≥4-hex unique prefix), tag or branch; default HEAD. */
  commit?: string;
  /** Where remote clones are kept; default defaultCacheDir(). */
  cacheDir?: string;
}

/**
 * Turns a target (local path, owner/repo, git URL) into a read-only Snapshot. Remote targets are
 * bare-cloned into the cache; local repositories are read in place through plumbing only.
 */
export async function acquire(target: string, opts: AcquireOptions = {}): Promise<Snapshot> {
  return (await locate(target, opts)).snapshot();
}

/**
 * A target found and its commit resolved, with what names it in a report, before its tree is
 * listed: a report already computed for that commit can be found without listing it. `snapshot`
 * lists the tree (once). A working tree's dirty files take the listing to count, so a target
 * scored with its working tree is listed here already (`listed`).
 */
export interface Located {
  commit: string | null;
  webUrl: string | null;
  name: string;
  listed: Snapshot | null;
  snapshot(): Promise<Snapshot>;
}

export async function locate(target: string, opts: AcquireOptions = {}): Promise<Located> {
  const t = parseTarget(target);
  if (opts.commit !== undefined) {
    if (t.kind === 'folder') throw new InputError(`--commit needs a git repository, but '${target}' is a plain folder`);
    checkRev(opts.commit);
  }
  if (t.kind === 'folder') return listedAlready(await folderSnapshot(target, t.path, t.name));
  if (t.kind === 'local-git') return localRepo(target, t.path, t.name, opts.commit, t.bare === true);

  const { gitDir, commit } = await cachedCommit(t, opts.cacheDir ?? defaultCacheDir(), opts.commit);
  if (commit === null) {
    throw new InputError(
      opts.commit === undefined ? `${redactUrl(t.url)} has no commits` : `unknown commit '${opts.commit}' in ${target}`,
    );
  }
  return unlisted({ input: target, gitDir, commit, webUrl: t.webUrl, name: t.name });
}

const listedAlready = (s: Snapshot): Located => ({ commit: s.commit, webUrl: s.webUrl, name: s.name, listed: s, snapshot: async () => s });

function unlisted(a: Parameters<typeof gitSnapshot>[0]): Located {
  let listing: Promise<Snapshot> | null = null;
  return { commit: a.commit, webUrl: a.webUrl, name: a.name, listed: null, snapshot: () => (listing ??= gitSnapshot(a)) };
}

/** A repository on disk: its own (hostile) config is read, but only by hardened plumbing. */
async function localRepo(input: string, dir: string, name: string, pinned: string | undefined, bare: boolean): Promise<Located> {
  const { gitDir, workTree, configFile } = await openLocalRepo(input, dir, bare);
  const check = await runGit(['rev-parse', '--is-bare-repository'], { gitDir });
  if (check.code !== 0) throw new InputError(`'${input}' is not a readable git repository: ${firstLine(check.stderr)}`);
  const commit = await resolveCommit(gitDir, pinned ?? 'HEAD');
  if (commit === null) {
    throw new InputError(pinned === undefined ? `'${input}' has no commits` : `unknown commit '${pinned}' in ${input}`);
  }
  // --file: this repository's own config file only, without following include directives.
  const origin = await runGit(['config', '--file', configFile, '--get', 'remote.origin.url'], { gitDir, maxStdout: 64 * 1024 });
  const webUrl = origin.code === 0 ? githubWebUrl(origin.stdout.toString('utf8').trim()) : null;
  const args = { input, gitDir, commit, webUrl, name: webUrl ? webUrl.slice('https://github.com/'.length) : name };
  // Dirty files only make sense against HEAD: a pinned commit is read purely from objects.
  return pinned === undefined && workTree ? listedAlready(await gitSnapshot({ ...args, workTree })) : unlisted(args);
}
