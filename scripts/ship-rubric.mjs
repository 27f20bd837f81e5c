// Build step: validate the bundled rubric once and store it, with its extraction plan and the
// scan's combined matchers, in dist/shipped, where an audit looks after its own cache folder.
// Nothing to do when the entry for this rubric and this build is complete (its `.done` mark is
// written last); otherwise stale entries go first.
import { chmodSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RUBRIC } from '../dist/commands/context.js';
import { loadRubricCached, rubricKey, SHIPPED_CACHE } from '../dist/cache/rubric.js';
import { planOf } from '../dist/facts/plan.js';
import { SHIPPED_MATCHERS } from '../dist/facts/matcherStore.js';
import { storeMatchers } from '../dist/facts/scan.js';

const done = join(SHIPPED_CACHE, 'rubrics', `${rubricKey(DEFAULT_RUBRIC)}.done`);
if (!existsSync(done)) {
  rmSync(SHIPPED_CACHE, { recursive: true, force: true });
  const rubric = await loadRubricCached(DEFAULT_RUBRIC, SHIPPED_CACHE);
  // The scan's combined matchers for this rubric's plan: a first audit reads them instead of building them.
  storeMatchers(planOf(rubric).probes, SHIPPED_MATCHERS);
  writeFileSync(done, '');
  // Readable by whoever runs the installed tool, not only by who built it.
  for (const f of readdirSync(SHIPPED_CACHE, { recursive: true, encoding: 'utf8' })) chmodSync(join(SHIPPED_CACHE, f), statSync(join(SHIPPED_CACHE, f)).isDirectory() ? 0o755 : 0o644);
  chmodSync(SHIPPED_CACHE, 0o755);
}
