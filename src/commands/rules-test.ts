import type { Command } from 'commander';
import { loadRubricCached } from '../cache/rubric.js';
import { InputError } from '../acquire/types.js';
import { DEFAULT_RUBRIC, EXIT } from './context.js';
import { testProbe } from '../probes/selftest.js';

/** Prints one line per failing snippet and a closing count; true when every snippet behaved. */
export async function rulesTestCommand(rubricDir: string, only: string[] = []): Promise<boolean> {
  // Validated once per rubric content (a probe being written changes it, and is loaded afresh).
  const rubric = await loadRubricCached(rubricDir);
  const unknown = only.filter((id) => !rubric.probes.some((p) => p.id === id));
  if (unknown.length) throw new InputError(`rules test --probe: no probe ${unknown.map((id) => `"${id}"`).join(', ')} in ${rubricDir}`);
  const probes = only.length ? rubric.probes.filter((p) => only.includes(p.id)) : rubric.probes;
  let passed = 0;
  let failed = 0;
  for (const probe of probes) {
    for (const o of await testProbe(probe)) {
      if (o.ok) passed++;
      else {
        failed++;
        process.stdout.write(`FAIL ${o.probe} ${o.expect}[${o.index}${o.derived ? ` as ${o.derived}` : ''}] (${o.lang}): ${o.why}\n`);
      }
    }
  }
  process.stdout.write(`${probes.length} probes, ${passed} snippets passed, ${failed} failed\n`);
  return failed === 0;
}

export function registerRules(cli: Command): void {
  const rules = cli.command('rules').description("work with the rubric's probes");
  rules
    .command('test')
    .description('run every probe against its own match/noMatch snippets')
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .option('--probe <id...>', 'only these probes (while writing one)')
    .action(async (flags: { rubric: string; probe?: string[] }) => {
      process.exitCode = (await rulesTestCommand(flags.rubric, flags.probe)) ? EXIT.ok : EXIT.failed;
    });
}
