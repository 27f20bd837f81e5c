import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tool's install folder: bundled rubrics and templates live beside dist/. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_RUBRIC = join(ROOT, 'rubrics', 'dids');

/** Exit codes: 0 done, 1 a gate or self-test failed, 2 bad input or usage, 3 an internal error. */
export const EXIT = { ok: 0, failed: 1, input: 2, internal: 3 } as const;
