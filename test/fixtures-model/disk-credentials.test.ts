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

const c8b = async (name: string, extra: string, entries: string) =>
  (await audit(writeTree(name, toolLoopAgent('credbot', { extra, entries })), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C8')!.levels.B;

describe('C8 B with a host shell whose environment is cleared', () => {
  it('is still broad: the shell reads credential files on disk (L0)', async () => {
    expect(await c8b('cleared-shell', SHELL, ', "run_shell": run_shell')).toBe(0);
  });

  it('with no host shell at all, only the harness\'s own keys are reachable (above L0)', async () => {
    expect(await c8b('no-shell', '', '')).toBeGreaterThan(0);
  });

  it('covers the variables only: C1 C L1 ("one path narrowed"), not the L2 of built-ins that carry no credentials', async () => {
    const report = await audit(writeTree('cleared-shell-c1', toolLoopAgent('credbot', { extra: SHELL, entries: ', "run_shell": run_shell' })), { rubricDir: RUBRIC, factsCache: false });
    expect(report.criteria.find((c) => c.id === 'C1')!.levels).toMatchObject({ S: 1, C: 1 });
  });

  it('reaches the stores with nobody asked: C6 C L0 ("no store protected"), not L1', async () => {
    const report = await audit(writeTree('cleared-shell-c6', toolLoopAgent('credbot', { extra: SHELL, entries: ', "run_shell": run_shell' })), { rubricDir: RUBRIC, factsCache: false });
    expect(report.criteria.find((c) => c.id === 'C6')!.levels.C).toBe(0);
  });
});
