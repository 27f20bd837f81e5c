import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * Built-in tools that each refuse some values of their own input (a program off the list, a path
 * outside the project, a URL that is not https) check their own arguments: with three or more
 * such tools C3 C reaches L2; one or two checked tools are L1 ("one tool").
 */
/** Each tool: its parameters, the check that refuses some values, and what it does. */
const TOOLS: Record<string, [string, string, string]> = {
  run_shell: ['command', '    if command.split()[0] not in ALLOWED:\n        return "Error: command not allowed"', '    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout'],
  write_file: ['path, content', '    if not os.path.abspath(path).startswith(ROOT):\n        raise ValueError("outside the project")', '    with open(path, "w") as f:\n        f.write(content)\n    return "ok"'],
  fetch_url: ['url', '    if not url.startswith("https://"):\n        raise ValueError("https only")', '    return requests.get(url, timeout=10).text'],
  delete_file: ['path', '', '    os.remove(path)\n    return "deleted"'],
};

const agent = (checked: string[]): Record<string, string> => {
  const names = Object.keys(TOOLS);
  const defs = names.map((n) => {
    const [params, check, act] = TOOLS[n]!;
    return `def ${n}(${params}):\n${checked.includes(n) ? `${check}\n` : ''}${act}\n`;
  });
  return {
    'pyproject.toml': '[project]\nname = "checky"\nversion = "0.1.0"\n[project.scripts]\nchecky = "checky.main:main"\n',
    'checky/__init__.py': '',
    'checky/main.py': `import json
import os
import subprocess
import sys

import requests
from openai import OpenAI

ALLOWED = {"ls", "cat", "git"}
ROOT = os.getcwd()


${defs.join('\n\n')}

TOOLS = {${names.map((n) => `"${n}": ${n}`).join(', ')}}
SPECS = [${names.map((n) => `{"type": "function", "function": {"name": "${n}", "parameters": {"type": "object"}}}`).join(', ')}]


def main():
    client = OpenAI()
${chatToolLoop('SPECS', 'TOOLS[call.function.name](**json.loads(call.function.arguments))')}
`,
  };
};

async function c3(name: string, checked: string[]) {
  const run = await auditDetailed(writeTree(name, agent(checked)), { rubricDir: RUBRIC, factsCache: false });
  const c = run.report.criteria.find((x) => x.id === 'C3')!;
  return { C: c.levels.C, wide: run.results.get('model.arg-check-wide')!.findings.map((f) => `${f.path}:${f.startLine}`) };
}

describe('tools that check their own arguments', () => {
  it('three checked tools: the built-ins check their own arguments (C3 C L2), each check linked', async () => {
    const o = await c3('checky-three', ['run_shell', 'write_file', 'fetch_url']);
    expect(o.C).toBe(2);
    expect(o.wide).toHaveLength(3);
  });

  it('two checked tools: one tool checks (C3 C L1)', async () => {
    const o = await c3('checky-two', ['run_shell', 'write_file']);
    expect(o.C).toBe(1);
    expect(o.wide).toEqual([]);
  });
});
