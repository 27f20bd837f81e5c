import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP client's interactive mode, where the person types the tool and its arguments at a prompt
 * (`line = input("tool> ")`, then `session.call_tool(name, args)` with both taken from the line): the
 * prompt is the person's own request, not an approval of a call someone else made, so the call
 * stands unasked. The same call after a yes/no question about it is asked.
 */
const files = (approve: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "mcpc"\nversion = "0.1.0"\ndependencies = ["mcp", "openai"]\n\n[project.scripts]\nmcpc = "mcpc.main:main"\n',
  'mcpc/__init__.py': '',
  'mcpc/main.py': `import asyncio
import json

from mcp import ClientSession
from openai import OpenAI

client = OpenAI()


def summarise(text: str) -> str:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": text}])
    return reply.choices[0].message.content or ""


async def repl(session: ClientSession) -> None:
    while True:
        line = input("tool> ")
        if not line.strip():
            continue
        name, _, rest = line.partition(" ")
        args = json.loads(rest) if rest else {}
${approve ? `        answer = input(f"Call {name} with {args}? [y/N] ")
        if answer.lower() != "y":
            continue
` : ''}        result = await session.call_tool(name, args)
        print(summarise(str(result)))


def main() -> None:
    asyncio.run(repl(ClientSession(None, None)))
`,
});

const chat: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "mcpchat"\nversion = "0.1.0"\ndependencies = ["mcp", "openai"]\n\n[project.scripts]\nmcpchat = "mcpchat.main:main"\n',
  'mcpchat/__init__.py': '',
  'mcpchat/main.py': `import asyncio
import json

from mcp import ClientSession
from openai import OpenAI

client = OpenAI()


async def chat(session: ClientSession) -> None:
    messages = []
    while True:
        line = input("you> ")
        if not line.strip():
            continue
        messages.append({"role": "user", "content": line})
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=[])
        for call in reply.choices[0].message.tool_calls or []:
            result = await session.call_tool(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": str(result)})


def main() -> None:
    asyncio.run(chat(ClientSession(None, None)))
`,
};

const extensionCall = async (name: string, approve: boolean) => {
  const report = await audit(writeTree(name, files(approve)), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.find((t) => t.construct === 'extension call')!;
};

describe('a call the person types at a prompt', () => {
  it('is the person’s request: the prompt is no approval', async () => {
    expect((await extensionCall('mcpc', false)).gated).toBe(false);
  });

  it('the person’s next chat message is no approval of the calls the model then makes', async () => {
    const report = await audit(writeTree('mcpchat', chat), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.construct === 'extension call')!.gated).toBe(false);
  });

  it('a yes/no question about the call before it is one', async () => {
    expect((await extensionCall('mcpc-ask', true)).gated).toBe(true);
  });
});
