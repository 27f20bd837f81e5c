import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A toolkit whose methods are offered to the model by a bare `@function` decorator of its own
 * (function calling, as npi names it): each is a tool, and the one that writes a file shows it,
 * unasked. A serverless platform's `@app.function()` deploys a function; it offers nothing.
 */
const files = {
  'pyproject.toml': '[project]\nname = "kit"\nversion = "0.1.0"\ndependencies = ["openai", "modal"]\n',
  'kit/__init__.py': '',
  'kit/decorators.py': `import functools


def function(fn=None, *, description=None):
    def wrap(f):
        f.__tool__ = {"name": f.__name__, "description": description or f.__doc__}
        return f
    return wrap(fn) if fn else wrap
`,
  'kit/notes.py': `from kit.decorators import function


class Notes:
    @function
    def save_note(self, path: str, text: str) -> str:
        """Save a note to a file."""
        with open(path, "w") as f:
            f.write(text)
        return path

    @function(description="Count words")
    def count_words(self, text: str) -> int:
        return len(text.split())
`,
  'kit/deploy.py': `import modal

app = modal.App("kit")


@app.function()
def nightly_cleanup(path: str) -> None:
    with open(path, "w") as f:
        f.write("")
`,
  'kit/agent.py': `import inspect

from openai import OpenAI

from kit.notes import Notes


def run(task: str) -> str:
    notes = Notes()
    tools = [m.__tool__ for _, m in inspect.getmembers(notes) if hasattr(m, "__tool__")]
    reply = OpenAI().chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": task}], tools=tools)
    call = reply.choices[0].message.tool_calls[0]
    return getattr(notes, call.function.name)(**call.function.arguments)
`,
};

describe('a bare @function decorator', () => {
  it('offers the method to the model; a deployment decorator offers nothing', async () => {
    const report = await audit(writeTree('kit', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = new Map(report.agent!.tools.map((t) => [t.name, t]));
    expect(tools.get('save_note')?.reaches).toEqual(['write']);
    expect(tools.get('save_note')?.paths.every((p) => !p.gated)).toBe(true);
    expect(tools.has('count_words')).toBe(true);
    expect(tools.has('nightly_cleanup')).toBe(false);
  });
});
