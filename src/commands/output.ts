import { accessSync, constants, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { InputError } from '../acquire/types.js';

const EXPECTED = 'expected a writable file path';

/** What a failed file-system call means for the person who chose the path. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EISDIR: 'it is a folder',
  EBUSY: 'it is a folder or mount point',
  ENOENT: 'no such file or folder',
};

function unwritable(out: string, why: string): InputError {
  return new InputError(`cannot write ${out}: ${why} (${EXPECTED})`);
}

/**
 * Refuses an output path that cannot become a file (a folder, a missing or non-folder parent, a
 * folder without write permission) before any work is done or any temporary file is made. True
 * when the path is an existing device or pipe, to be written in place.
 */
export function checkOutputPath(out: string): boolean {
  let existing;
  try {
    existing = statSync(out);
  } catch {
    // A missing file is the usual case; its folder is checked below.
  }
  if (existing?.isDirectory()) throw unwritable(out, 'it is a folder');
  if (existing && !existing.isFile()) {
    // A device or a pipe (`--out /dev/null`) is written in place: only it need be writable.
    try {
      accessSync(out, constants.W_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      throw unwritable(out, REASONS[code] ?? code);
    }
    return true;
  }
  if (out.endsWith('/') || out.endsWith(sep)) throw unwritable(out, 'it ends in a slash, so it names a folder');
  const dir = dirname(out);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw unwritable(out, code === 'ENOENT' ? `folder ${dir} does not exist` : code === 'ENOTDIR' ? `a part of ${dir} is not a folder` : (REASONS[code ?? ''] ?? code ?? 'error'));
  }
  if (!isDir) throw unwritable(out, `${dir} is not a folder`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw unwritable(out, `cannot write in folder ${dir}: ${REASONS[code] ?? code}`);
  }
  return false;
}

/**
 * Writes next to the destination and renames, so a failed run never leaves half a report. A device
 * or a pipe is written in place: renaming over it would replace `/dev/null` with a file.
 */
export function writeOutput(text: string, out: string | undefined): void {
  if (!out) {
    process.stdout.write(text);
    return;
  }
  const inPlace = checkOutputPath(out);
  const fail = (e: unknown) => {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    return unwritable(out, REASONS[code] ?? code);
  };
  if (inPlace) {
    try {
      writeFileSync(out, text);
    } catch (e) {
      throw fail(e);
    }
    return;
  }
  let tmpDir: string;
  try {
    tmpDir = mkdtempSync(join(dirname(out), `.${basename(out)}.`));
  } catch (e) {
    throw fail(e);
  }
  try {
    const tmp = join(tmpDir, 'report');
    writeFileSync(tmp, text);
    renameSync(tmp, out);
  } catch (e) {
    throw fail(e);
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
}
