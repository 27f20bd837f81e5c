import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * An ask met only on a way that never reaches the tool is no gate before it: a branch that asks
 * (deleting a saved session, say) and then always returns, before the agent loop runs the model's
 * commands. An ask whose refusal alone returns (`if not confirm(cmd): return`), nested under a
 * branch, still stands before the step.
 */
const agent = (beforeLoop: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "waysh"\nversion = "0.1.0"\n[project.scripts]\nwaysh = "waysh.main:main"\n',
  'waysh/__init__.py': '',
  'waysh/main.py': `import argparse
import json
import os
import subprocess
import sys
from openai import OpenAI

SPECS = [{"type": "function", "function": {"name": "run_shell", "parameters": {"type": "object"}}}]


def delete_session(path):
    if input(f"Delete the saved session {path}? [y/N] ").strip().lower() != "y":
        return 1
    os.remove(path)
    return 0


def run_shell(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--delete-session")
    parser.add_argument("--mode", default="ask")
    args = parser.parse_args()
    client = OpenAI()
${beforeLoop}
${chatToolLoop('SPECS', 'run_shell(**json.loads(call.function.arguments))')}
`,
});

async function shellStatus(name: string, beforeLoop: string) {
  const run = await auditDetailed(writeTree(name, agent(beforeLoop)), { rubricDir: RUBRIC, factsCache: false });
  const tools = run.report.agent?.tools ?? [];
  return { status: tools.find((t) => t.reaches.includes('exec'))?.status, cap: run.report.criteria.find((c) => c.id === 'C2')!.cap };
}

describe('an ask on a way that never reaches the tool', () => {
  it('a branch that asks and always returns before the loop does not gate the shell', async () => {
    const o = await shellStatus('ask-elsewhere', '    if args.delete_session:\n        print("deleting")\n        return delete_session(args.delete_session)');
    expect(o.status).toBe('ungated');
    expect(o.cap).toBe(0.25);
  });

  it('an ask whose refusal alone returns, nested under a branch, still gates the shell', async () => {
    const o = await shellStatus('ask-nested', '    if args.mode == "ask":\n        if input("Let the model run shell commands? [y/N] ").strip().lower() != "y":\n            return 1');
    expect(o.status).toBe('gated');
    expect(o.cap).toBeNull();
  });
});
