import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { pyToolLoop } from './support.js';

/**
 * A Python workflow platform: a workflow step class whose base holds the word "Tool" inside its
 * name (`IToolLibNode`, the interface of the node that runs a stored function) runs the stored
 * code when the workflow reaches it, not when the model asks; beside it, two model tools whose
 * bases are named as tools (`BaseTool`, `ToolBase`). Only the two are tools.
 */
const FILES: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "flowkb"\nversion = "0.1.0"\ndependencies = ["openai"]\n\n[project.scripts]\nflowkb = "flowkb.main:start"\n',
  'flowkb/__init__.py': '',
  'flowkb/nodes.py': `import subprocess


class IToolLibNode:
    def execute(self, code: str, params: dict) -> str:
        raise NotImplementedError


class BaseToolLibNode(IToolLibNode):
    def execute(self, code: str, params: dict) -> str:
        return subprocess.run(["python", "-c", code], capture_output=True, text=True).stdout
`,
  'flowkb/tools.py': `import subprocess
import urllib.request


class BaseTool:
    name = ""

    def run(self, arg: str) -> str:
        raise NotImplementedError


class ToolBase:
    name = ""

    def run(self, arg: str) -> str:
        raise NotImplementedError


class Shell(BaseTool):
    name = "shell"

    def run(self, arg: str) -> str:
        return subprocess.run(arg, shell=True, capture_output=True, text=True).stdout


class Fetch(ToolBase):
    name = "fetch"

    def run(self, arg: str) -> str:
        return urllib.request.urlopen(arg).read().decode()


TOOLS = {"shell": Shell(), "fetch": Fetch()}
`,
  'flowkb/main.py': `import json
import sys

from openai import OpenAI

from flowkb.nodes import BaseToolLibNode
from flowkb.tools import TOOLS


def run_workflow(steps: list[dict]) -> list[str]:
    node = BaseToolLibNode()
    return [node.execute(step["code"], step["params"]) for step in steps]


${pyToolLoop('TOOLS[call.function.name].run(json.loads(call.function.arguments)["arg"])')}

def start() -> None:
    run_workflow(json.load(open("workflow.json")))
    main()
`,
};

describe('a workflow node class whose base only holds the word Tool', () => {
  it('is no tool; classes on bases named as tools are', async () => {
    const report = await audit(writeTree('flowkb', FILES), { rubricDir: RUBRIC, factsCache: false });
    const names = report.agent!.tools.map((t) => t.name).sort();
    expect(names).toContain('shell');
    expect(names).toContain('fetch');
    expect(names.some((n) => /ToolLibNode/.test(n))).toBe(false);
  });
});
