import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';

/**
 * An exclusive lock per cache entry, so two runs on the same target never clone, fetch or replace
 * the entry at the same time. The lock is a small file created complete (written to a temporary
 * name, then hard-linked into place, which fails if the lock exists), naming its holder.
 * A lock is stale when its holder is a process on this host that no longer exists, or when it is
 * older than `staleMs` (a holder on another host, or a reused PID).
 */

interface Holder {
  pid: number;
  host: string;
  token: string;
  since: number;
}

export interface LockOptions {
  /** A lock older than this is broken whoever holds it. */
  staleMs: number;
  /** Give up waiting after this long. */
  waitMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

async function readHolder(file: string): Promise<{ holder: Holder | null; mtimeMs: number } | null> {
  try {
    const [text, st] = await Promise.all([fsp.readFile(file, 'utf8'), fsp.lstat(file)]);
    let holder: Holder | null = null;
    try {
      const h = JSON.parse(text) as Partial<Holder>;
      if (typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.token === 'string' && typeof h.since === 'number') holder = h as Holder;
    } catch {
      /* unreadable content: judged by age alone */
    }
    return { holder, mtimeMs: st.mtimeMs };
  } catch {
    return null; // released meanwhile
  }
}

function isStale(h: { holder: Holder | null; mtimeMs: number }, staleMs: number): boolean {
  const since = h.holder?.since ?? h.mtimeMs;
  if (Date.now() - since > staleMs) return true;
  return h.holder !== null && h.holder.host === os.hostname() && !alive(h.holder.pid);
}

/** Runs fn while holding the lock file `file`; the lock is released however fn ends. */
export async function withLock<T>(file: string, opts: LockOptions, fn: () => Promise<T>): Promise<T> {
  const token = randomBytes(8).toString('hex');
  const holder: Holder = { pid: process.pid, host: os.hostname(), token, since: Date.now() };
  const tmp = `${file}.${token}`;
  await fsp.writeFile(tmp, JSON.stringify(holder), { mode: 0o600, flag: 'wx' });
  const deadline = Date.now() + opts.waitMs;
  let delay = 20;
  try {
    for (;;) {
      // The lock says when it was taken, not when we started waiting for it.
      await fsp.writeFile(tmp, JSON.stringify({ ...holder, since: Date.now() }), { mode: 0o600 });
      try {
        await fsp.link(tmp, file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const seen = await readHolder(file);
      if (seen && isStale(seen, opts.staleMs)) {
        // Move the stale lock aside under a unique name: of several waiters breaking the same lock
        // only one rename succeeds. (If a fresh lock was taken between our read and the rename,
        // its holder runs unlocked; clones still go to private temp dirs and are renamed in, so
        // the worst case is a duplicate clone, never a corrupt entry.)
        const aside = `${file}.stale-${token}`;
        if (await fsp.rename(file, aside).then(() => true, () => false)) await fsp.rm(aside, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for the cache lock ${file} (held by process ${seen?.holder?.pid ?? 'unknown'})`);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
  } finally {
    await fsp.rm(tmp, { force: true });
  }
  try {
    return await fn();
  } finally {
    // Release only our own lock (a stale-breaker may have replaced it after a very long run).
    const now = await readHolder(file);
    if (now?.holder?.token === token) await fsp.rm(file, { force: true });
  }
}
