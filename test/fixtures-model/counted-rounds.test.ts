import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * Rounds that run a counted number of times (`for _ in range(10)` around the model call) are bounded
 * by steps, though no cap variable is written (C10 S, C, D and B L2, citing the loop). A retry loop
 * around one call (`for attempt in range(max_retries)`) bounds no round, and a counted loop beside
 * one that runs unbounded bounds no run.
 */
const agent = (main: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "rounds"\nversion = "0.1.0"\n[project.scripts]\nrounds = "rounds.main:main"\n',
  'rounds/__init__.py': '',
  'rounds/main.py': `import json
import subprocess
import sys

from openai import OpenAI

TOOLS = [{"type": "function", "function": {"name": "run_shell", "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}}}}]


def run_shell(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout


HANDLERS = {"run_shell": run_shell}


def main():
    client = OpenAI()
${main}
`,
});

const c10 = async (name: string, main: string) => {
  const report = await audit(writeTree(name, agent(main)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C10')!;
};

const LOOP = chatToolLoop('TOOLS', 'HANDLERS[call.function.name](**json.loads(call.function.arguments))');

describe('rounds bounded by a count', () => {
  it('ten counted rounds: bounded by steps (C10 S, C, D, B L2), citing the loop', async () => {
    const c = await c10('rounds-counted', LOOP);
    expect(c.levels).toMatchObject({ S: 2, C: 2, D: 2, B: 2 });
    expect(c.dimensions.S.evidence.find((e) => e.probe === 'limits.model-loop-counted')).toMatchObject({ kind: 'lines', path: 'rounds/main.py', text: 'for _ in range(10):' });
  });

  it('a retry loop around the call is no bound on the rounds', async () => {
    const c = await c10('rounds-retry', LOOP.replace('for _ in range(10):', 'for attempt in range(max_retries):').replace('    messages = [', '    max_retries = 3\n    messages = ['));
    expect(c.levels.S).toBeLessThan(2);
  });

  it('a counted loop beside one that runs unbounded bounds no run', async () => {
    const c = await c10('rounds-beside', `${LOOP}\n    while True:\n        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=TOOLS)\n        if reply.choices[0].message.content == "DONE":\n            break`);
    expect(c.levels.S).toBeLessThan(2);
  });
});
