import type { Command } from 'commander';
import { InputError } from '../acquire/types.js';
import { renderRubric } from '../render/rubric.js';
import { DEFAULT_RUBRIC } from './context.js';
import { writeOutput } from './output.js';
import { loadRubricCached } from '../cache/rubric.js';

export async function rubricShowCommand(criterion: string | undefined, flags: { rubric: string; out?: string }): Promise<void> {
  const rubric = await loadRubricCached(flags.rubric);
  const id = criterion?.toUpperCase();
  if (id !== undefined && !rubric.file.criteria.includes(id))
    throw new InputError(`unknown criterion '${criterion}' (expected one of: ${rubric.file.criteria.join(', ')})`);
  writeOutput(renderRubric(rubric, id), flags.out);
}

export function registerRubricShow(cli: Command): void {
  const rubric = cli.command('rubric').description('read the rubric');
  rubric
    .command('show')
    .description("print the level ladders (each level's meaning and rule), caps, conditions, probes and playbooks as markdown")
    .argument('[criterion]', 'one criterion, e.g. C4 (default: the whole rubric)')
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .option('--out <file>', 'write to this file instead of stdout')
    .action(rubricShowCommand);
}
