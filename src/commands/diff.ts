import { Option, type Command } from 'commander';
import { diffReports, reportGateFailures, renderDiffMarkdown } from '../diff/index.js';
import { readReport } from '../report/read.js';
import { EXIT_CODES_HELP, exitForGates } from './context.js';
import { writeOutput } from './output.js';

export const DIFF_FORMATS = ['md', 'json'] as const;

interface DiffFlags {
  format: string;
  out?: string;
  failOnRegression?: boolean;
}

/** Writes the re-audit log; returns the exit code the gates give. */
export function diffCommand(oldFile: string, newFile: string, flags: DiffFlags): number {
  const before = readReport(oldFile);
  const after = readReport(newFile);
  const diff = diffReports(before, after);
  writeOutput(flags.format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : renderDiffMarkdown(diff), flags.out);
  return exitForGates(reportGateFailures(after, before, { failOnRegression: flags.failOnRegression === true }));
}

export function registerDiff(cli: Command): void {
  cli
    .command('diff')
    .description('re-audit log between two reports (`score --format json`): levels, evidence, caps and score that moved')
    .argument('<old.json>', 'the baseline report')
    .argument('<new.json>', 'the new report')
    .addOption(new Option('--format <format>', 'output format').choices([...DIFF_FORMATS]).default('md'))
    .option('--out <file>', 'write to this file (atomically) instead of stdout')
    .option('--fail-on-regression', 'exit 1 when a level dropped, a cap newly fired or a critical gap was added')
    .addHelpText('after', EXIT_CODES_HELP)
    .action((oldFile: string, newFile: string, flags: DiffFlags) => {
      process.exitCode = diffCommand(oldFile, newFile, flags);
    });
}
