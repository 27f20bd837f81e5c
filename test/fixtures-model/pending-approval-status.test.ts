import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A chat client that hands the model's tool calls to its MCP servers through a manager of its own,
 * whose method shares the client library's name (`callTool` calling `client.callTool(…)`). Each
 * call is first given a status: one the user has not allowed waits as "pending approval" for the
 * UI's answer, and only the running ones go to the servers. That status is the ask; without it
 * every call goes straight to the servers.
 */
const TS = (ask: boolean): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'notes-chat', version: '1.0.0', main: 'dist/main.js', dependencies: { '@modelcontextprotocol/sdk': '1.17.0', openai: '4.80.0' } }),
  'src/mcp/manager.ts': `import { Client } from '@modelcontextprotocol/sdk/client/index.js';

export class McpManager {
  private clients = new Map<string, Client>();
  private allowed = new Map<string, Set<string>>();

  isToolExecutionAllowed(name: string, conversationId: string): boolean {
    return this.allowed.get(conversationId)?.has(name) ?? false;
  }

  allowForConversation(name: string, conversationId: string): void {
    const set = this.allowed.get(conversationId) ?? new Set<string>();
    set.add(name);
    this.allowed.set(conversationId, set);
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<string> {
    const [server, tool] = name.split('__');
    const client = this.clients.get(server!);
    if (!client) return 'no such server';
    const result = await client.callTool({ name: tool!, arguments: args });
    return JSON.stringify(result.content);
  }
}
`,
  'src/chat/responder.ts': `import OpenAI from 'openai';
import { McpManager } from '../mcp/manager';

export enum CallStatus {
  PendingApproval = 'pending_approval',
  Running = 'running',
  Done = 'done',
}

type Call = { id: string; name: string; args: Record<string, unknown>; status: CallStatus; result?: string };

export class Responder {
  private openai = new OpenAI();
  calls: Call[] = [];

  constructor(private mcp: McpManager, private conversationId: string) {}

  async run(messages: OpenAI.ChatCompletionMessageParam[]): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const reply = await this.openai.chat.completions.create({ model: 'gpt-4o', messages });
      const requested = reply.choices[0]!.message.tool_calls ?? [];
      if (!requested.length) return;
      const calls: Call[] = requested.map((c) => ({
        id: c.id,
        name: c.function.name,
        args: JSON.parse(c.function.arguments),
        status: ${ask ? 'this.mcp.isToolExecutionAllowed(c.function.name, this.conversationId) ? CallStatus.Running : CallStatus.PendingApproval' : 'CallStatus.Running'},
      }));
      this.calls.push(...calls);
      for (const call of calls.filter((c) => c.status === CallStatus.Running)) {
        call.result = await this.mcp.callTool(call.name, call.args);
        call.status = CallStatus.Done;
        messages.push({ role: 'tool', tool_call_id: call.id, content: call.result });
      }
      if (calls.some((c) => c.status === CallStatus.PendingApproval)) return;
    }
  }
}
`,
});

/** The same in Python: the pending call is a record with a status the UI answers. */
const PY = (ask: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "notes-chat"\nversion = "0.1.0"\ndependencies = ["mcp", "openai"]\n\n[project.scripts]\nnotes-chat = "notes_chat.responder:main"\n',
  'notes_chat/__init__.py': '',
  'notes_chat/manager.py': `from mcp import ClientSession


class McpManager:
    def __init__(self):
        self.sessions: dict[str, ClientSession] = {}
        self.allowed: set[str] = set()

    def is_allowed(self, name):
        return name in self.allowed

    async def call_tool(self, name, args):
        server, tool = name.split("__", 1)
        session = self.sessions[server]
        result = await session.call_tool(tool, args)
        return str(result.content)
`,
  'notes_chat/responder.py': `import asyncio
import json

from openai import OpenAI

from notes_chat.manager import McpManager

client = OpenAI()


async def respond(manager, messages, pending):
    for _ in range(3):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages)
        calls = reply.choices[0].message.tool_calls or []
        if not calls:
            return
        for call in calls:
            args = json.loads(call.function.arguments)
${ask ? '            if not manager.is_allowed(call.function.name):\n                pending.append({"id": call.id, "name": call.function.name, "args": args, "status": "pending_approval"})\n                continue\n' : ''}            result = await manager.call_tool(call.function.name, args)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
        if pending:
            return


def main():
    asyncio.run(respond(McpManager(), [{"role": "user", "content": input("> ")}], []))
`,
});

describe.each([
  ['TypeScript (an enum status in a ternary)', TS],
  ['Python (a record with a status string)', PY],
])('a chat client whose tool calls wait in a pending-approval status: %s', (_lang, files) => {
  it.each([
    ['finds the extension call behind the manager method named like the library one, gated by the status', true, 'gated'],
    ['without the status every call goes to the servers unasked', false, 'ungated'],
  ] as const)('%s', async (_title, ask, status) => {
    const { tools } = await auditTools(`pending-status-${status}`, files(ask));
    const ext = Object.values(tools).find((t) => t.construct === 'extension call');
    expect(ext, Object.keys(tools).join(', ')).toBeDefined();
    expect(ext!.status).toBe(status);
  });
});
