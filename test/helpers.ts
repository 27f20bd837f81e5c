import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCacheDir } from '../src/acquire/index.js';
import { withLock } from '../src/acquire/lock.js';
import { audit } from '../src/audit.js';
import type { Report } from '../src/report/schema.js';

export const ROOT = join(import.meta.dirname, '..');
export const RUBRIC = join(ROOT, 'rubrics', 'dids');
export const CLI = join(ROOT, 'dist', 'cli.js');

const FIXED_DATE = '2026-01-01T00:00:00Z';
const gitEnv = { ...process.env, GIT_AUTHOR_DATE: FIXED_DATE, GIT_COMMITTER_DATE: FIXED_DATE, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, env: gitEnv, encoding: 'utf8' }).trim();
}

/** Copies a fixture into a fresh git repository with one commit at a fixed date, so its commit id is stable. */
export function fixtureRepo(name: string): { dir: string; commit: string } {
  const dir = join(mkdtempSync(join(tmpdir(), `audit-${name}-`)), name);
  cpSync(join(ROOT, 'fixtures', name), dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `fixture ${name}`);
  return { dir, commit: git(dir, 'rev-parse', 'HEAD') };
}

/** Writes a small harness given as path → text into a fresh temporary folder named `name`; returns its path. */
export function writeTree(name: string, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), `${name}-`)), name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const audits = new Map<string, Promise<{ commit: string; report: Report }>>();
/**
 * A fixture audited as a one-commit repository with the bundled rubric, once per test worker:
 * several test files check the same report (expected levels, the agent model, self-consistency).
 * Each caller gets its own copy. Through the result cache of the suite's throwaway cache folder
 * (the commit is the same in every worker: fixed date), a worker that comes second reads the
 * report the other computed; the CLI tests show a cached report is the computed one, byte for byte.
 */
export async function auditedFixture(name: string): Promise<{ commit: string; report: Report }> {
  let pending = audits.get(name);
  if (!pending) {
    pending = (async () => {
      const repo = fixtureRepo(name);
      // Workers that want the same fixture at once take turns: the second reads what the first stored.
      const lock = join(defaultCacheDir(), `fixture-${name}.lock`);
      mkdirSync(defaultCacheDir(), { recursive: true });
      const report = await withLock(lock, { staleMs: 600_000, waitMs: 600_000 }, () => audit(repo.dir, { rubricDir: RUBRIC, resultCache: true }));
      return { commit: repo.commit, report };
    })();
    audits.set(name, pending);
  }
  const { commit, report } = await pending;
  return { commit, report: structuredClone(report) };
}

/**
 * Fixture names in the order this worker audits them: forward in one worker, backward in the
 * next. Two workers that check every fixture at the same time (self-consistency, the agent model)
 * then compute half each and read the other half from the result cache, instead of one waiting on
 * the other's lock for every fixture. The order of describe blocks changes nothing they check.
 */
export function inWorkerOrder(names: string[]): string[] {
  const sorted = [...names].sort();
  return Number(process.env['VITEST_POOL_ID'] ?? 1) % 2 === 0 ? sorted.reverse() : sorted;
}
