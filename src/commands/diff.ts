import { Option, type Command } from 'commander';
import { InputError } from '../acquire/types.js';
import { diffReports, gateFailures, renderDiffMarkdown, type Gates } from '../diff/index.js';
import { renderBadge } from '../render/badge.js';
import { renderSarif } from '../render/sarif.js';
import { reportSchema, type Report } from '../report/schema.js';
import { loadRubric } from '../rubric/load.js';
import { EXIT } from './context.js';
import { readReport } from '../report/read.js';
import { writeOutput } from './output.js';

export const EXIT_CODES_HELP = '\nExit codes: 0 done (every gate passed) · 1 a gate failed (the output is still written) · 2 usage or input error · 3 internal error';

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
  return applyGates(after, { baseline: before, gates: { failOnRegression: flags.failOnRegression === true }, sarifMinLevel: 2 });
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

// ---- Used by `score`: the baseline, the CI gates and the CI output formats. ----

export interface CiFlags {
  rubric: string;
  baseline?: string;
  failUnder?: string;
  failOnRegression?: boolean;
  sarifMinLevel?: string;
}

export interface CiPlan {
  baseline: Report | null;
  gates: Gates;
  sarifMinLevel: number;
}

/** Checks the CI flags and reads the baseline before anything is scored, so bad input fails fast with exit 2. */
export function planCi(flags: CiFlags): CiPlan {
  const gates: Gates = { failOnRegression: flags.failOnRegression === true };
  if (flags.failUnder !== undefined) {
    const v = flags.failUnder.trim();
    if (!/^\d+(\.\d+)?$/.test(v) || Number(v) > 10) throw new InputError(`--fail-under '${flags.failUnder}': expected a total from 0 to 10`);
    gates.failUnder = Number(v);
  }
  let sarifMinLevel = 2;
  if (flags.sarifMinLevel !== undefined) {
    const m = /^L?([0-4])$/i.exec(flags.sarifMinLevel.trim());
    if (!m) throw new InputError(`--sarif-min-level '${flags.sarifMinLevel}': expected a level from 0 to 4`);
    sarifMinLevel = Number(m[1]);
  }
  if (gates.failOnRegression && flags.baseline === undefined) throw new InputError('--fail-on-regression needs --baseline <old.json> (a report to compare with)');
  return { baseline: flags.baseline === undefined ? null : readReport(flags.baseline), gates, sarifMinLevel };
}

/** The formats that need the rubric's own text (SARIF rule help, badge band colours). */
export function renderCiFormat(format: 'sarif' | 'badge', report: Report, rubricDir: string, plan: CiPlan): string {
  const rubric = loadRubric(rubricDir);
  return format === 'sarif' ? renderSarif(report, rubric, { minLevel: plan.sarifMinLevel }) : renderBadge(report, rubric.file.bands);
}

/** Applies the gates after the report is written: one line on stderr when one fails; returns the exit code. */
export function applyGates(report: Report, plan: CiPlan): number {
  const diff = plan.baseline ? diffReports(plan.baseline, report) : null;
  const failed = gateFailures({ numerator: report.totalNumerator, denominator: report.criteria[0]?.denominator ?? 40 }, diff, plan.gates);
  if (!failed.length) return EXIT.ok;
  process.stderr.write(`audit: gate failed: ${failed.join('; ')}\n`);
  return EXIT.failed;
}
