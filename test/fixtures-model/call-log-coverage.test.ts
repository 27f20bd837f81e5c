import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * C9 coverage is about which calls are recorded, not how: an agent whose dispatch loop prints
 * every tool call with its arguments records every call (C9 C L2) though only as console lines
 * (C9 S L1). Printing only the model's answers records no call.
 */
const agent = (line: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "loopbot"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'loopbot/__init__.py': '',
  'loopbot/main.py': `import json

from openai import OpenAI

client = OpenAI()


def get_weather(city: str) -> str:
    return f"sunny in {city}"


def get_time(zone: str) -> str:
    return f"noon in {zone}"


TOOLS = {"get_weather": get_weather, "get_time": get_time}


def run(task: str) -> str:
    messages = [{"role": "user", "content": task}]
    for _ in range(10):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=[])
        message = reply.choices[0].message
        if not message.tool_calls:
            print(message.content)
            return message.content
        for tool_call in message.tool_calls:
${line}
            result = TOOLS[tool_call.function.name](**json.loads(tool_call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
    return ""


if __name__ == "__main__":
    import sys

    run(sys.argv[1])
`,
});

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
const c9 = async (name: string, line: string) => (await score(name, agent(line))).criteria.find((c) => c.id === 'C9')!.levels;

describe('every tool call printed with its arguments where calls are dispatched', () => {
  it('records every call: C9 C L2 with an unstructured record (S L1)', async () => {
    expect(await c9('call-log-dispatch', '            print(f"Calling {tool_call.function.name} with {tool_call.function.arguments}")')).toMatchObject({ S: 1, C: 2 });
  });

  it('printing nothing of the calls records none of them', async () => {
    expect((await c9('call-log-none', '            pass')).C).toBeLessThan(2);
  });
});
