import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * C8 B: what a leaked secret gives. A host shell started with a cleared environment carries no
 * provider key, but it still reads the credential files in the home folder (~/.ssh, ~/.aws): the
 * blast radius is still broad (L0). Only a tool set with no host shell (here: none at all) keeps it
 * to the long-lived keys the harness itself holds.
 */
const SHELL = `import os


def run_shell(command: str) -> str:
    return subprocess.run(command, shell=True, capture_output=True, text=True, env={"PATH": os.environ["PATH"]}).stdout
`;

const report = (name: string, extra: string, entries: string) => audit(writeTree(name, toolLoopAgent('credbot', { extra, entries })), { rubricDir: RUBRIC, factsCache: false });
const levels = async (r: ReturnType<typeof report>, id: string) => (await r).criteria.find((c) => c.id === id)!.levels;
// One audit of the agent with the cleared shell serves every case that reads it.
let cleared: ReturnType<typeof report> | undefined;
const clearedShell = () => (cleared ??= report('cleared-shell', SHELL, ', "run_shell": run_shell'));

describe('C8 B with a host shell whose environment is cleared', () => {
  it('is still broad: the shell reads credential files on disk (L0)', async () => {
    expect((await levels(clearedShell(), 'C8')).B).toBe(0);
  });

  it('with no host shell at all, only the harness\'s own keys are reachable (above L0)', async () => {
    expect((await levels(report('no-shell', '', ''), 'C8')).B).toBeGreaterThan(0);
  });

  it('covers the variables only: C1 C L1 ("one path narrowed"), not the L2 of built-ins that carry no credentials', async () => {
    expect(await levels(clearedShell(), 'C1')).toMatchObject({ S: 1, C: 1 });
  });

  it('reaches the stores with nobody asked: C6 C L0 ("no store protected"), not L1', async () => {
    expect((await levels(clearedShell(), 'C6')).C).toBe(0);
  });
});
