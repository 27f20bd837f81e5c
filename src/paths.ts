import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The tool's install folder (package.json, rubrics/, templates/, dist/), found by walking up from
 * this module rather than by each module counting its own depth below it (`../../templates`), which
 * broke whenever a module moved: the compiled tree (dist/), the sources under test (src/) and an
 * installed package (node_modules/agent-audit/dist/) all find it the same way.
 */
export const ROOT = ((): string => {
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${here}`);
  }
})();

/** The folder of the code now running (dist/, or src/ under test): what the tool's build identity hashes. */
export const CODE = join(ROOT, relative(ROOT, here).split(sep)[0]!);

/** Artifacts `npm run build` writes (the validated rubric, its matchers, the CLI). */
export const DIST = join(ROOT, 'dist');
