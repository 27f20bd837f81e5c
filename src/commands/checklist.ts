import { Option, type Command } from 'commander';
import { InputError } from '../acquire/types.js';
import { readBaseline } from '../release/baseline.js';
import { GATES, gateFailures, type Gate } from '../release/gate.js';
import { runReleaseCheck, type ReleaseOptions } from '../release/index.js';
import { renderReleaseCheck } from '../release/render.js';
import { DEFAULT_RUBRIC, EXIT } from './context.js';
import { writeOutput } from './output.js';

export interface ChecklistFlags {
  commit?: string;
  cacheDir?: string;
  rubric: string;
  format: string;
  out?: string;
  name?: string;
  failOn?: string;
  baseline?: string;
}

export function parseGates(value: string): Set<Gate> {
  const gates = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = gates.find((g) => !(GATES as readonly string[]).includes(g));
  if (bad !== undefined || gates.length === 0) throw new InputError(`unknown --fail-on '${bad ?? value}' (expected a comma-separated list of: ${GATES.join(', ')})`);
  return new Set(gates as Gate[]);
}

/** Prints the checklist; with --fail-on, exits 1 when the gate fails (after the output is written). */
export async function checklistCommand(target: string, flags: ChecklistFlags): Promise<void> {
  if (flags.format !== 'md' && flags.format !== 'json') throw new InputError(`unknown format '${flags.format}' (expected one of: md, json)`);
  const gates = flags.failOn !== undefined ? parseGates(flags.failOn) : new Set<Gate>();
  const opts: ReleaseOptions = { rubricDir: flags.rubric };
  if (flags.commit !== undefined) opts.commit = flags.commit;
  if (flags.cacheDir !== undefined) opts.cacheDir = flags.cacheDir;
  if (flags.name !== undefined) opts.name = flags.name;
  if (flags.baseline !== undefined) opts.baseline = { data: readBaseline(flags.baseline), name: flags.baseline };
  const report = await runReleaseCheck(target, opts);
  writeOutput(flags.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderReleaseCheck(report), flags.out);
  const failures = gateFailures(report, gates);
  if (failures.length) {
    process.stderr.write(`audit: release gate failed (--fail-on ${[...gates].join(',')}): ${failures.length} reason${failures.length === 1 ? '' : 's'}\n${failures.map((f) => `  ${f}\n`).join('')}`);
    process.exitCode = EXIT.failed;
  }
}

export function registerChecklist(cli: Command): void {
  cli
    .command('checklist')
    .description("release self-audit: the rubric's checklist (☑ shown by the code, ✗ failing, ☐ by hand) and the project's own security claims checked against its code")
    .argument('[repo]', 'owner/repo, a git URL, a local repository or a plain folder', '.')
    .option('--commit <sha>', 'full or short commit id, tag or branch (default: HEAD)')
    .option('--cache-dir <dir>', 'where clones are kept and reused')
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json']).default('md'))
    .option('--out <file>', 'write the checklist to this file (atomically) instead of stdout')
    .option('--name <name>', 'name shown in the title')
    .option('--fail-on <gates>', `exit 1 when the gate fails; comma-separated: ${GATES.join(', ')}`)
    .option('--baseline <file>', 'a previous `checklist --format json` output: list what regressed since')
    .action(checklistCommand);
}
