import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A code-generation agent written with Windows line ends (CRLF): the model's reply is cut into a
 * code block, handed to a helper and run with `exec`. The line-by-line tracing of the reply must
 * see the same agent as with plain line ends (before, a CRLF Python agent showed no code runner),
 * and what the report cites carries no carriage return.
 */
const files: Record<string, string> = {
  'coder/__init__.py': '',
  'coder/executor.py': `class CodeExecutor:
    def execute(self, code, data=None):
        return self._execute_local(code, data)

    def _execute_local(self, code, data=None):
        scope = {"data": data}
        exec(code, scope)
        return scope["data"]
`,
  'coder/agent.py': `import re
from openai import OpenAI
from coder.executor import CodeExecutor

client = OpenAI()


class Agent:
    def __init__(self):
        self.executor = CodeExecutor()

    def generate_code(self, task):
        reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": task}])
        text = reply.choices[0].message.content
        return re.search(r"\`\`\`python\\n(.*?)\`\`\`", text, re.S).group(1)

    def converse(self, task):
        code = self.generate_code(task)
        return self.executor.execute(code)


if __name__ == "__main__":
    Agent().converse(input("> "))
`,
};

const crlf = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).map(([p, t]) => [p, t.replace(/\n/g, '\r\n')]));

const seen = async (name: string, tree: Record<string, string>) => {
  const report = await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false });
  return {
    runners: report.agent!.tools.filter((t) => t.construct === 'code runner').map((t) => ({ name: t.name, reaches: t.reaches, sinks: t.paths.map((p) => `${p.sink.path}:${p.sink.line} ${p.sink.text}`) })),
    levels: report.criteria.map((c) => c.levels),
    json: JSON.stringify(report),
  };
};

describe('a Python agent with Windows line ends', () => {
  it('shows the same code runners, on the same lines, as with plain line ends', async () => {
    const plain = await seen('crlf-plain', files);
    const windows = await seen('crlf-windows', crlf(files));
    expect(plain.runners.map((r) => r.name)).toContain('_execute_local');
    expect(plain.runners.find((r) => r.name === '_execute_local')).toMatchObject({ reaches: ['exec'], sinks: ['coder/executor.py:7 exec(code, scope)'] });
    expect(windows.runners).toEqual(plain.runners);
    expect(windows.levels).toEqual(plain.levels);
  });

  it('cites its lines without a carriage return', async () => {
    const { json } = await seen('crlf-cited', crlf(files));
    expect(json).toContain('exec(code, scope)');
    expect(json).not.toContain('\\r');
  });
});
