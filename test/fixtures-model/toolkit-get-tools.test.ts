import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { pyToolLoop } from './support.js';

/**
 * A toolkit class that offers its methods to the model by returning each wrapped as a tool from
 * its `get_tools` (`return [FunctionTool(self.shell_exec), …]`), as agent frameworks' toolkits do.
 * Each wrapped method is a tool: the shell one runs the model's command on the host with nobody
 * asked (C2 and C4 caps). The same list returned from a method of another name is no list of tools.
 */
const files = (method: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "kit"\nversion = "0.1.0"\ndependencies = ["openai"]\n\n[project.scripts]\nkit = "kit.main:main"\n',
  'kit/__init__.py': '',
  'kit/toolkit.py': `import subprocess


class FunctionTool:
    def __init__(self, func):
        self.func = func
        self.name = func.__name__

    def __call__(self, **kwargs):
        return self.func(**kwargs)


class TerminalToolkit:
    def shell_exec(self, command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout

    def shell_view(self, path: str) -> str:
        with open(path) as f:
            return f.read()

    def ${method}(self):
        return [
            FunctionTool(self.shell_exec),
            FunctionTool(self.shell_view),
        ]
`,
  'kit/main.py': `import json
import sys

from openai import OpenAI

from kit.toolkit import TerminalToolkit

TOOLS = {t.name: t for t in TerminalToolkit().${method}()}


${pyToolLoop('TOOLS[call.function.name](**json.loads(call.function.arguments))')}`,
});

const capped = (r: Awaited<ReturnType<typeof audit>>) => r.criteria.filter((c) => c.cap !== null).map((c) => c.id);

describe("a toolkit's get_tools", () => {
  it('offers each method it wraps as a tool: the shell runs unasked, C2 and C4 caps', async () => {
    const report = await audit(writeTree('kit', files('get_tools')), { rubricDir: RUBRIC, factsCache: false });
    const shell = report.agent!.tools.find((t) => t.name === 'shell_exec')!;
    expect(shell.construct).toBe('tool-list');
    expect(shell.status).toBe('ungated');
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('is no list of tools when another method returns them (what calls them is read on its own)', async () => {
    const report = await audit(writeTree('kit', files('list_functions')), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.filter((t) => t.construct === 'tool-list')).toEqual([]);
  });
});
