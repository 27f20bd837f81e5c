import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { runGit, spawnGit, firstLine } from './git.js';
import { MAX_ENTRIES, OPEN_FLAGS } from './folder.js';
import { InputError, type Snapshot, type TreeEntry } from './types.js';

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Resolves a user-given revision (SHA, short SHA, tag, branch) to a full commit id, or null when
 * the repository does not have it. Never lets the value be read as an option.
 */
export async function resolveCommit(gitDir: string, rev: string): Promise<string | null> {
  const r = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { gitDir });
  const id = r.stdout.toString('utf8').trim();
  if (r.code !== 0 || !OID.test(id)) return null;
  // git prefers a branch or tag over a short commit id: a repository with a branch named like the
  // reviewed commit's prefix would otherwise get a different commit scored under that name.
  if (/^[0-9a-f]{4,64}$/i.test(rev) && !id.startsWith(rev.toLowerCase())) {
    throw new InputError(`'${rev}' names a branch or tag pointing to ${id.slice(0, 12)}, not a commit starting with ${rev}: pass the full commit id, or refs/heads/${rev} for the branch`);
  }
  return id;
}

export function checkRev(rev: string): void {
  // eslint-disable-next-line no-control-regex
  if (rev === '' || rev.startsWith('-') || /[\x00-\x20\x7f]/.test(rev)) {
    throw new InputError(`invalid commit ${JSON.stringify(rev)}: expected a SHA, tag or branch name`);
  }
}

/**
 * A crafted tree object can hold names git would never check out ('..', '.', '', names with a
 * slash). Such an entry is dropped: its path could point outside the working tree when dirty
 * files are counted, and it is no file of the project anyway.
 */
function safePath(p: string): boolean {
  return p !== '' && !p.startsWith('/') && !p.includes('\0') && p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** Entries at `commit` from `ls-tree -r -z --long`: objects only, nothing checked out. */
async function listTree(gitDir: string, commit: string): Promise<{ entries: TreeEntry[]; ids: Map<string, string>; truncated: boolean }> {
  const r = await runGit(['ls-tree', '-r', '-z', '--long', '--end-of-options', commit], { gitDir, maxStdout: 512 * 1024 * 1024 });
  if (r.code !== 0) throw new InputError(`cannot list files of ${commit}: ${firstLine(r.stderr)}`);
  const entries: TreeEntry[] = [];
  const ids = new Map<string, string>();
  let truncated = false;
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    if (rec === '') continue;
    if (entries.length >= MAX_ENTRIES) {
      truncated = true;
      break;
    }
    // "<mode> SP <type> SP <oid> SP+ <size|->" TAB "<path>"
    const tab = rec.indexOf('\t');
    const [mode, type, oid, size] = rec.slice(0, tab).split(/ +/);
    const p = rec.slice(tab + 1);
    if (tab < 0 || !mode || !oid || !OID.test(oid) || !safePath(p)) continue;
    const kind = mode === '160000' ? 'submodule' : mode === '120000' ? 'symlink' : type === 'blob' ? 'file' : null;
    if (!kind) continue;
    entries.push({ path: p, size: kind === 'submodule' ? 0 : Number(size) || 0, kind, ...(kind === 'file' ? { oid } : {}) });
    ids.set(p, oid);
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, ids, truncated };
}

/**
 * Reads blobs with one `cat-file --batch` process, parsing "<oid> <type> <size>\n<data>\n"
 * framing as it streams. Objects over maxBytes are discarded chunk by chunk, never buffered.
 */
function catFile(gitDir: string, oids: string[], maxBytes: number): Promise<Map<string, Buffer | null>> {
  const got = new Map<string, Buffer | null>();
  if (oids.length === 0) return Promise.resolve(got);
  return new Promise((resolve, reject) => {
    const child = spawnGit(['cat-file', '--batch'], { gitDir });
    let pending: Buffer = Buffer.alloc(0);
    let body: { oid: string; left: number; size: number; chunks: Buffer[] | null } | null = null;
    let failure: Error | null = null;
    const fail = (e: Error) => {
      failure ??= e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => fail(new Error('git cat-file timed out')), 300_000);
    child.stdout.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length > 0 && !failure) {
        if (body) {
          const take = Math.min(body.left, pending.length);
          body.chunks?.push(pending.subarray(0, take));
          pending = pending.subarray(take);
          body.left -= take;
          if (body.left > 0) return;
          // left counted the trailing LF too; drop it from the data.
          got.set(body.oid, body.chunks ? Buffer.concat(body.chunks).subarray(0, body.size) : null);
          body = null;
          continue;
        }
        const nl = pending.indexOf(10);
        if (nl < 0) {
          if (pending.length > 1024) fail(new Error('git cat-file: malformed header'));
          return;
        }
        const [oid = '', type, sizeStr] = pending.subarray(0, nl).toString('utf8').split(' ');
        pending = pending.subarray(nl + 1);
        if (type === 'missing' || type === 'ambiguous' || sizeStr === undefined) {
          got.set(oid, null);
          continue;
        }
        const size = Number(sizeStr);
        if (!Number.isSafeInteger(size) || size < 0) return fail(new Error('git cat-file: bad size'));
        body = { oid, size, left: size + 1, chunks: type === 'blob' && size <= maxBytes ? [] : null };
      }
    });
    child.stderr.resume();
    child.stdin.on('error', () => {});
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else if (code !== 0) reject(new Error(`git cat-file exited with ${code}`));
      else resolve(got);
    });
    child.stdin.end(oids.join('\n') + '\n');
  });
}

