import { loadRubric } from '../rubric/load.js';
import { testProbe } from '../probes/selftest.js';

/** Prints one line per failing snippet and a closing count; true when every snippet behaved. */
export async function rulesTestCommand(rubricDir: string): Promise<boolean> {
  const rubric = loadRubric(rubricDir);
  let passed = 0;
  let failed = 0;
  for (const probe of rubric.probes) {
    for (const o of testProbe(probe)) {
      if (o.ok) passed++;
      else {
        failed++;
        process.stdout.write(`FAIL ${o.probe} ${o.expect}[${o.index}] (${o.lang}): ${o.why}\n`);
      }
    }
  }
  process.stdout.write(`${rubric.probes.length} probes, ${passed} snippets passed, ${failed} failed\n`);
  return failed === 0;
}
