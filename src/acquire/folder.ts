import { constants, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Snapshot, TreeEntry } from './types.js';

export const MAX_ENTRIES = 200_000;
const MAX_DEPTH = 64;
/** Directories can be empty, so bound the walk by every name seen, not only by files listed. */
const MAX_SEEN = 1_000_000;

// O_NOFOLLOW closes the gap between our lstat and open; O_NONBLOCK stops a FIFO swapped in from
// blocking the open. Both are 0 where the platform lacks them (Windows).
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file without following a symlink at its last component. Returns null when it
 * is not a regular file (anymore), cannot be opened, or is larger than maxBytes.
 */
export async function readRegularFile(abs: string, maxBytes: number): Promise<Buffer | null> {
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(abs, OPEN_FLAGS);
  } catch {
    return null; // ELOOP (symlink), ENOENT, EACCES...
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > maxBytes) return null;
    // Read one byte more than allowed so a file that grew since fstat is still refused.
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let len = 0;
    while (len < buf.length) {
      const { bytesRead } = await fh.read(buf, len, buf.length - len, len);
      if (bytesRead === 0) break;
      len += bytesRead;
    }
    return len > maxBytes ? null : buf.subarray(0, len);
  } finally {
    await fh.close();
  }
}

/** Lists a plain folder with lstat only: symlinks are listed, never followed; .git is skipped. */
async function walk(root: string): Promise<{ entries: TreeEntry[]; truncated: boolean }> {
  const entries: TreeEntry[] = [];
  let seen = 0;
  let truncated = false;
  const stack: { rel: string; depth: number }[] = [{ rel: '', depth: 0 }];
  while (stack.length > 0) {
    const { rel, depth } = stack.pop()!;
    let names: string[];
    try {
      names = (await fsp.readdir(path.join(root, rel), { withFileTypes: true })).map((d) => d.name);
    } catch {
      continue; // unreadable directory: nothing to list
    }
    for (const name of names) {
      if (name === '.git') continue;
      if (entries.length >= MAX_ENTRIES || ++seen > MAX_SEEN) {
        truncated = true;
        stack.length = 0;
        break;
      }
      const relPath = rel === '' ? name : `${rel}/${name}`;
      let st;
      try {
        st = await fsp.lstat(path.join(root, relPath));
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) entries.push({ path: relPath, size: st.size, kind: 'symlink' });
      else if (st.isFile()) entries.push({ path: relPath, size: st.size, kind: 'file' });
      else if (st.isDirectory()) {
        if (depth + 1 < MAX_DEPTH) stack.push({ rel: relPath, depth: depth + 1 });
        else truncated = true;
      }
      // FIFOs, sockets and devices are not source files; they are left out.
    }
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, truncated };
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

export async function folderSnapshot(input: string, dir: string, name: string): Promise<Snapshot> {
  const root = await fsp.realpath(dir);
  const { entries, truncated } = await walk(root);
  const files = new Set(entries.filter((e) => e.kind === 'file').map((e) => e.path));
  return {
    kind: 'folder',
    input,
    commit: null,
    webUrl: null,
    name,
    dirtyFiles: 0,
    entries,
    truncated,
    async read(paths, maxBytes) {
      const out = new Map<string, Buffer | null>();
      for (const p of paths) {
        out.set(p, null);
        // Only paths we listed as files; the folder may have changed since, so check again.
        if (!files.has(p)) continue;
        const abs = path.join(root, ...p.split('/'));
        try {
          if (!inside(root, await fsp.realpath(path.dirname(abs)))) continue;
          if (!(await fsp.lstat(abs)).isFile()) continue;
        } catch {
          continue;
        }
        out.set(p, await readRegularFile(abs, maxBytes));
      }
      return out;
    },
  };
}
