import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../acquire/types.js';
import { leaderboardCsv, leaderboardMarkdown, type Row } from '../batch/leaderboard.js';
import { runBatch } from '../batch/run.js';
import { readReportOrNull } from '../report/read.js';
import { readTargets, shardOf } from '../batch/targets.js';
import { DEFAULT_RUBRIC, EXIT } from './context.js';
import { writeOutput } from './output.js';
import { loadRubricCached } from '../cache/rubric.js';

interface BatchFlags {
  jobs: string;
  outDir: string;
  shard?: string;
  rubric: string;
  cacheDir?: string;
  quiet?: boolean;
}

/** Progress goes to stderr, and only for a person watching a terminal: machine output stays clean. */
function progressSink(quiet: boolean | undefined): (line: string) => void {
  return quiet || !process.stderr.isTTY ? () => {} : (line) => process.stderr.write(`${line}\n`);
}

function writeLeaderboard(rows: Row[], outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  writeOutput(leaderboardMarkdown(rows), join(outDir, 'leaderboard.md'));
  writeOutput(leaderboardCsv(rows), join(outDir, 'leaderboard.csv'));
}

async function batchRun(file: string, flags: BatchFlags): Promise<void> {
  const jobs = Number(flags.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) throw new InputError(`--jobs '${flags.jobs}': expected a whole number from 1 to 64`);
  const rubric = await loadRubricCached(flags.rubric, flags.cacheDir);
  const targets = shardOf(readTargets(file), flags.shard);
  const rows = await runBatch(targets, { outDir: flags.outDir, jobs, rubric: flags.rubric, rubricHash: rubric.hash, progress: progressSink(flags.quiet), ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}) });
  writeLeaderboard(rows, flags.outDir);
  const leaderboard = join(flags.outDir, 'leaderboard.md');
  const failed = rows.filter((r) => !r.report);
  const skipped = rows.filter((r) => r.report && r.skipped).length;
  const scored = rows.length - failed.length - skipped;
  process.stdout.write(`${scored} scored, ${skipped ? `${skipped} skipped (already scored), ` : ''}${failed.length} failed; leaderboard in ${leaderboard}\n`);
  // Like a failed gate: everything is written first, then the exit code says the batch is incomplete.
  if (failed.length) {
    const named = failed.slice(0, 5).map((r) => r.target).join(', ') + (failed.length > 5 ? ` and ${failed.length - 5} more` : '');
    process.stderr.write(`audit: ${failed.length} of ${rows.length} targets failed: ${named} (errors in ${leaderboard})\n`);
    process.exitCode = EXIT.failed;
  }
}

/** Report files named on the command line, or every *.json below the folders named. */
function reportFiles(paths: string[]): string[] {
  return paths.flatMap((p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new InputError(`cannot read ${p} (expected a report .json file or a folder of them)`);
    }
    if (!st.isDirectory()) return [p];
    return readdirSync(p, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.json')).sort().map((n) => join(p, n));
  });
}

function batchMerge(paths: string[], flags: { outDir: string }): void {
  const rows: Row[] = [];
  for (const f of reportFiles(paths)) {
    const report = readReportOrNull(f);
    if (report) rows.push({ target: report.target.commit ? `${report.target.repo}@${report.target.commit}` : report.target.repo, report, error: null });
  }
  if (rows.length === 0) throw new InputError(`no valid report JSON found in ${paths.join(', ')}`);
  writeLeaderboard(rows, flags.outDir);
  process.stdout.write(`${rows.length} reports merged; leaderboard in ${join(flags.outDir, 'leaderboard.md')}\n`);
}

export function registerBatch(cli: Command): void {
  const batch = cli.command('batch').description('score many targets into one leaderboard (markdown and CSV) plus one report per target');
  batch
    .command('run <file>', { isDefault: true })
    .description('score every `repo[@commit]` line (or YAML list entry) of <file>; re-running skips targets already done')
    .option('--jobs <n>', 'targets scored at once, each in its own process', '2')
    .option('--out-dir <dir>', 'where reports/ and the leaderboard go', 'audit-batch')
    .option('--shard <i/n>', 'score only slice i of n (for a CI matrix); join slices with `agent-audit batch merge`')
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .option('--cache-dir <dir>', 'where clones are kept and reused')
    .option('--quiet', 'no progress on stderr')
    .addHelpText('after', '\nExit codes: 0 every target scored · 1 some target failed (the leaderboard and the other reports are still written) · 2 usage or input error · 3 internal error')
    .action(batchRun);
  batch
    .command('merge <reports...>')
    .description('join report JSON files (or folders of them, e.g. the reports/ of several shards) into one leaderboard')
    .option('--out-dir <dir>', 'where the leaderboard goes', 'audit-batch')
    .action(batchMerge);
}
