import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, refusal, writeTree } from '../helpers.js';

/**
 * A Python harness that wraps each tool's function in a permission helper of its own before
 * offering it: the wrapper prints the call, waits for y/n on `input()` and only then calls the
 * function it was given. Written as a decorator or as a wrapper applied in the tool list, the ask
 * stands before every call the model makes. A wrapper that only logs asks nobody.
 */
const wrapper = (asks: boolean) => `import subprocess
from functools import wraps


def with_permission(action):
    def decorator(func):
        @wraps(func)
        def wrapper(*args, **kwargs):
            print(f"About to {action}:", args, kwargs)
${asks ? `            res = input("Execute this? (y/n): ").lower().strip()
            if res == "y":
                return func(*args, **kwargs)
            return "cancelled"` : '            return func(*args, **kwargs)'}
        return wrapper
    return decorator
`;
const functions = (decorated: boolean) => ['run a command', 'write a file'].map((action, i) => `
${decorated ? `@with_permission("${action}")\n` : ''}def ${i ? 'write_file(path: str, text: str)' : 'run_shell(command: str)'} -> str:
    "${action}"
${i ? '    with open(path, "w") as f:\n        f.write(text)\n    return path' : '    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout'}
`).join('\n');
const harness = (tools: string) => ({
  'pyproject.toml': '[project]\nname = "sage"\nversion = "0.1.0"\ndependencies = ["chatlib"]\n',
  'sage/__init__.py': '',
  'sage/tools.py': tools,
  'sage/main.py': `from chatlib import Chat

from sage.tools import tools


def main(query: str) -> None:
    chat = Chat(model="some-model", sp="You are helpful", tools=tools)
    print(chat(query, max_steps=10))
`,
});
const listed = (asks: boolean) => harness(`${wrapper(asks)}\n${functions(false)}\n\ntools = [with_permission("run a command")(run_shell), with_permission("write a file")(write_file)]\n`);
const decorated = harness(`${wrapper(true)}\n${functions(true)}\n\ntools = [run_shell, write_file]\n`);

async function gates(name: string, files: Record<string, string>) {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t.paths.map((p) => p.gated)]));
  const c2 = report.criteria.find((c) => c.id === 'C2')!;
  return { tools, c2Cap: c2.cap != null, c2S: c2.dimensions.S.level };
}

describe('a tool wrapped in an asking helper of the harness', () => {
  it('is gated by the wrapper listed around it', async () => {
    const got = await gates('sage-listed', listed(true));
    expect(got.tools).toEqual({ run_shell: [true], write_file: [true] });
    expect(got.c2Cap).toBe(false);
    expect(got.c2S).toBeGreaterThanOrEqual(2);
  });

  it('is gated by the decorator on its definition', async () => {
    const got = await gates('sage-decorated', decorated);
    expect(got.tools).toEqual({ run_shell: [true], write_file: [true] });
    expect(got.c2Cap).toBe(false);
  });

  it('is not gated by a wrapper that only logs the call', async () => {
    const got = await gates('sage-logged', listed(false));
    expect(got.tools).toEqual({ run_shell: [false], write_file: [false] });
    expect(got.c2Cap).toBe(true);
  });

  it('reads a chat client built with the model and its tools as the model call', async () => {
    // The tools come from a library here: the chat client is the only sign of an agent.
    const files = { ...harness(''), 'sage/main.py': `from chatlib import Chat\nfrom chatlib.tools import view_file\n\n\ndef main(query: str) -> None:\n    chat = Chat(model="some-model", sp="You are helpful", tools=[view_file])\n    print(chat(query))\n` };
    expect(await refusal('sage-client', files)).toBeNull();
  });
});
