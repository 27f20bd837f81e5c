// Build step: validate the bundled rubric once and store it, with its extraction plan, in
// dist/shipped, where an audit looks after its own cache folder. Nothing to do when the entry for
// this rubric and this build is there already; otherwise stale entries go first.
import { chmodSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RUBRIC } from '../dist/commands/context.js';
import { loadRubricCached, rubricKey, SHIPPED_CACHE } from '../dist/cache/rubric.js';

if (!existsSync(join(SHIPPED_CACHE, 'rubrics', `${rubricKey(DEFAULT_RUBRIC)}.plan.json`))) {
  rmSync(SHIPPED_CACHE, { recursive: true, force: true });
  await loadRubricCached(DEFAULT_RUBRIC, SHIPPED_CACHE);
  // Readable by whoever runs the installed tool, not only by who built it.
  for (const f of readdirSync(SHIPPED_CACHE, { recursive: true, encoding: 'utf8' })) chmodSync(join(SHIPPED_CACHE, f), f.endsWith('.json') ? 0o644 : 0o755);
  chmodSync(SHIPPED_CACHE, 0o755);
}
