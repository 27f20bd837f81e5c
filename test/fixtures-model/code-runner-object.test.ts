import { describe, expect, it } from 'vitest';
import { codeBoxTool, scoredAgent as scored, searchAgent } from './search-agent.js';

/**
 * A code runner object handed the model's code (`self.codebox.run(code)`, `sandbox.runCode(code)`)
 * runs it, whatever library stands behind the object: the tool reaches a command, and with nobody
 * asked the C2 and C4 caps fire.
 */
describe('a code runner object handed the model code', () => {
  it('Python: the tool reaches a command, unasked: C1 L0 and the C2 and C4 caps', async () => {
    const { c1, caps, tools } = await scored('codebox-py', searchAgent(codeBoxTool, 'from codebox_lib import CodeBox\n\ncodebox = CodeBox()'));
    expect(tools.find((t) => t.name === 'extra_tool')?.reaches).toEqual(['exec']);
    expect(c1).toMatchObject({ S: 0, C: 0, D: 0 });
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('Python: the same object given a fixed string is no command (the control)', async () => {
    const tree = searchAgent(codeBoxTool.replace('codebox.run(code)', 'codebox.run("print(1)")'), 'from codebox_lib import CodeBox\n\ncodebox = CodeBox()');
    const { tools } = await scored('codebox-py-fixed', tree);
    expect(tools.find((t) => t.name === 'extra_tool')?.reaches).toEqual([]);
  });

  it('TypeScript: `sandbox.runCode(code)` in a tool reaches a command', async () => {
    const { tools } = await scored('codebox-ts', {
      'package.json': '{"name":"runner-demo","version":"1.0.0","type":"module"}\n',
      'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { makeRunner } from 'some-runner-lib';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
const sandbox = makeRunner();

server.registerTool('run_python', { description: 'Run Python code', inputSchema: { code: z.string() } }, async ({ code }) => {
  const out = await sandbox.runCode(code);
  return { content: [{ type: 'text', text: String(out) }] };
});
`,
    });
    expect(tools.map((t) => [t.name, t.reaches])).toEqual([['run_python', ['exec']]]);
  });
});
