import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * C4 S L1 is a subprocess with lists of what it refuses. A shell tool on the host that refuses any
 * program not on its list of allowed ones (`if program not in ALLOWED_COMMANDS: return …`) is
 * that: a list stands between the model's command and the host, which is no isolation (L2 and up).
 */
const shell = (check: string) => `import shlex

ALLOWED_COMMANDS = {"ls", "cat", "git", "python"}


def shell(cmd: str) -> str:
${check}    return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout
`;
const c4 = async (name: string, check: string) => {
  const tree = toolLoopAgent('lister', { extra: shell(check), entries: ', "shell": shell' });
  const report = await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C4')!.levels;
};

describe('a host shell tool behind a list of allowed programs', () => {
  it('is C4 S L1: a list, not isolation', async () => {
    const check = ['    program = shlex.split(cmd)[0]', '    if program not in ALLOWED_COMMANDS:', '        return f"refused: {program}"', ''].join('\n');
    expect((await c4('lister-allowlist', check)).S).toBe(1);
  });

  it('is C4 S L0 without the check', async () => {
    expect((await c4('lister-open', '')).S).toBe(0);
  });
});
