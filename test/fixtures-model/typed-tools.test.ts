import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * C3 S L0 is "raw shell string, raw URL, raw path, unvalidated". An agent whose tools are typed
 * actions (each takes its own parameters, none runs a command string or code the model wrote) is
 * past it: L1. The same agent with one tool that hands the model's string to a shell is not.
 */
const agent = (extra: string, entry: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "typedbot"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'typedbot/__init__.py': '',
  'typedbot/main.py': `import json
import subprocess

from openai import OpenAI

client = OpenAI()


def get_weather(city: str) -> str:
    return f"sunny in {city}"


def get_time(zone: str) -> str:
    return f"noon in {zone}"

${extra}

TOOLS = {"get_weather": get_weather, "get_time": get_time${entry}}


def run(task: str) -> str:
    messages = [{"role": "user", "content": task}]
    for _ in range(10):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=[])
        message = reply.choices[0].message
        if not message.tool_calls:
            return message.content
        for tool_call in message.tool_calls:
            result = TOOLS[tool_call.function.name](**json.loads(tool_call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
    return ""


if __name__ == "__main__":
    import sys

    run(sys.argv[1])
`,
});

const report = (name: string, extra: string, entry: string) => audit(writeTree(name, agent(extra, entry)), { rubricDir: RUBRIC, factsCache: false });
const c3 = async (name: string, extra: string, entry: string) => (await report(name, extra, entry)).criteria.find((c) => c.id === 'C3')!.levels;
// Code the harness keeps and runs later (a function stored by the model, run by name): no tool path reaches it.
const STORED = 'def run_stored(source: str) -> None:\n    exec(source, {})\n';

describe('typed tools and C3 strength', () => {
  it('tools that take only their own typed parameters are past "raw and unvalidated": S L1', async () => {
    expect(await c3('typed-only', '', '')).toMatchObject({ S: 1, C: 1 });
  });

  it('one tool that runs the model\'s command string keeps S at L0', async () => {
    const shell = 'def run_shell(command: str) -> str:\n    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout\n';
    expect((await c3('typed-and-shell', shell, ', "run_shell": run_shell')).S).toBe(0);
  });

  it('a call that runs code chosen at run time, even one no tool path reaches, keeps S at L0', async () => {
    expect((await c3('typed-and-stored', STORED, '')).S).toBe(0);
  });
});

describe('nothing to isolate', () => {
  it('an agent that runs no code it wrote has C4 S L2, C L3, D L4, each saying so', async () => {
    const c4 = (await report('typed-no-exec', '', '')).criteria.find((c) => c.id === 'C4')!;
    expect(c4.levels).toMatchObject({ S: 2, C: 3, D: 4 });
    expect(c4.dimensions.S.means).toMatch(/no model-written code runs/);
    expect(c4.cap).toBeNull();
  });

  it('with a call that runs code chosen at run time somewhere in it, isolation is not taken as moot', async () => {
    const c4 = (await report('typed-stored-exec', STORED, '')).criteria.find((c) => c.id === 'C4')!;
    expect(c4.levels).toMatchObject({ S: 0, C: 0, D: 0 });
  });
});
