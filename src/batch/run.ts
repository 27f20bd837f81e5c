import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST } from '../paths.js';
import { renderMarkdown } from '../render/markdown.js';
import { readReportOrNull } from '../report/read.js';
import type { Row } from './leaderboard.js';
import { slugOf, type BatchTarget } from './targets.js';

const CLI = join(DIST, 'cli.js');

/** A leaderboard row, and whether this run scored it or found it already scored (resumed). */
export interface BatchRow extends Row {
  skipped: boolean;
}

export interface BatchOptions {
  outDir: string;
  jobs: number;
  rubric: string;
  cacheDir?: string;
  rubricHash: string;
  progress: (line: string) => void;
}

function label(t: BatchTarget): string {
  return t.commit ? `${t.repo}@${t.commit}` : t.repo;
}

/**
 * Scores each target in its own `audit score` process (a crash, a hang or a memory blow-up stays
 * with that target), `jobs` at a time; one failing target never stops the others.
 */
export async function runBatch(targets: BatchTarget[], opts: BatchOptions): Promise<BatchRow[]> {
  const reports = join(opts.outDir, 'reports');
  mkdirSync(reports, { recursive: true });
  const rows: BatchRow[] = new Array(targets.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < targets.length; i = next++) {
      const t = targets[i]!;
      const base = join(reports, slugOf(t));
      const earlier = existsSync(`${base}.json`) ? readReportOrNull(`${base}.json`) : null;
      // Resumable: an unpinned target already scored is done; a pinned one only if it is that commit.
      if (earlier && earlier.rubric.hash === opts.rubricHash && (!t.commit || earlier.target.commit?.startsWith(t.commit))) {
        rows[i] = { target: label(t), report: earlier, error: null, skipped: true };
        opts.progress(`[${++done}/${targets.length}] ${label(t)}: already scored (${earlier.total.toFixed(1)} ${earlier.band}), skipped`);
        continue;
      }
      const args = [CLI, 'score', t.repo, '--format', 'json', '--out', `${base}.json`, '--rubric', opts.rubric];
      if (t.commit) args.push('--commit', t.commit);
      if (opts.cacheDir) args.push('--cache-dir', opts.cacheDir);
      const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-4096)));
        child.on('close', (c) => resolve({ code: c, stderr: err }));
        child.on('error', (e) => resolve({ code: -1, stderr: e.message }));
      });
      const report = code === 0 ? readReportOrNull(`${base}.json`) : null;
      if (report) writeFileSync(`${base}.md`, renderMarkdown(report));
      const error = report ? null : (stderr.trim().split('\n').pop() ?? '').replace(/^audit: /, '') || `no valid report was written (exit code ${code})`;
      rows[i] = { target: label(t), report, error, skipped: false };
      opts.progress(`[${++done}/${targets.length}] ${label(t)}: ${report ? `${report.total.toFixed(1)} ${report.band}` : `failed: ${error}`}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.jobs, targets.length)) }, worker));
  return rows;
}
