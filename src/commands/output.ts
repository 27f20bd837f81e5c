import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../acquire/types.js';

/** Writes next to the destination and renames, so a failed run never leaves half a report. */
export function writeOutput(text: string, out: string | undefined): void {
  if (!out) {
    process.stdout.write(text);
    return;
  }
  let tmpDir: string;
  try {
    tmpDir = mkdtempSync(join(dirname(out), `.${basename(out)}.`));
  } catch (e) {
    throw new InputError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? 'error'} (expected a writable folder)`);
  }
  try {
    const tmp = join(tmpDir, 'report');
    writeFileSync(tmp, text);
    renameSync(tmp, out);
  } catch (e) {
    throw new InputError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
}
