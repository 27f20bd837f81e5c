// npm run bench [-- <repo>[@<commit>] | synthetic:<files> | hostile ...]: speed and memory of the audit, beside an anchor measured
// in the same run. For each target (synthetic repositories of 1k, 5k and 20k files from this
// project's fixtures, or the git repositories given), in processes of their own:
//   parse pass   one ast-grep parse of every code file, single-threaded (the anchor: no audit can do less)
//   first audit  score with an empty cache folder (facts and results)
//   cached       the same commit again (the finished report is reused)
//   next commit  a commit that changes five code files, with the facts cache of the first audit
//   peak RSS     of the first audit's process
// Each figure is the median of BENCH_RUNS runs (3 unless set), each from an empty cache folder.
// `hostile` times instead a first audit of each repository in scripts/hostile.mjs: small inputs
// shaped to make matching or the agent model do far more work than their size suggests.
// Timings come from this machine as it is: run it on a quiet machine and read them with its core count.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileRepo, SHAPES } from './hostile.mjs';
import { syntheticRepo } from './synthetic.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const git = (gitDir, args, input) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', input, maxBuffer: 1 << 30, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } }).trim();

/**
 * A bare copy of the target (its own objects: the audit refuses borrowed ones), so a bench commit
 * never touches the original. A plain copy of the git folder, not a clone: a mirror whose largest
 * blobs were left out cannot be cloned, and the audit lists those files as unreadable either way.
 */
function scratchClone(path) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-bench-'));
  const source = existsSync(join(path, '.git')) ? join(path, '.git') : path;
  cpSync(source, join(dir, 'repo.git'), { recursive: true, verbatimSymlinks: true });
  // A non-bare repository's git folder becomes a bare repository of its own.
  git(join(dir, 'repo.git'), ['config', 'core.bare', 'true']);
  return join(dir, 'repo.git');
}

/** A commit on top of `base` that appends a line to five code files: what a pull request changes. */
function nextCommit(gitDir, base) {
  const files = git(gitDir, ['ls-tree', '-r', '--name-only', base]).split('\n').filter((p) => /\.(ts|tsx|js|py|go|rs)$/.test(p) && !/(^|\/)(test|tests|docs|examples?)\//.test(p));
  const picked = files.filter((_, i) => i % Math.max(1, Math.floor(files.length / 5)) === 0).slice(0, 5);
  const index = join(mkdtempSync(join(tmpdir(), 'audit-bench-index-')), 'index');
  const env = { GIT_INDEX_FILE: index };
  const withIndex = (args, input) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', input, env: { ...process.env, ...env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } }).trim();
  withIndex(['read-tree', base]);
  for (const p of picked) {
    const text = git(gitDir, ['cat-file', 'blob', `${base}:${p}`]);
    const blob = git(gitDir, ['hash-object', '-w', '--stdin'], `${text}\n${p.endsWith('.py') ? '#' : '//'} bench change\n`);
    withIndex(['update-index', '--cacheinfo', `100644,${blob},${p}`]);
  }
  const tree = withIndex(['write-tree']);
  rmSync(join(index, '..'), { recursive: true, force: true });
  return git(gitDir, ['commit-tree', tree, '-p', base, '-m', 'bench: five files changed']);
}

/** Runs one CLI audit in a process of its own; returns wall seconds and the process's peak RSS in MB. */
function timedAudit(target, commit, cacheDir, extra = []) {
  const args = [CLI, 'score', target, '--format', 'json', '--out', join(cacheDir, 'out.json'), '--cache-dir', cacheDir, '--quiet', ...extra];
  if (commit) args.push('--commit', commit);
  const t = performance.now();
  // BENCH_CPU_PROF=<dir> keeps a CPU profile of every audit (for reading where the time goes, not for the figures).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...prof, ...args], { encoding: 'utf8' });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`audit of ${target} failed: ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
  const kb = Number(r.stderr.trim().split('\n').pop());
  return { wall, rssMb: kb / 1024 };
}

/** The anchor: one ast-grep parse of every code file at the commit, in this process, one thread. */
async function parsePass(gitDir, commit) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--parse-pass', gitDir, commit], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout);
}

