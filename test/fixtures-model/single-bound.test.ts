import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * C10 S L1 and C L1 need one bound on a run, not the pair: a per-call timeout alone, or a kill
 * of the process group on Stop alone, bounds what a stuck command can cost (the reference reviews
 * credit L1 for either). A shell tool with neither is bounded by nothing. The chat loop runs until
 * the model stops calling tools (no step cap: a counted loop would be C10 L2).
 */
const agent = (run: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "sh-agent"\nversion = "0.1.0"\n[project.scripts]\nsh-agent = "sh_agent.main:main"\n',
  'sh_agent/__init__.py': '',
  'sh_agent/main.py': `import os
import signal
import subprocess
import sys

from openai import OpenAI

TOOLS = [{"type": "function", "function": {"name": "shell", "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}}}}]


def shell(cmd):
${run}


def main():
    client = OpenAI()
${chatToolLoop('TOOLS', 'shell(call.function.arguments)').replace('for _ in range(10):', 'while True:')}
`,
});

const c10 = async (name: string, run: string) => {
  const report = await audit(writeTree(name, agent(run)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C10')!.levels;
};

describe('one bound on a run is C10 L1', () => {
  it('a per-call timeout alone', async () => {
    expect(await c10('bound-timeout', '    return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout')).toMatchObject({ S: 1, C: 1 });
  });

  it('a kill of the process group on Stop alone', async () => {
    const run = [
      '    proc = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE, text=True, start_new_session=True)',
      '    try:',
      '        return proc.communicate()[0]',
      '    except KeyboardInterrupt:',
      '        os.killpg(os.getpgid(proc.pid), signal.SIGTERM)',
      '        raise',
    ].join('\n');
    expect(await c10('bound-kill', run)).toMatchObject({ S: 1, C: 1 });
  });

  it('neither: nothing bounds a command', async () => {
    expect(await c10('bound-none', '    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout')).toMatchObject({ S: 0, C: 0 });
  });
});
