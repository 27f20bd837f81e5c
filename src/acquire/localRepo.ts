import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { InputError } from './types.js';

/**
 * A repository on disk is as untrusted as its files: its `.git` can be a file naming another
 * repository, and inside it `commondir`, `objects/info/alternates`, config includes or symlinked
 * `objects`/`refs` make git read objects and refs of some other repository on this machine, whose
 * files would then be scored and quoted. The checks here accept only a repository whose objects
 * and refs git finds inside the folder the user named (or a worktree git itself created).
 */

export interface LocalRepo {
  gitDir: string;
  /** The working tree for counting dirty files, or null for a bare repository. */
  workTree: string | null;
  /** The repository's own config file (a worktree's is its main repository's). */
  configFile: string;
}

const MAX_REF_ENTRIES = 100_000;

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

async function readSmall(file: string, max = 1024 * 1024): Promise<string | null> {
  const fh = await fsp.open(file, 'r').catch(() => null);
  if (!fh) return null;
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > max) return null;
    return (await fh.readFile()).toString('utf8');
  } finally {
    await fh.close();
  }
}

function refuse(input: string, why: string): InputError {
  return new InputError(`'${input}' is not a self-contained git repository: ${why}; expected objects and refs inside the folder (clone it with git clone --no-local and audit the clone)`);
}

/** `.git` as a file ("gitdir: <path>"): followed only inside the folder, or to a worktree that points back at it. */
async function followGitFile(input: string, root: string, dotGit: string): Promise<{ gitDir: string; worktree: boolean }> {
  const text = await readSmall(dotGit, 4096);
  const m = text ? /^gitdir: *(.+?)\s*$/m.exec(text) : null;
  if (!m) throw refuse(input, '.git is a file without a gitdir line');
  const target = await fsp.realpath(path.resolve(root, m[1]!)).catch(() => null);
  if (!target) throw refuse(input, `.git names ${m[1]}, which does not exist`);
  if (inside(root, target)) return { gitDir: target, worktree: false };
  // A linked worktree: git wrote <repo>/.git/worktrees/<name>/gitdir pointing back at this .git.
  const back = await readSmall(path.join(target, 'gitdir'), 4096);
  const backPath = back ? await fsp.realpath(path.resolve(target, back.trim())).catch(() => null) : null;
  if (backPath === dotGit && (await fsp.lstat(path.join(target, 'commondir')).catch(() => null))?.isFile()) return { gitDir: target, worktree: true };
  throw refuse(input, `.git points to ${target}, outside the folder`);
}

/** The first symlink under gitDir/rel (recursively), or why the walk gave up; null when there is none. */
async function symlinkUnder(gitDir: string, rel: string, budget: { left: number }): Promise<string | null> {
  const abs = path.join(gitDir, rel);
  const st = await fsp.lstat(abs).catch(() => null);
  if (!st) return null;
  if (st.isSymbolicLink()) return `${rel} in its git directory is a symlink`;
  if (!st.isDirectory()) return null;
  for (const name of await fsp.readdir(abs)) {
    if (--budget.left < 0) return `more than ${MAX_REF_ENTRIES} refs and packs to check`;
    const hit = await symlinkUnder(gitDir, path.join(rel, name), budget);
    if (hit) return hit;
  }
  return null;
}

/** The parts of a git directory that decide which objects and refs git reads. */
async function checkGitDir(input: string, gitDir: string, worktree: boolean): Promise<void> {
  for (const rel of ['HEAD', 'packed-refs', 'objects', 'objects/info', 'objects/pack', 'refs', 'reftable', 'config', 'commondir']) {
    if ((await fsp.lstat(path.join(gitDir, rel)).catch(() => null))?.isSymbolicLink()) throw refuse(input, `${rel} in its git directory is a symlink`);
  }
  if (!worktree && (await fsp.lstat(path.join(gitDir, 'commondir')).catch(() => null))) throw refuse(input, 'its git directory has a commondir file');
  for (const rel of ['objects/info/alternates', 'objects/info/http-alternates']) {
    if (await fsp.lstat(path.join(gitDir, rel)).catch(() => null)) throw refuse(input, `it borrows objects from elsewhere (${rel})`);
  }
  // Object directories (00..ff, pack) and every ref: a symlink there reads another repository.
  const budget = { left: MAX_REF_ENTRIES };
  const objects = await fsp.readdir(path.join(gitDir, 'objects')).catch(() => [] as string[]);
  for (const rel of [...objects.map((n) => path.join('objects', n)), 'objects/pack', 'refs', 'reftable']) {
    const st = await fsp.lstat(path.join(gitDir, rel)).catch(() => null);
    if (st?.isSymbolicLink()) throw refuse(input, `${rel} in its git directory is a symlink`);
    if (rel === 'refs' || rel === 'reftable' || rel === 'objects/pack') {
      const hit = await symlinkUnder(gitDir, rel, budget);
      if (hit) throw refuse(input, hit);
    }
  }
  // include.path / includeIf make git read config files from anywhere; command-line -c cannot undo them.
  const config = await readSmall(path.join(gitDir, 'config'));
  if (config && /^\s*\[\s*include(if)?\b/im.test(config)) throw refuse(input, 'its config includes other files');
}

/** Finds the git directory for a local target and checks it reads nothing outside the folder. */
export async function openLocalRepo(input: string, dir: string, bare: boolean): Promise<LocalRepo> {
  const root = await fsp.realpath(dir);
  if (bare) {
    await checkGitDir(input, root, false);
    return { gitDir: root, workTree: null, configFile: path.join(root, 'config') };
  }
  const dotGit = path.join(root, '.git');
  const st = await fsp.lstat(dotGit).catch(() => null);
  if (st?.isDirectory()) {
    await checkGitDir(input, dotGit, false);
    return { gitDir: dotGit, workTree: root, configFile: path.join(dotGit, 'config') };
  }
  if (!st?.isFile()) throw refuse(input, '.git is neither a directory nor a file');
  const { gitDir, worktree } = await followGitFile(input, root, dotGit);
  await checkGitDir(input, gitDir, worktree);
  let configFile = path.join(gitDir, 'config');
  if (worktree) {
    // The shared part of a worktree: the main repository's objects, refs and config.
    const common = (await readSmall(path.join(gitDir, 'commondir'), 4096))?.trim();
    if (common) {
      const commonDir = await fsp.realpath(path.resolve(gitDir, common));
      await checkGitDir(input, commonDir, false);
      configFile = path.join(commonDir, 'config');
    }
  }
  return { gitDir, workTree: root, configFile };
}
