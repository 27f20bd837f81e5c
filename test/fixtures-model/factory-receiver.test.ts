import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * A method called on what a factory of the repository's own handed back (`runner =
 * create_runner(kind)`, then `runner.run(cmd)`) is looked for in the factory's folder first, where
 * such objects come from: among the `run` methods product code uses, the one beside the factory is
 * the path. Called through a function not named as a factory, the call stays unresolved.
 */
const agent = (factory: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "facto"\nversion = "0.1.0"\n[project.scripts]\nfacto = "facto.main:main"\n',
  'facto/__init__.py': '',
  'facto/runners/__init__.py': '',
  'facto/runners/factory.py': `from facto.runners.shell import ShellRunner


def ${factory}(kind):
    return ShellRunner(kind)
`,
  'facto/runners/shell.py': `import subprocess


class ShellRunner:
    def __init__(self, kind):
        self.kind = kind

    def run(self, command):
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
`,
  'facto/jobs/queue.py': `class Job:
    def run(self, payload):
        return payload
`,
  'facto/jobs/timer.py': `class Timer:
    def run(self, seconds):
        return seconds * 2
`,
  'facto/main.py': `import json
import sys
from openai import OpenAI

from facto.jobs.queue import Job
from facto.jobs.timer import Timer
from facto.runners.factory import ${factory}

SPECS = [{"type": "function", "function": {"name": "run_shell", "parameters": {"type": "object"}}}]


def run_shell(command):
    runner = ${factory}("bash")
    return runner.run(command)


def housekeeping():
    return Job().run({}), Timer().run(1)


TOOLS = {"run_shell": run_shell}


def main():
    client = OpenAI()
${chatToolLoop('SPECS', 'TOOLS[call.function.name](**json.loads(call.function.arguments))')}
`,
});

async function reaches(name: string, factory: string) {
  const run = await auditDetailed(writeTree(name, agent(factory)), { rubricDir: RUBRIC, factsCache: false });
  return run.report.agent?.tools.find((t) => t.name === 'run_shell')?.reaches;
}

describe("a method called on a factory's product", () => {
  it("resolves in the factory's folder, so the tool reaches the shell", async () => {
    expect(await reaches('factory-create', 'create_runner')).toEqual(['exec']);
  });

  it('through a function not named as a factory, the method stays unresolved', async () => {
    expect(await reaches('factory-plain', 'runner_for')).toEqual([]);
  });
});
