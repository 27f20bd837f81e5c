import { appendFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { ROOT, RUBRIC } from '../helpers.js';

/**
 * py-no-exec-agent gives the model two web tools and nothing that runs a command. Here it also
 * has a `settings` subcommand that opens the settings file in the desktop's opener through a
 * shell. The command is built from the object's own path: none of its function's input reaches
 * it, so the model's output cannot, and it is no code runner (no C2, C4 or C6 cap). The same
 * opener given an argument its callers choose is one (the tool cannot tell who fills it), and so
 * is a fixed command that starts an interpreter on a script file.
 */
function withOpener(method: string) {
  const dir = join(mkdtempSync(join(tmpdir(), 'own-command-')), 'scout');
  cpSync(join(ROOT, 'fixtures', 'py-no-exec-agent'), dir, { recursive: true });
  writeFileSync(
    join(dir, 'scout', 'settings.py'),
    `import os
import subprocess
import sys


class SettingsFile:
    def __init__(self, path: str):
        self.path = path

    def opener(self) -> str:
        return ("open " if sys.platform == "darwin" else "xdg-open ") + self.path

${method}

def edit_settings(extra=""):
    SettingsFile(os.path.expanduser("~/.scout/settings.toml")).open_in_editor(extra)
`,
  );
  appendFileSync(join(dir, 'scout', 'cli.py'), '\n\n@click.command()\n@click.argument("extra")\ndef settings(extra):\n    from .settings import edit_settings\n\n    edit_settings(extra)\n');
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}
const runners = (r: Awaited<ReturnType<typeof audit>>) => r.agent!.tools.filter((t) => t.construct === 'code runner').map((t) => t.name);
const capped = (r: Awaited<ReturnType<typeof audit>>) => r.criteria.filter((c) => c.cap !== null).map((c) => c.id);

describe('a shell command the harness builds itself', () => {
  it('is no code runner when no input of its function reaches it', async () => {
    const report = await withOpener('    def open_in_editor(self, extra=""):\n        command = self.opener()\n        subprocess.run(command, shell=True)\n');
    expect(runners(report)).toEqual([]);
    expect(capped(report)).toEqual([]);
  });

  it('is no code runner when it hands a shell a command string of its own (`sh -c`)', async () => {
    const report = await withOpener('    def open_in_editor(self, extra=""):\n        subprocess.run(["sh", "-c", self.opener()])\n');
    expect(runners(report)).toEqual([]);
  });

  it('is no code runner when it hands Windows\' shell a command string of its own (`cmd /c`)', async () => {
    const report = await withOpener('    def open_in_editor(self, extra=""):\n        subprocess.run("cmd /c start " + self.path, shell=True)\n');
    expect(runners(report)).toEqual([]);
  });

  it('is a code runner once an argument of its function reaches the command', async () => {
    const report = await withOpener('    def open_in_editor(self, extra=""):\n        command = self.opener() + " " + extra\n        subprocess.run(command, shell=True)\n');
    expect(runners(report)).toEqual(['open_in_editor']);
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('is a code runner when it starts an interpreter on a script, which the model may have written', async () => {
    const report = await withOpener('    def open_in_editor(self, extra=""):\n        command = "bash " + os.path.expanduser("~/.scout/hook.sh")\n        subprocess.run(command, shell=True)\n');
    expect(runners(report)).toEqual(['open_in_editor']);
  });
});

/**
 * The same agent as one project of a monorepo, beside a setup wizard of its own (another
 * pyproject) that installs extras through a shell. No call connects the wizard to the agent: its
 * command is no code runner, even though it passes its caller's argument on. Called from the
 * agent's own command line, the same function is one.
 */
function monorepo(agentCalls: boolean) {
  const root = mkdtempSync(join(tmpdir(), 'monorepo-'));
  cpSync(join(ROOT, 'fixtures', 'py-no-exec-agent'), join(root, 'agent'), { recursive: true });
  mkdirSync(join(root, 'setup', 'wizard'), { recursive: true });
  writeFileSync(join(root, 'setup', 'pyproject.toml'), '[project]\nname = "scout-setup"\nversion = "0.1.0"\n\n[project.scripts]\nscout-setup = "wizard.main:main"\n');
  writeFileSync(
    join(root, 'setup', 'wizard', 'main.py'),
    'import subprocess\nimport sys\n\n\ndef run_installer(command):\n    subprocess.run(command, shell=True)\n\n\ndef main():\n    run_installer(" ".join(["npx", "skills", "add"] + sys.argv[1:]))\n',
  );
  if (agentCalls) appendFileSync(join(root, 'agent', 'scout', 'cli.py'), '\n\n@click.command()\n@click.argument("name")\ndef extras(name):\n    from wizard.main import run_installer\n\n    run_installer("npx skills add " + name)\n');
  return audit(root, { rubricDir: RUBRIC, factsCache: false });
}

describe('a shell command in another project of the repository', () => {
  it('is no code runner when no call connects it to the project that calls the model', async () => {
    const report = await monorepo(false);
    expect(runners(report)).toEqual([]);
    expect(capped(report)).toEqual([]);
  });

  it('is a code runner once the agent project calls it', async () => {
    expect(runners(await monorepo(true))).toEqual(['run_installer']);
  });
});

