import { join } from 'node:path';
import { ROOT } from '../paths.js';

export { ROOT };
export const DEFAULT_RUBRIC = join(ROOT, 'rubrics', 'dids');

/** Exit codes: 0 done, 1 a gate or self-test failed, 2 bad input or usage, 3 an internal error. */
export const EXIT = { ok: 0, failed: 1, input: 2, internal: 3 } as const;

export const EXIT_CODES_HELP = '\nExit codes: 0 done (every gate passed) · 1 a gate failed (the output is still written) · 2 usage or input error · 3 internal error';

/** After the output is written: one line on stderr naming the gates that failed; the exit code they give. */
export function exitForGates(failed: string[]): number {
  if (!failed.length) return EXIT.ok;
  process.stderr.write(`audit: gate failed: ${failed.join('; ')}\n`);
  return EXIT.failed;
}
