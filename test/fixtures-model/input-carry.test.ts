import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Python agent with a notes tool and a shell tool. `save_note` fills a list of path parts from
 * the model's note name (`parts.append(name)`) and writes there: the model directs that write,
 * while `touch_log` writes where the code chose (listed, asked of no gate); the note tool then runs
 * the user's hook commands (`run_hook(hook["command"], text)`), which it is handed, not the model's
 * (own-exec: listed, asked of no gate). The shell tool
 * goes through a module-level instance (`runner = ShellRunner()` in `services/runner.py`, imported
 * by name), whose `run` two other classes also define, and it asks first. With `save_note` left
 * out, nothing runs unasked that the model directs: no C2 cap.
 */
function agent(withSave: boolean, withTask = false): Record<string, string> {
  return {
    'pyproject.toml': '[project]\nname = "gitpal"\nversion = "0.1.0"\ndependencies = ["openai"]\n\n[project.scripts]\ngitpal = "gitpal.cli:main"\n',
    'gitpal/__init__.py': '',
    'gitpal/services/__init__.py': '',
    'gitpal/ui/__init__.py': '',
    'gitpal/ui/spinner.py': 'class Spinner:\n    def run(self, label: str) -> None:\n        print(label)\n',
    'gitpal/ui/progress.py': 'class Progress:\n    def run(self, total: int) -> None:\n        print(total)\n',
    'gitpal/hooks.py': `import json
import os
import subprocess

HOOKS = json.load(open(os.path.expanduser("~/.gitpal/hooks.json")))


def run_hook(command: str, payload: str) -> None:
    subprocess.run(command, shell=True, input=payload, text=True)


def fire(event: str, payload: str) -> None:
    for hook in HOOKS.get(event, []):
        run_hook(hook["command"], payload)
`,
    'gitpal/services/runner.py': `import subprocess


class ShellRunner:
    def run(self, command: str) -> str:
        if input(f"Run {command}? [y/N] ").strip().lower() != "y":
            return "declined"
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


runner = ShellRunner()
`,
    'gitpal/tools.py': `import os

from openai import pydantic_function_tool

from .hooks import fire, run_hook

NOTES: list = []
from .services.runner import runner


def touch_log() -> str:
    """Mark the session log."""
    with open(os.path.expanduser("~/.gitpal/session.log"), "a") as f:
        f.write("mark\\n")
    return "ok"


def save_note(name: str, text: str) -> str:
    """Save a note."""
    parts = [os.path.expanduser("~/notes")]
    parts.append(name)
    with open(os.path.join(*parts), "w") as f:
        f.write(text)
    fire("note_saved", text)
    return "saved"


def shell(command: str) -> str:
    """Run a shell command after asking."""
    return runner.run(command)


def run_task(command: str) -> str:
    """Run a task command."""
    run_hook(command, "")
    return "done"


def matches(condition: str, note: dict) -> bool:
    return eval(condition, {}, note)


def find_notes(term: str) -> list:
    """Find notes by name."""
    return [n for n in NOTES if matches(f"name == '{term}'", n)]


TOOLS = {"touch_log": touch_log, ${withSave ? '"save_note": save_note, ' : ''}${withTask ? '"run_task": run_task, "find_notes": find_notes, ' : ''}"shell": shell}
`,
    'gitpal/cli.py': `import json

from openai import OpenAI

from .tools import TOOLS
from .ui.progress import Progress
from .ui.spinner import Spinner


def main() -> None:
    Spinner().run("thinking")
    Progress().run(1)
    client = OpenAI()
    messages = [{"role": "user", "content": input("> ")}]
    reply = client.chat.completions.create(model="gpt-5", messages=messages)
    for call in reply.choices[0].message.tool_calls or []:
        print(TOOLS[call.function.name](**json.loads(call.function.arguments)))
`,
  };
}

async function audit(name: string, withSave: boolean, withTask = false) {
  const run = await auditDetailed(writeTree(name, agent(withSave, withTask)), { rubricDir: RUBRIC, factsCache: false, force: true });
  const tools = Object.fromEntries((run.report.agent?.tools ?? []).map((t) => [t.name, `${t.status} ${t.reaches.join(',')}`]));
  const capped = run.report.criteria.filter((c) => c.cap !== null).map((c) => c.id);
  return { tools, capped };
}

describe('what carries a tool’s input', () => {
  it('a list filled from the input carries it; an imported instance runs its class’s method', async () => {
    const o = await audit('gitpal-save', true);
    // The hook command the note tool hands on comes from the user's settings, not the model: no C4 cap.
    expect(o.tools).toEqual({ touch_log: 'no-reach own-write', save_note: 'ungated own-exec,write', shell: 'gated exec' });
    expect(o.capped).toContain('C2');
    expect(o.capped).not.toContain('C4');
  });

  it('without the write the model directs, nothing runs unasked: no C2 cap', async () => {
    const o = await audit('gitpal-log', false);
    expect(o.tools).toEqual({ touch_log: 'no-reach own-write', shell: 'gated exec' });
    expect(o.capped).not.toContain('C2');
  });

  it('the same hook runner handed the model’s command runs it, as an evaluated condition built from the input does: the caps fire', async () => {
    const o = await audit('gitpal-task', false, true);
    expect(o.tools).toEqual({ touch_log: 'no-reach own-write', run_task: 'ungated exec', find_notes: 'ungated exec', shell: 'gated exec' });
    expect(o.capped).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});