/** Same id git would give the content: sha("blob <size>\0" + data). */
function blobId(data: Buffer, algo: 'sha1' | 'sha256'): string {
  return createHash(algo).update(`blob ${data.length}\0`).update(data).digest('hex');
}

const HASH_LIMIT = 1024 * 1024;

/**
 * Counts tracked files whose working-tree content differs from the commit, hashing them in Node
 * (git status would run the repository's fsmonitor, filters and index machinery). Never follows
 * a symlink, neither as the file nor as any directory above it.
 */
async function countDirty(workTree: string, entries: TreeEntry[], ids: Map<string, string>): Promise<number> {
  const realDirs = new Map<string, Promise<boolean>>();
  const isRealDir = (rel: string): Promise<boolean> => {
    if (rel === '') return Promise.resolve(true);
    let p = realDirs.get(rel);
    if (!p) {
      const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
      p = isRealDir(parent).then(async (ok) => {
        if (!ok) return false;
        const st = await fsp.lstat(path.join(workTree, rel)).catch(() => null);
        return st !== null && st.isDirectory();
      });
      realDirs.set(rel, p);
    }
    return p;
  };
  const isDirty = async (e: TreeEntry): Promise<boolean> => {
    const id = ids.get(e.path)!;
    const dir = e.path.includes('/') ? e.path.slice(0, e.path.lastIndexOf('/')) : '';
    if (!(await isRealDir(dir))) return true; // the file cannot be where git expects it
    const abs = path.join(workTree, ...e.path.split('/'));
    const st = await fsp.lstat(abs).catch(() => null);
    if (!st) return true;
    if (st.isSymbolicLink()) return false;
    if (!st.isFile()) return true;
    const fh = await fsp.open(abs, OPEN_FLAGS).catch(() => null);
    if (!fh) return false; // swapped for a symlink meanwhile, or unreadable: cannot compare
    try {
      const fst = await fh.stat();
      if (!fst.isFile()) return true;
      if (fst.size > HASH_LIMIT || e.size > HASH_LIMIT) return fst.size !== e.size;
      if (fst.size !== e.size) return true;
      // Read at most one byte more than expected: a file growing meanwhile is dirty, not a memory hog.
      const buf = Buffer.alloc(e.size + 1);
      let len = 0;
      while (len < buf.length) {
        const { bytesRead } = await fh.read(buf, len, buf.length - len, len);
        if (bytesRead === 0) break;
        len += bytesRead;
      }
      if (len !== e.size) return true;
      return blobId(buf.subarray(0, len), id.length === 64 ? 'sha256' : 'sha1') !== id;
    } finally {
      await fh.close();
    }
  };
  const files = entries.filter((e) => e.kind === 'file');
  let dirty = 0;
  for (let i = 0; i < files.length; i += 32) {
    const batch = await Promise.all(files.slice(i, i + 32).map(isDirty));
    dirty += batch.filter(Boolean).length;
  }
  return dirty;
}

export interface GitSnapshotArgs {
  input: string;
  gitDir: string;
  commit: string;
  webUrl: string | null;
  name: string;
  /** Set for a local repository scored at HEAD: its working tree, to count dirty files. */
  workTree?: string;
}

export async function gitSnapshot(a: GitSnapshotArgs): Promise<Snapshot> {
  const { entries, ids, truncated } = await listTree(a.gitDir, a.commit);
  const dirtyFiles = a.workTree ? await countDirty(a.workTree, entries, ids) : 0;
  const kinds = new Map(entries.map((e) => [e.path, e]));
  return {
    kind: 'git',
    input: a.input,
    commit: a.commit,
    webUrl: a.webUrl,
    name: a.name,
    dirtyFiles,
    entries,
    truncated,
    async read(paths, maxBytes) {
      // Only files within the limit are asked for; sizes come from the same object store.
      const wanted = new Set(paths.filter((p) => kinds.get(p)?.kind === 'file' && kinds.get(p)!.size <= maxBytes));
      const blobs = await catFile(a.gitDir, [...new Set([...wanted].map((p) => ids.get(p)!))], maxBytes);
      return new Map(paths.map((p) => [p, wanted.has(p) ? (blobs.get(ids.get(p)!) ?? null) : null]));
    },
  };
}
