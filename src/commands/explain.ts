import { existsSync, statSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { InputError } from '../acquire/types.js';
import { auditDetailed, type AuditOptions } from '../audit.js';
import { explain, outcomesFromReport, outcomesFromResults, parseSelector, type ExplainInput, type Explanation } from '../explain/index.js';
import { explainLeg, parseLeg, type LegExplanation } from '../explain/leg.js';
import { renderExplanation, renderLegExplanation } from '../explain/markdown.js';
import { readReport } from '../report/read.js';
import { DEFAULT_RUBRIC } from './context.js';
import { writeOutput } from './output.js';
import { loadRubricCached } from '../cache/rubric.js';

export interface ExplainFlags {
  rubric: string;
  format: string;
  out?: string;
  commit?: string;
  cacheDir?: string;
  overrides?: string;
}

const FORMATS = ['md', 'json'] as const;

/** A saved report is any existing `.json` file; anything else is a repository to audit. */
const isReportFile = (source: string) => source.toLowerCase().endsWith('.json') && existsSync(source) && statSync(source).isFile();

/** Explains one dimension, or one Rule-of-Two leg (`R2.A`), of a saved report or of a repository audited now. */
export async function explainSource(source: string, selector: string, flags: Omit<ExplainFlags, 'format' | 'out'>): Promise<Explanation | LegExplanation> {
  const rubric = await loadRubricCached(flags.rubric, flags.cacheDir);
  const leg = parseLeg(selector);
  const dim = leg ? null : parseSelector(selector, rubric);
  const answer = (input: ExplainInput) => (dim ? explain(input, dim.criterion, dim.dimension) : explainLeg(input, leg!));
  if (isReportFile(source)) {
    if (flags.overrides !== undefined) throw new InputError('--overrides applies when explaining a repository; a saved report already carries its reviewed levels');
    const report = readReport(source);
    return answer({ report, rubric, outcomes: outcomesFromReport(rubric, report), from: 'report' });
  }
  const opts: AuditOptions = { rubricDir: flags.rubric };
  if (flags.commit !== undefined) opts.commit = flags.commit;
  if (flags.cacheDir !== undefined) opts.cacheDir = flags.cacheDir;
  if (flags.overrides !== undefined) opts.overrides = flags.overrides;
  const run = await auditDetailed(source, opts, { rubric });
  const outcomes = outcomesFromResults(run.rubric, run.results, { webUrl: run.report.target.webUrl, commit: run.report.target.commit });
  return answer({ report: run.report, rubric: run.rubric, outcomes, from: 'repo' });
}

export async function explainCommand(source: string, selector: string, flags: ExplainFlags): Promise<void> {
  if (!(FORMATS as readonly string[]).includes(flags.format)) throw new InputError(`unknown format '${flags.format}' (expected one of: ${FORMATS.join(', ')})`);
  const x = await explainSource(source, selector, flags);
  writeOutput(flags.format === 'json' ? `${JSON.stringify(x, null, 2)}\n` : 'leg' in x ? renderLegExplanation(x) : renderExplanation(x), flags.out);
}

export function registerExplain(cli: Command): void {
  cli
    .command('explain')
    .description('why one dimension has its level (or a Rule-of-Two leg its answer): the probes its rules name and what they found or searched, the rule that picked it, and what would change it')
    .argument('<source>', 'a report from score --format json (an existing .json file), or a repository as for score')
    .argument('<dimension>', 'criterion and dimension, e.g. C4.S, or a Rule-of-Two leg, R2.A, R2.B or R2.C')
    .option('--commit <sha>', 'for a repository: commit, tag or branch (default: HEAD)')
    .option('--cache-dir <dir>', 'for a repository: where clones are kept and reused')
    .option('--overrides <file>', "for a repository: a reviewer's overrides file, to explain reviewed levels")
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .addOption(new Option('--format <format>', 'output format').choices([...FORMATS]).default('md'))
    .option('--out <file>', 'write to this file (atomically) instead of stdout')
    .action(explainCommand);
}
