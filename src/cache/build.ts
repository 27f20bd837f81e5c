import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const version = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
let buildHash: string | null = null;

/** The tool's own code identity: anything cached is only reused by exactly the same build. */
export function toolBuild(): string {
  if (buildHash) return buildHash;
  const dir = fileURLToPath(new URL('..', import.meta.url));
  const h = createHash('sha256').update(version);
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (/\.[jt]s$/.test(f)) h.update(f).update(readFileSync(join(dir, f)));
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
