import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * C3 S L0 is "raw shell string, raw URL, raw path, unvalidated". An agent whose tools are typed
 * actions (each takes its own parameters, none runs a command string or code the model wrote) is
 * past it; with no file or fetch tool among them there is no path to contain and no general tool
 * to allowlist, and no raw URL argument: L3 (narrow-typed-tools.test.ts has one with a file tool,
 * which stays at L1). And each of its tools checks its own arguments by their types, which is C3 C L2
 * ("built-ins check their own arguments"). The same agent with one tool that hands the model's
 * string to a shell is neither; with a call elsewhere that runs code no tool reaches, its closed
 * set of actions is still a check (S and C L1).
 */
const agent = (extra: string, entry: string) => toolLoopAgent('typedbot', { extra, entries: entry });

const report = (name: string, extra: string, entry: string) => audit(writeTree(name, agent(extra, entry)), { rubricDir: RUBRIC, factsCache: false });
const c3 = async (name: string, extra: string, entry: string) => (await report(name, extra, entry)).criteria.find((c) => c.id === 'C3')!.levels;
// The typed agent alone, audited once for the cases that read it.
let typedOnly: ReturnType<typeof report> | undefined;
const typed = () => (typedOnly ??= report('typed-only', '', ''));
// Code the harness keeps and runs later (a function stored by the model, run by name): no tool path reaches it.
const STORED = 'def run_stored(source: str) -> None:\n    exec(source, {})\n';

describe('typed tools and C3 strength', () => {
  it('tools that take only their own typed parameters, none a file or fetch tool: S L3, and each checks its own arguments: C L2', async () => {
    expect((await typed()).criteria.find((c) => c.id === 'C3')!.levels).toMatchObject({ S: 3, C: 2 });
  });

  it('one tool that runs the model\'s command string keeps S at L0', async () => {
    const shell = 'def run_shell(command: str) -> str:\n    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout\n';
    expect(await c3('typed-and-shell', shell, ', "run_shell": run_shell')).toMatchObject({ S: 0, C: 0 });
  });

  it('a call that runs code chosen at run time, even one no tool path reaches, keeps S at L1 (the closed set of actions), not L3', async () => {
    // A path the model could not be followed to may hide behind that call: no credit for narrow
    // tools, only for a model whose every traced action is a typed one.
    expect(await c3('typed-and-stored', STORED, '')).toMatchObject({ S: 1, C: 1 });
  });

  it('nothing the model could write persists (no memory store, no write tool): C6 S L2, not the provenance of L3', async () => {
    expect((await typed()).criteria.find((c) => c.id === 'C6')!.levels.S).toBe(2);
  });
});
