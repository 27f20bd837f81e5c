import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A CLI that asks before it runs the command the model suggested, and ships inside its package a
 * sample function module that runs commands unasked. No product code imports the sample: an
 * opt-in command copies it into a user folder. A definition nothing uses decides nothing, so no
 * C2 or C4 cap fires for it. Imported by the CLI, or loaded from the package's own folder at run
 * time, it is used, and the caps fire.
 */
const cli = (extra = '') => `import os
import subprocess
import sys
${extra}

def ask(command):
    answer = input(f"Run {command}? [y/N] ")
    return answer.strip().lower() == "y"


def run_command(command):
    if not ask(command):
        return
    os.system(command)


def main():
    reply = complete(sys.argv[1])
    run_command(reply)


def complete(prompt):
    from openai import OpenAI
    return OpenAI().chat.completions.create(model="m", messages=[{"role": "user", "content": prompt}]).choices[0].message.content


if __name__ == "__main__":
    main()
`;
const sample = `import subprocess

from pydantic import BaseModel, Field


class Function(BaseModel):
    """Executes a shell command and returns its output."""

    shell_command: str = Field(..., description="Shell command to execute.")

    @classmethod
    def execute(cls, shell_command: str) -> str:
        process = subprocess.Popen(shell_command, shell=True, stdout=subprocess.PIPE)
        output, _ = process.communicate()
        return output.decode()

    @classmethod
    def openai_schema(cls):
        return {"type": "function", "function": {"name": "execute_shell_command", "parameters": {}}}
`;
// Functions are loaded from a folder and called by the name the model gives, with no ask. The
// shipped loader reads the user's own folder, which a fresh install leaves empty.
const loader = (folder: string) => `import importlib.util
import os
import pathlib


def load_functions():
    out = {}
    for path in ${folder}.glob("*.py"):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out[module.Function.openai_schema()["function"]["name"]] = module.Function
    return out


def call_function(name, args):
    return load_functions()[name].execute(**args)
`;
const USER_FOLDER = 'pathlib.Path(os.path.expanduser("~/.asker/functions"))';
const tree = (cliText: string, folder = USER_FOLDER) => ({
  'pyproject.toml': '[project]\nname = "asker"\nversion = "0.1.0"\n[project.scripts]\nasker = "asker.cli:main"\n',
  'asker/__init__.py': '',
  'asker/cli.py': cliText,
  'asker/functions.py': loader(folder),
  'asker/bundled/__init__.py': '',
  'asker/bundled/shell_sample.py': sample,
});
const withCalls = (extra = '') => cli(`from asker.functions import call_function\n${extra}`).replace('def main():', 'def chat(reply):\n    return call_function("execute_shell_command", {"shell_command": reply})\n\n\ndef main():\n    if sys.argv[1] == "--chat":\n        return chat(complete(sys.argv[2]))');

const caps = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.filter((c) => c.cap !== null && c.cap !== undefined && ['C2', 'C4'].includes(c.id)).map((c) => c.id);
};

describe('a sample module no product code imports', () => {
  it('decides nothing: no C2 or C4 cap for its unasked shell, and the Limitations say why', async () => {
    expect(await caps('asker-sample', tree(withCalls()))).toEqual([]);
    const report = await audit(writeTree('asker-sample-notes', tree(withCalls())), { rubricDir: RUBRIC, factsCache: false });
    expect(report.limitations).toContain('Not counted, as no product code imports or runs them: 1 Python module (asker/bundled/shell_sample.py).');
  });

  it('counts once the CLI imports it', async () => {
    expect(await caps('asker-imported', tree(withCalls('from asker.bundled.shell_sample import Function as ShellFunction\nTOOLS = [ShellFunction]\n')))).toEqual(['C2', 'C4']);
  });

  it('counts when a loader names its folder (import_module(f"bundled.{name}"))', async () => {
    const files = tree(withCalls());
    files['asker/functions.py'] = files['asker/functions.py']!.replace(
      /def load_functions\(\):[\s\S]*?return out\n/,
      'def load_functions():\n    out = {}\n    for name in os.listdir(os.path.join("asker", "bundled")):\n        module = importlib.import_module(f"asker.bundled.{name[:-3]}")\n        out[module.Function.openai_schema()["function"]["name"]] = module.Function\n    return out\n',
    );
    expect(files['asker/functions.py']).toContain('import_module(f"asker.bundled.');
    expect(await caps('asker-named-folder', files)).toEqual(['C2', 'C4']);
  });

  it('counts when the package loads its own modules at run time', async () => {
    expect(await caps('asker-own-folder', tree(withCalls(), 'pathlib.Path(__file__).parent / "bundled"'))).toEqual(['C2', 'C4']);
  });
});
