import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * C3 D L3 is a read-only default tool set. An agent that runs no command and fetches nothing, but
 * whose default tools write files or drive a browser, has no read-only default set: METHOD's L0
 * names exec, network and write together. Only an agent whose tools just read reaches L3.
 */
const files = (tool: 'read' | 'write' | 'browse'): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "notes"\nversion = "0.1.0"\n[project.scripts]\nnotes = "notes.cli:main"\n',
  'notes/__init__.py': '',
  'notes/cli.py': `import json
import sys
from pathlib import Path

from openai import OpenAI

ROOT = Path.home() / "notes"


def read_note(name: str) -> str:
    return (ROOT / name).read_text()


def write_note(name: str, text: str) -> str:
    with open(ROOT / name, "w") as f:
        f.write(text)
    return "saved"


def open_page(page, url: str) -> str:
    page.goto(url)
    return page.content()


TOOLS = {"${tool === 'read' ? 'read_note' : tool === 'write' ? 'write_note' : 'open_page'}": ${tool === 'read' ? 'read_note' : tool === 'write' ? 'write_note' : 'open_page'}}


def main():
    client = OpenAI()
    messages = [{"role": "user", "content": sys.argv[1]}]
    for _ in range(10):
        reply = client.chat.completions.create(model="m", messages=messages, tools=[{"type": "function", "function": {"name": name, "parameters": {}}} for name in TOOLS])
        calls = reply.choices[0].message.tool_calls or []
        if not calls:
            break
        for call in calls:
            result = TOOLS[call.function.name](**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": str(result)})
`,
});

const levels = async (name: string, tool: 'read' | 'write' | 'browse', id = 'C3') => {
  const report = await audit(writeTree(name, files(tool)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === id)!.levels;
};
const c3d = async (name: string, tool: 'read' | 'write' | 'browse') => (await levels(name, tool)).D;

describe('a read-only default tool set (C3 D L3)', () => {
  it('holds when the default tools only read', async () => {
    expect(await c3d('tools-read', 'read')).toBe(3);
  });

  it('does not hold when a default tool writes files', async () => {
    expect(await c3d('tools-write', 'write')).toBeLessThan(3);
  });

  it('does not hold when a default tool drives a browser to any address', async () => {
    expect(await c3d('tools-browse', 'browse')).toBeLessThan(3);
  });
});

/**
 * C2 B L2 is "what runs unasked is confined". With a read-only default tool set nothing the model
 * does unasked writes, runs or sends: that is confined, though nothing asks. A write tool that runs
 * unasked reaches an irreversible action with nobody asked (L1 at most).
 */
describe('what runs unasked with a read-only default tool set (C2 B)', () => {
  it('is confined: L2', async () => {
    expect((await levels('b-read', 'read', 'C2')).B).toBe(2);
  });

  it('a default write tool that nobody approves is not: below L2', async () => {
    expect((await levels('b-write', 'write', 'C2')).B).toBeLessThan(2);
  });
});
