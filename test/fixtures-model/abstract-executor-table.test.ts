import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Python agent that looks the model's function up in a table named `funcs`, built in a function
 * from the methods of an executor it is handed (typed by an abstract base class). The base class's
 * methods are abstract (their bodies only `pass`); the one implementation in the same package runs
 * a shell command with the model's text. The table is the tool list, and each entry's handler is the
 * implementation that does something, not the abstract method.
 */
const BASE = `from abc import ABC, abstractmethod


class Executor(ABC):
    @abstractmethod
    def run_command(self, command: str) -> str:
        pass

    @abstractmethod
    def tap(self, x: int, y: int) -> bool:
        pass
`;

const LOCAL = `import subprocess

from . import Executor


class LocalExecutor(Executor):
    def run_command(self, command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout

    def tap(self, x: int, y: int) -> bool:
        print(f"tap at {x},{y}")
        return True
`;

const TASK = `import json

from openai import OpenAI

from .executor import Executor
from .executor.local import LocalExecutor

client = OpenAI()


def get_function(name: str, executor: Executor):
    funcs = {
        "run_command": executor.run_command,
        "tap": executor.tap,
    }
    func = funcs.get(name)
    if func is None:
        raise ValueError(f"No such function: {name}")
    return func


def run(task: str) -> None:
    executor = LocalExecutor()
    messages = [{"role": "user", "content": task}]
    for _ in range(20):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages)
        for call in reply.choices[0].message.tool_calls or []:
            func = get_function(call.function.name, executor)
            func(**json.loads(call.function.arguments))


if __name__ == "__main__":
    run("open the settings")
`;

describe('a table named `funcs` of an abstract executor\'s methods', () => {
  it('offers each entry as a tool whose handler is the implementation that acts', async () => {
    const { tools, caps } = await auditTools('abstract-executor-table', { 'pyproject.toml': '[project]\nname = "phone-agent"\n', 'agent/__init__.py': '', 'agent/executor/__init__.py': BASE, 'agent/executor/local.py': LOCAL, 'agent/task.py': TASK });
    expect(tools['run_command']).toMatchObject({ construct: 'dispatch-map', status: 'ungated', handler: { path: 'agent/executor/local.py' } });
    expect(tools['run_command']?.reaches).toContain('exec');
    expect(tools['tap']?.handler?.path).toBe('agent/executor/local.py');
    expect(caps).toContain('C2');
  });
});
