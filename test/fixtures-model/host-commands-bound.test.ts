import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * C10 C L3 is every surface bounded, background work included. Where the model's shell runs on
 * the host, the loop's step cap bounds the commands only if each call times out, a stop kills
 * what is still running, and each command is put to the user first: a step-capped loop whose
 * commands have only one of the first two is L2, and so is one whose commands run unasked (a
 * command can leave work running in the background that nothing reaches).
 */
const shell = (body: string) => `import os
import signal

MAX_STEPS = 10


def shell(cmd: str) -> str:
${body}
`;
const c10 = async (name: string, body: string) => {
  const tree = toolLoopAgent('stepper', { extra: shell(body), entries: ', "shell": shell' });
  // The loop's cap, named: `for _ in range(MAX_STEPS)`.
  tree['stepper/main.py'] = tree['stepper/main.py']!.replace('for _ in range(10):', 'for _ in range(MAX_STEPS):');
  const report = await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C10')!.levels;
};

describe('a step-capped loop whose shell runs on the host', () => {
  const bounded = [
    '    proc = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE, text=True, start_new_session=True)',
    '    try:',
    '        return proc.communicate(timeout=60)[0]',
    '    except KeyboardInterrupt:',
    '        os.killpg(os.getpgid(proc.pid), signal.SIGTERM)',
    '        raise',
  ];

  it('with a per-call timeout, a kill of the process group on Stop and an ask before each command: C10 C L3', async () => {
    const asked = ['    if input(f"Run {cmd}? [y/N] ").strip().lower() != "y":', '        return "refused"', ...bounded].join('\n');
    expect((await c10('stepper-asked', asked)).C).toBe(3);
  });

  it('with a per-call timeout and a kill on Stop, but commands run unasked: C10 C L2', async () => {
    expect((await c10('stepper-unasked', bounded.join('\n'))).C).toBe(2);
  });

  it('with a per-call timeout only: nothing stops what a command leaves running, C10 C L2', async () => {
    expect((await c10('stepper-timeout', '    return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout')).C).toBe(2);
  });
});
