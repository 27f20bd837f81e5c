import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE } from '../paths.js';
import { TOOL } from '../tool.js';

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

/** sha256 over every file below a folder, by path: a cheap identity for content parsed later. */
export function folderHash(dir: string): string {
  const h = createHash('sha256');
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    try {
      h.update(f).update('\0').update(readFileSync(join(dir, f))).update('\0');
    } catch {
      /* a folder entry */
    }
  }
  return h.digest('hex');
}
