import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Two agents with no tool construct that run what the model wrote, each through a file:
 * - a script agent writes the fenced script of the reply to a temporary file and starts its own
 *   virtualenv's interpreter on it (`[python_executable, path]`), unasked unless a switch that ships
 *   off is turned on;
 * - a code-generation loop writes the reply to the user's source file, then runs the user's test
 *   command, which runs that code.
 * Both are code runners the model drives, unasked, so the C2 and C4 caps fire. The same loop that
 * asks before the test run gates it; one that runs a fixed command of its own (`git add`) after the
 * write runs nothing the model wrote.
 */
const scriptAgent = {
  'pyproject.toml': '[project]\nname = "scripter"\nversion = "0.1.0"\n[project.scripts]\nscripter = "scripter.main:main"\n',
  'scripter/__init__.py': '',
  'scripter/llm.py': `from litellm import completion


class Client:
    def __init__(self):
        self.messages = []

    def get_script(self):
        response = completion(model="gpt-4o", messages=self.messages)
        text = response.choices[0].message.content
        parts = text.split("\`\`\`")
        return parts[0], (parts[1] if len(parts) > 2 else "")
`,
  'scripter/run.py': `import subprocess
import tempfile
from pathlib import Path

VENV = Path.home() / ".scripter" / "venv"


def python_path():
    return str(VENV / "bin" / "python")


def run_script(script):
    python_executable = python_path()
    with tempfile.NamedTemporaryFile(mode="w", suffix=".py", delete=False) as tmp:
        tmp.write(script)
        name = tmp.name
    proc = subprocess.Popen([python_executable, name], stdout=subprocess.PIPE, text=True)
    out, _ = proc.communicate()
    return out
`,
  'scripter/main.py': `from scripter.llm import Client
from scripter.run import run_script

CONFIRM = False


def main():
    client = Client()
    while True:
        client.messages.append({"role": "user", "content": input("> ")})
        message, script = client.get_script()
        if script:
            if CONFIRM and input("Run it? (Y/n) ").strip().lower() == "n":
                continue
            print(run_script(script))
        else:
            print(message)
`,
};

const loop = (between: string, command: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'iterate', version: '1.0.0', bin: { iterate: 'dist/cli.js' }, dependencies: { openai: '^4.0.0', execa: '^9.0.0' } }),
  'src/generate.ts': `import OpenAI from 'openai';

const client = new OpenAI();

export async function generate(prompt: string, code: string): Promise<string> {
  const res = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt + code }] });
  return res.choices[0].message.content ?? '';
}
`,
  'src/output.ts': `import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function outputFile(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}
`,
  'src/check.ts': `import { execaCommand } from 'execa';

export async function check(options: { testCommand: string }): Promise<boolean> {
  const result = await execaCommand(${command}, { shell: true, reject: false });
  return result.exitCode === 0;
}
`,
  'src/ask.ts': `import { createInterface } from 'node:readline/promises';

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(question + ' [y/N] ');
  rl.close();
  return answer.trim().toLowerCase() === 'y';
}
`,
  'src/cli.ts': `import { check } from './check';
import { confirm } from './ask';
import { generate } from './generate';
import { outputFile } from './output';

export async function run(options: { prompt: string; outputFile: string; testCommand: string }) {
  for (let i = 0; i < 10; i++) {
    const code = await generate(options.prompt, '');
    await outputFile(options.outputFile, code);
${between}
    if (await check(options)) return code;
  }
  return null;
}
`,
});

const runners = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const found = report.agent!.tools.filter((t) => t.construct === 'code runner');
  const cap = (id: string) => report.criteria.find((c) => c.id === id)!.cap;
  return { found, c2: cap('C2'), c4: cap('C4') };
};

describe('code the model wrote, run through a file', () => {
  it('finds an interpreter held in a variable started on the reply written to a file', async () => {
    const { found, c2, c4 } = await runners('script-agent', scriptAgent);
    expect(found.map((t) => [t.name, t.status])).toEqual([['run_script', 'ungated']]);
    expect(found[0]!.site.path).toBe('scripter/run.py');
    expect(c2).not.toBeNull();
    expect(c4).not.toBeNull();
  });

  it("finds the user's test command run after the reply was written to the source file", async () => {
    const { found, c2, c4 } = await runners('write-then-test', loop('', 'options.testCommand'));
    expect(found.map((t) => [t.name, t.status])).toEqual([['check', 'ungated']]);
    expect(c2).not.toBeNull();
    expect(c4).not.toBeNull();
  });

  it('reads the test run as gated when the loop asks between the write and the run', async () => {
    const { found } = await runners('write-ask-test', loop("    if (!(await confirm('Run the tests?'))) continue;", 'options.testCommand'));
    expect(found.map((t) => [t.name, t.status])).toEqual([['check', 'gated']]);
  });

  it("takes no fixed command of the harness's own after the write for a runner", async () => {
    const { found } = await runners('write-then-git', loop('', "'git add --all'"));
    expect(found).toEqual([]);
  });
});
