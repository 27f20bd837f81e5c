import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let written = 0;

/**
 * Writes one cache entry: its folder made private if missing, the text written under a temporary
 * name and renamed over the entry, so a concurrent reader sees the old entry or the new one, never
 * half of one. The cache is an optimisation: a write that fails is reported, never thrown.
 */
export function writeEntry(file: string, text: string): boolean {
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${written++}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}
