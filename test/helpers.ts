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
/**
 * A Python agent's main loop on the OpenAI client (the module defines `client`, imports `json` and
 * binds `TOOLS`): each tool call the model makes runs as `TOOLS[name](**arguments)`.
 */
export const PY_TOOL_LOOP = `def main():
    history = [{"role": "user", "content": input("> ")}]
    while True:
        reply = client.chat.completions.create(model="gpt-4o", messages=history)
        message = reply.choices[0].message
        if not message.tool_calls:
            break
        for call in message.tool_calls:
            result = TOOLS[call.function.name](**json.loads(call.function.arguments))
            history.append({"role": "tool", "tool_call_id": call.id, "content": result})
`;

/**
 * A Go agent loop (go-openai) that hands each of the model's tool calls to `body`, which sets `out`:
 * the function's signature (`Run(ctx context.Context, prompt string)`) is the caller's.
 */
export const goToolLoop = (signature: string, body: string): string => `func ${signature} error {
	client := openai.NewClient("")
	messages := []openai.ChatCompletionMessage{{Role: "user", Content: prompt}}
	for {
		resp, err := client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "gpt-4o", Messages: messages})
		if err != nil {
			return err
		}
		msg := resp.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			return nil
		}
		for _, call := range msg.ToolCalls {
${body}
			messages = append(messages, openai.ChatCompletionMessage{Role: "tool", Content: out, ToolCallID: call.ID})
		}
	}
}
`;

/** Audits a tree written from `files`: its tools by name, and the criteria whose caps fire. */
export async function auditTools(name: string, files: Record<string, string>): Promise<{ tools: Record<string, NonNullable<Report['agent']>['tools'][number]>; caps: string[] }> {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t]));
  return { tools, caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
}

export function writeTree(name: string, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), `${name}-`)), name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Audits a small harness written as path → text; returns the refusal's message, or null when it is scored. */
export async function refusal(name: string, files: Record<string, string>): Promise<string | null> {
  try {
    await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
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

/** What a run of the CLI printed and the exit code it ended with. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Replaces an object's property for the length of a call; the returned function puts back exactly what was there (an own property, or none). */
function swap<T extends object>(target: T, key: PropertyKey, value: unknown): () => void {
  const own = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, configurable: true, writable: true, enumerable: own?.enumerable ?? false });
  return () => {
    if (own) Object.defineProperty(target, key, own);
    else delete (target as Record<PropertyKey, unknown>)[key];
  };
}

/** Where a CLI run starts (the project root unless given, as the spawned runs start) and the environment it adds. */
export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

let cliQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI's `main` in this process, as `node dist/cli.js ...args` would run it from `cwd` (the
 * project root unless given) with `env` on top of this process's environment (a key given as
 * undefined is removed), and returns its exit code and output. A spawn pays node's start-up,
 * module loading, the rubric's parsing and the native parsers' set-up on every call; here a test
 * worker pays them once.
 *
 * What it runs is the sources (src/), not the built dist/cli.js, and only `main`: the binary's own
 * entry (the top-level await that sets the exit code, EPIPE on a closed pipe, signals, a real exit)
 * and anything that needs a process of its own (two CLIs at once, a cold process with no facts in
 * memory) are for tests that spawn `CLI`. Output is captured from process.stdout/stderr.write
 * (strings and bytes, decoded as UTF-8 once at the end, as a pipe is read), with isTTY unset on
 * both as on a pipe; calls are queued, never overlapping, since they share process-wide state
 * (cwd, env, the streams, process.exitCode), all of it restored after each call.
 */
export function cli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const run = cliQueue.then(() => cliInProcess(args, opts));
  cliQueue = run.catch(() => undefined);
  return run;
}

async function cliInProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  const { main } = await import('../src/cli.js');
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (chunks: Buffer[]) =>
    function write(chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), done?: (e?: Error | null) => void): boolean {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
      const callback = typeof encoding === 'function' ? encoding : done;
      if (callback) process.nextTick(callback);
      return true;
    };
  const restore: Array<() => void> = [];
  const cwd = process.cwd();
  const env = Object.entries(opts.env ?? {}).map(([key, value]) => ({ key, value, had: Object.hasOwn(process.env, key), was: process.env[key] }));
  try {
    restore.push(swap(process.stdout, 'write', sink(out)), swap(process.stderr, 'write', sink(err)));
    restore.push(swap(process.stdout, 'isTTY', undefined), swap(process.stderr, 'isTTY', undefined));
    for (const { key, value } of env) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    process.chdir(opts.cwd ?? ROOT);
    // A code left by an earlier run would be read as this one's (main returns process.exitCode
    // when a command set it), and one left set after the run would fail the test worker.
    process.exitCode = undefined;
    const code = await main(args);
    return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
  } finally {
    process.exitCode = undefined;
    process.chdir(cwd);
    for (const { key, had, was } of env.reverse()) {
      if (had) process.env[key] = was;
      else delete process.env[key];
    }
    for (const undo of restore.reverse()) undo();
  }
}
