import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CODE } from '../paths.js';
import { TOOL } from '../tool.js';
import { keepBounded } from './memo.js';

let buildHash: string | null = null;

/** The tool's own code identity: anything cached is only reused by exactly the same build. */
export function toolBuild(): string {
  if (buildHash) return buildHash;
  const h = createHash('sha256').update(TOOL.version);
  for (const f of readdirSync(CODE, { recursive: true, encoding: 'utf8' }).sort()) {
    if (/\.[jt]s$/.test(f)) h.update(f).update(readFileSync(join(CODE, f)));
  }
  return (buildHash = h.digest('hex'));
}

/**
 * Folders this process has hashed, with what stat said of every entry then: a rubric is hashed by
 * every audit a process runs, and reading its ~130 files each time was half of a small audit.
 * Any write to a file changes its ctime (which no caller can set), so an unchanged signature means
 * unchanged bytes, except that file times tick coarsely (a few ms): as git does with its index, a
 * folder with an entry changed in the last seconds is not kept, since it may change again unseen.
 */
const SETTLED_NS = 2_000_000_000n;
const hashed = new Map<string, { signature: string; hash: string }>();

/** sha256 over every file below a folder, by path: a cheap identity for content parsed later. */
export function folderHash(dir: string): string {
  const entries = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
  let newest = 0n;
  const signature = entries
    .map((f) => {
      try {
        const s = statSync(join(dir, f), { bigint: true });
        if (s.ctimeNs > newest) newest = s.ctimeNs;
        if (s.mtimeNs > newest) newest = s.mtimeNs;
        return `${f}\0${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
      } catch {
        return `${f}\0?`;
      }
    })
    .join('\0');
  const key = resolve(dir);
  const known = hashed.get(key);
  if (known?.signature === signature) return known.hash;
  const h = createHash('sha256');
  for (const f of entries) {
    try {
      h.update(f).update('\0').update(readFileSync(join(dir, f))).update('\0');
    } catch {
      /* a folder entry */
    }
  }
  const hash = h.digest('hex');
  if (BigInt(Date.now()) * 1_000_000n - newest > SETTLED_NS) {
    keepBounded(hashed, key, { signature, hash }, 8);
  }
  return hash;
}
