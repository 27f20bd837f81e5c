import { Option, type Command } from 'commander';
import { audit, type AuditOptions } from '../audit.js';
import { planCi, type CiPlan } from '../ci/plan.js';
import { reportGateFailures } from '../diff/index.js';
import { renderBadge } from '../render/badge.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderSarif } from '../render/sarif.js';
import type { Report } from '../report/schema.js';
import { InputError } from '../acquire/types.js';
import { DEFAULT_RUBRIC, EXIT_CODES_HELP, exitForGates } from './context.js';
import { checkOutputPath, writeOutput } from './output.js';
import { loadRubricCached } from '../cache/rubric.js';

export interface ScoreFlags {
  commit?: string;
  cacheDir?: string;
  rubric: string;
  format: string;
  out?: string;
  name?: string;
  what?: string;
  category?: string;
  configuration?: string;
  reviewed?: string;
  surfaces?: string;
  overrides?: string;
  baseline?: string;
  failUnder?: string;
  failOnRegression?: boolean;
  sarifMinLevel?: string;
  /** commander's --no-result-cache sets this false. */
  resultCache: boolean;
  quiet?: boolean;
  force?: boolean;
}

export const FORMATS = ['md', 'json', 'sarif', 'badge'] as const;

/** The formats that need the rubric's own text (SARIF rule help, badge band colours). */
async function renderCiFormat(format: 'sarif' | 'badge', report: Report, rubricDir: string, plan: CiPlan): Promise<string> {
  const rubric = await loadRubricCached(rubricDir);
  return format === 'sarif' ? renderSarif(report, rubric, { minLevel: plan.sarifMinLevel }) : renderBadge(report, rubric.file.bands);
}

export async function scoreCommand(target: string, flags: ScoreFlags): Promise<void> {
  if (!(FORMATS as readonly string[]).includes(flags.format)) throw new InputError(`unknown format '${flags.format}' (expected one of: ${FORMATS.join(', ')})`);
  const ci = await planCi(flags);
  // A path that cannot take the report is refused before the audit runs, not after.
  if (flags.out !== undefined) checkOutputPath(flags.out);
  const opts: AuditOptions = { rubricDir: flags.rubric };
  if (ci.baseline) opts.baseline = ci.baseline;
  if (flags.commit !== undefined) opts.commit = flags.commit;
  if (flags.cacheDir !== undefined) opts.cacheDir = flags.cacheDir;
  if (flags.name !== undefined) opts.name = flags.name;
  if (flags.what !== undefined) opts.whatItIs = flags.what;
  if (flags.category !== undefined) opts.category = flags.category;
  if (flags.configuration !== undefined) opts.scoredConfiguration = flags.configuration;
  if (flags.surfaces !== undefined) opts.surfacesScored = flags.surfaces.split(',').map((s) => s.trim()).filter(Boolean);
  if (flags.overrides !== undefined) opts.overrides = flags.overrides;
  opts.resultCache = flags.resultCache;
  if (flags.force) opts.force = true;
  // Progress is for a person at a terminal; piped or redirected stderr stays silent.
  if (!flags.quiet && process.stderr.isTTY) opts.progress = (line) => process.stderr.write(`${line}\n`);
  const report = await audit(target, opts);
  const text =
    flags.format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : flags.format === 'sarif' || flags.format === 'badge'
        ? await renderCiFormat(flags.format, report, flags.rubric, ci)
        : renderMarkdown(report, flags.reviewed ? { reviewed: flags.reviewed } : {});
  writeOutput(text, flags.out);
  // The gates only set the exit code: the report above is written either way.
  process.exitCode = exitForGates(reportGateFailures(report, ci.baseline, ci.gates));
}

export function registerScore(cli: Command): void {
  cli
    .command('score')
    .description('score a repository (owner/repo, a git URL, a local repository or a plain folder) at one commit')
    .argument('<repo>', 'owner/repo, https://github.com/owner/repo, any git URL, or a local path')
    .option('--commit <sha>', 'full or short commit id, tag or branch (default: HEAD)')
    .option('--cache-dir <dir>', 'where clones and finished reports are kept and reused')
    .option('--no-result-cache', 'always re-run the probes, even for a commit this build already audited with this rubric')
    .option('--quiet', 'no progress lines on stderr (they are only printed on a terminal anyway)')
    .option('--force', 'score the target even when it shows no sign of being an agent (no model call, no tool)')
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .addOption(new Option('--format <format>', 'output format').choices([...FORMATS]).default('md'))
    .option('--out <file>', 'write the report to this file (atomically) instead of stdout')
    .option('--name <name>', 'name shown in the title')
    .option('--what <text>', "'What it is' line")
    .option('--category <text>', 'category line')
    .option('--configuration <text>', "'Scored configuration' line")
    .option('--surfaces <list>', "'Surfaces scored' line: comma-separated product surfaces (desktop app, API server, …)")
    .option('--overrides <file>', "a reviewer's corrections (YAML): levels, surface and Rule-of-Two answers, each with a reason")
    .option('--reviewed <date>', "print a 'Reviewed' date (none by default: reports are byte-identical per commit)")
    .option('--baseline <old.json>', "an earlier report (--format json) to fill the 'Re-audit log' from")
    .option('--fail-under <total>', 'exit 1 when the total is below this (0 to 10, unrounded)')
    .option('--fail-on-regression', 'exit 1 when, since --baseline, a level dropped, a cap newly fired or a critical gap was added')
    .option('--sarif-min-level <level>', 'with --format sarif: report each dimension below this level (0 to 4)', '2')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(scoreCommand);
}