async function parsePassChild(gitDir, commit) {
  const { parseCode } = await import('../dist/facts/parse.js');
  const { languageOf, excludedByPath } = await import('../dist/inventory/classify.js');
  const paths = git(gitDir, ['ls-tree', '-r', '--name-only', commit]).split('\n').filter((p) => languageOf(p) && !excludedByPath(p));
  const texts = paths.map((p) => [p, git(gitDir, ['cat-file', 'blob', `${commit}:${p}`])]);
  const t = performance.now();
  for (const [p, text] of texts) parseCode(languageOf(p), text);
  process.stdout.write(JSON.stringify({ files: texts.length, seconds: (performance.now() - t) / 1000 }));
}

/** Runs of each measurement: a shared machine's figures vary from run to run, so each is the median of these. */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function bench(label, path, commit) {
  const gitDir = scratchClone(path);
  const head = commit ?? git(gitDir, ['rev-parse', 'HEAD']);
  const next = nextCommit(gitDir, head);
  const runs = [];
  // Each run from an empty cache folder: the first audit, the same commit again, then the next commit.
  for (let r = 0; r < RUNS; r++) {
    const anchor = await parsePass(gitDir, head);
    const cacheDir = mkdtempSync(join(tmpdir(), 'audit-bench-cache-'));
    runs.push({ anchor, first: timedAudit(gitDir, head, cacheDir), cached: timedAudit(gitDir, head, cacheDir), next: timedAudit(gitDir, next, cacheDir) });
    rmSync(cacheDir, { recursive: true, force: true });
  }
  rmSync(join(gitDir, '..'), { recursive: true, force: true });
  const anchor = median(runs.map((r) => r.anchor.seconds));
  const x = (s) => `${s.toFixed(2)} s (${(s / anchor).toFixed(1)}×)`;
  const m = (f) => median(runs.map(f));
  console.log(`| ${label} | ${runs[0].anchor.files} | ${anchor.toFixed(2)} s | ${x(m((r) => r.first.wall))} | ${m((r) => r.cached.wall).toFixed(2)} s | ${x(m((r) => r.next.wall))} | ${m((r) => r.first.rssMb).toFixed(0)} MB |`);
}

if (process.argv[2] === '--parse-pass') {
  await parsePassChild(process.argv[3], process.argv[4]);
} else {
  const hostile = process.argv.includes('hostile');
  const given = process.argv.slice(2).filter((a) => a !== 'hostile');
  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; each figure the median of ${RUNS} run${RUNS === 1 ? '' : 's'} (BENCH_RUNS)`);
  const targets = given.length || hostile
    ? await Promise.all(
        given.map(async (g) => {
          // synthetic:N builds the synthetic repository of N files; anything else is path[@commit].
          const n = /^synthetic:(\d+)$/.exec(g)?.[1];
          if (n) return { label: `synthetic ${Number(n).toLocaleString('en-US')} files`, path: await syntheticRepo(Number(n)), commit: undefined };
          const [p, c] = g.split('@');
          return { label: g, path: p, commit: c };
        }),
      )
    : await Promise.all([1000, 5000, 20000].map(async (n) => ({ label: `synthetic ${n.toLocaleString('en-US')} files`, path: await syntheticRepo(n), commit: undefined })));
  if (targets.length) {
    console.log('| target | code files | parse pass | first audit (× parse) | cached re-audit | next commit, 5 files changed (× parse) | peak RSS |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
  }
  for (const t of targets) {
    if (!existsSync(t.path)) throw new Error(`no such repository: ${t.path}`);
    await bench(t.label, t.path, t.commit);
  }
  if (hostile) {
    console.log('');
    console.log('| hostile shape | first audit | peak RSS |');
    console.log('|---|---:|---:|');
    for (const shape of Object.keys(SHAPES)) {
      const path = hostileRepo(shape);
      const runs = Array.from({ length: RUNS }, () => {
        const cacheDir = mkdtempSync(join(tmpdir(), 'audit-bench-cache-'));
        try {
          return timedAudit(path, undefined, cacheDir, ['--force']);
        } finally {
          rmSync(cacheDir, { recursive: true, force: true });
        }
      });
      console.log(`| ${shape} | ${median(runs.map((r) => r.wall)).toFixed(2)} s | ${median(runs.map((r) => r.rssMb)).toFixed(0)} MB |`);
    }
  }
}
