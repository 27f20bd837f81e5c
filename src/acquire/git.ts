import path from 'node:path';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * The single place where git is started. The target is hostile: its config, hooks, filters and
 * transports must never get a chance to run code, so every invocation gets a scrubbed
 * environment and `-c` overrides (command-line config beats repository config).
 */

export interface GitOptions {
  /** Repository to operate on; passed as --git-dir so git never discovers anything by itself. */
  gitDir?: string;
  /** Working directory (default: the directory holding gitDir, never the user's cwd; with an
   *  explicit --git-dir it only matters as a neutral place, and `.git` may be a file). */
  cwd?: string;
  /** Written to stdin, then stdin is closed. */
  input?: string;
  /** Only clone/fetch may talk to a transport; everything else runs with every protocol denied. */
  network?: boolean;
  /** Kill the process and fail when stdout grows beyond this (bytes). */
  maxStdout?: number;
  timeoutMs?: number;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

const HARDENING = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.sshCommand=ssh',
  'core.pager=cat',
  'core.askPass=',
  'credential.helper=',
  'submodule.recurse=false',
  'protocol.ext.allow=never',
  // Replace refs could make us report content that differs from what the commit id names.
  'core.useReplaceRefs=false',
  // No detached background gc touching the cache after we return.
  'gc.auto=0',
  'maintenance.auto=false',
];

// Offline commands: a hostile repo could declare itself a partial clone with a promisor remote
// whose `uploadpack` is a local program; denying every protocol makes a lazy fetch impossible.
const OFFLINE = ['file', 'git', 'ssh', 'http', 'https', 'ext'].map((p) => `protocol.${p}.allow=never`);
const ONLINE = ['protocol.file.allow=always'];

/** The user's environment minus every GIT_* variable (GIT_DIR, GIT_CONFIG_*, GIT_SSH_COMMAND...). */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.toUpperCase().startsWith('GIT_')) env[k] = v;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_LFS_SKIP_SMUDGE: '1',
    GIT_PAGER: 'cat',
    GIT_ASKPASS: '',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_NO_LAZY_FETCH: '1', // git >= 2.45 and the 2.39.4+ security releases; OFFLINE covers the rest
    GIT_PROTOCOL_FROM_USER: '0',
  };
}

export function gitArgv(args: string[], opts: GitOptions): string[] {
  const config = [...HARDENING, ...(opts.network ? ONLINE : OFFLINE)];
  const argv = config.flatMap((c) => ['-c', c]);
  if (opts.gitDir) argv.push(`--git-dir=${opts.gitDir}`);
  return [...argv, ...args];
}

/** Starts git with the hardening applied; for streaming use (cat-file --batch). */
export function spawnGit(args: string[], opts: GitOptions): ChildProcessWithoutNullStreams {
  const cwd = opts.cwd ?? (opts.gitDir ? path.dirname(opts.gitDir) : undefined);
  if (!cwd) throw new Error('spawnGit: cwd or gitDir is required');
  return spawn('git', gitArgv(args, opts), { cwd, env: gitEnv(), shell: false, windowsHide: true });
}

/** Runs git to completion, collecting bounded stdout. Resolves with the exit code; never throws on it. */
export function runGit(args: string[], opts: GitOptions): Promise<GitResult> {
  const maxStdout = opts.maxStdout ?? 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, opts);
    const out: Buffer[] = [];
    let outLen = 0;
    let err = '';
    let failure: Error | null = null;
    const kill = (e: Error) => {
      failure ??= e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => kill(new Error(`git ${args[0]} timed out`)),
      opts.timeoutMs ?? 120_000,
    );
    child.stdout.on('data', (d: Buffer) => {
      outLen += d.length;
      if (outLen > maxStdout) return kill(new Error(`git ${args[0]} output exceeds ${maxStdout} bytes`));
      out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 64 * 1024) err += d.toString('utf8');
    });
    child.stdin.on('error', () => {}); // git may exit before reading all input
    child.on('error', (e: NodeJS.ErrnoException) =>
      kill(e.code === 'ENOENT' ? new Error('git is not installed or not on PATH') : e),
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** First meaningful line of git's stderr, without the "fatal: " prefix, for one-line messages. */
export function firstLine(stderr: string): string {
  const line = stderr.split(/\r?\n/).find((l) => l.trim() !== '') ?? 'unknown error';
  return line.replace(/^(fatal|error): /, '').trim();
}
