import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Python harness whose tools are branches of one dispatcher (`if name == "write_file": …`), called
 * from the loop over the model's tool calls. In one variant that loop asks the user before each
 * call (through a helper of the harness's own) and leaves it on a no; in the other the only prompt
 * is the chat loop's read of the next message, before the model is called.
 */
const files = (askInLoop: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "branchy"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'branchy/tools.py': `import json
from pathlib import Path

TOOLS = [{"type": "function", "function": {"name": "write_file", "parameters": {"type": "object"}}}]


def dispatch(name, args):
    if name == "write_file":
        Path(args["path"]).write_text(args["content"])
        return "written"
    return "unknown tool"
`,
  'branchy/ui.py': `def confirm_call(name, args):
    answer = input(f"Run {name} with {args}? [y/N] ")
    return answer.strip().lower() == "y"
`,
  'branchy/loop.py': `import json
from openai import OpenAI

from branchy.tools import TOOLS, dispatch
from branchy.ui import confirm_call

client = OpenAI()


def handle(message, history):
    for call in message.tool_calls:
        args = json.loads(call.function.arguments)
${askInLoop ? '        if not confirm_call(call.function.name, args):\n            break\n' : ''}        result = dispatch(call.function.name, args)
        history.append({"role": "tool", "tool_call_id": call.id, "content": result})


def get_user_input():
    return input("You: ")


def main():
    history = []
    while True:
        text = get_user_input()
        if text == "exit":
            break
        history.append({"role": "user", "content": text})
        reply = client.chat.completions.create(model="gpt-4o", messages=history, tools=TOOLS)
        message = reply.choices[0].message
        if message.tool_calls:
            handle(message, history)


if __name__ == "__main__":
    main()
`,
});

describe("a dispatcher's branch called from the loop over the model's tool calls", () => {
  it('is gated by an ask in that loop that leaves it on a no', async () => {
    const report = await audit(writeTree('branchy-ask', files(true)), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'write_file');
    expect(tool && { construct: tool.construct, reaches: tool.reaches, gated: tool.gated, gate: tool.paths[0]!.gate?.site.link }).toEqual({
      construct: 'dispatch-branch',
      reaches: ['write'],
      gated: true,
      gate: 'branchy/loop.py#L13',
    });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it("is not gated by the chat loop's prompt for the next message", async () => {
    const report = await audit(writeTree('branchy-chat', files(false)), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'write_file');
    expect(tool && { reaches: tool.reaches, gated: tool.gated }).toEqual({ reaches: ['write'], gated: false });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
