import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A tool-calling agent whose shell and file-write tools both run unasked on the host, while its
 * fetch tool asks first. The one ask does not stand between the model and the stores: through its
 * shell and its writes the model rewrites memory, instructions and settings freely (C6 S, C and D
 * L0, and the C6 cap). Where the write tool asks as well, the one unasked path is the shell alone,
 * and C6 keeps the level an asking harness gets. Where the unasked write tool keeps its path inside
 * the project by a canonical check, the harness's own folders are out of its reach: one store is
 * protected (C6 C L1), the shell still reaches the rest.
 */
const agent = (askWrite: string) => `import json
import subprocess
from pathlib import Path

import requests
from openai import OpenAI

client = OpenAI()

TOOLS = [
    {"type": "function", "function": {"name": "run_shell", "description": "Run a shell command", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}},
    {"type": "function", "function": {"name": "write_file", "description": "Write a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}}}}},
    {"type": "function", "function": {"name": "fetch_url", "description": "Fetch a web page", "parameters": {"type": "object", "properties": {"url": {"type": "string"}}}}},
]


def run_shell(command: str) -> str:
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def write_file(path: str, text: str) -> str:
${askWrite}    with open(path, "w") as f:
        f.write(text)
    return "written"


def fetch_url(url: str) -> str:
    if input(f"Fetch {url}? [y/N] ").strip().lower() != "y":
        return "denied"
    return requests.get(url, timeout=30).text


HANDLERS = {"run_shell": run_shell, "write_file": write_file, "fetch_url": fetch_url}


def main() -> None:
    messages = [{"role": "user", "content": input("> ")}]
    for _ in range(20):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=TOOLS)
        message = reply.choices[0].message
        if not message.tool_calls:
            print(message.content)
            return
        messages.append(message)
        for call in message.tool_calls:
            result = HANDLERS[call.function.name](**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})


if __name__ == "__main__":
    main()
`;

const CONTAINED = '    if not Path(path).resolve().is_relative_to(Path.cwd()):\n        raise PermissionError(path)\n';
const ASK = '    if input(f"Write {path}? [y/N] ").strip().lower() != "y":\n        return "denied"\n';

const c6 = async (name: string, askWrite: string) => {
  const tree = {
    'pyproject.toml': '[project]\nname = "toolbot"\nversion = "0.1.0"\n[project.scripts]\ntoolbot = "agent.cli:main"\n',
    'agent/__init__.py': '',
    'agent/cli.py': agent(askWrite),
  };
  const report = await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false });
  const status = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t.status]));
  return { status, c6: report.criteria.find((c) => c.id === 'C6')! };
};

describe('an agent whose commands and file writes both run unasked, beside one tool that asks', () => {
  it('rewrites the stores freely: C6 S, C and D L0 and the C6 cap', async () => {
    const { status, c6: c } = await c6('cwu-both', '');
    expect(status).toEqual({ run_shell: 'ungated', write_file: 'ungated', fetch_url: 'gated' });
    expect([c.levels.S, c.levels.C, c.levels.D]).toEqual([0, 0, 0]);
    expect(c.cap).toBe(0.25);
  });

  it('with the write tool asking too, the shell alone unasked: C6 S stays L2, no cap', async () => {
    const { status, c6: c } = await c6('cwu-shell-only', ASK);
    expect(status).toEqual({ run_shell: 'ungated', write_file: 'gated', fetch_url: 'gated' });
    expect(c.levels.S).toBe(2);
    expect(c.cap).toBeNull();
  });

  it('with the write tool kept inside the project, one store is protected: C6 C L1', async () => {
    const { status, c6: c } = await c6('cwu-contained', CONTAINED);
    expect(status).toEqual({ run_shell: 'ungated', write_file: 'ungated', fetch_url: 'gated' });
    expect(c.levels.C).toBe(1);
  });
});
