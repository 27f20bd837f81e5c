import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { ROOT, RUBRIC } from '../helpers.js';

/**
 * py-reply-runner hands the commands parsed from the model's reply to subprocess.run with nobody
 * asked (its own expectations: an ungated code runner, C2 and C4 caps). The same harness with an
 * ask between the reply and the command is gated; one that runs a command from its settings and
 * only prints the reply has no code runner at all.
 */
function variant(edit: (runner: string) => string) {
  const dir = join(mkdtempSync(join(tmpdir(), 'reply-runner-')), 'helm');
  cpSync(join(ROOT, 'fixtures', 'py-reply-runner'), dir, { recursive: true });
  const file = join(dir, 'helm', 'agents', 'runner.py');
  const text = readFileSync(file, 'utf8');
  const edited = edit(text);
  expect(edited).not.toBe(text);
  writeFileSync(file, edited);
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}
const capped = (report: Awaited<ReturnType<typeof audit>>) => report.criteria.filter((c) => c.cap !== null).map((c) => c.id);
/** The reply's commands reach a command sink with nobody asked, and the C2 and C4 caps fire. */
function expectUngatedRunner(report: Awaited<ReturnType<typeof audit>>) {
  const runner = report.agent!.tools.find((t) => t.name === 'run_commands')!;
  expect({ reaches: runner.reaches, gated: runner.gated }).toEqual({ reaches: ['exec'], gated: false });
  expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
  return runner;
}

describe('a command taken from the model reply', () => {
  it('is gated by an ask between the reply and the command, which shows the command', async () => {
    const report = await variant((t) =>
      t.replace('        for command in commands:\n', '        for command in commands:\n            if input(f"Run {command}? [y/N] ").strip().lower() != "y":\n                continue\n'),
    );
    const runner = report.agent!.tools.find((t) => t.name === 'run_commands')!;
    expect({ reaches: runner.reaches, gated: runner.gated }).toEqual({ reaches: ['exec'], gated: true });
    expect(runner.paths[0]!.gate).toMatchObject({ showsInput: true, site: { path: 'helm/agents/runner.py' } });
    expect(capped(report)).not.toContain('C2');
    expect(capped(report)).not.toContain('C4');
    // A harness that asks is not one where the model rewrites its state freely through the shell (C6 S L0 without the ask).
    expect(report.criteria.find((c) => c.id === 'C6')!.levels.S).toBe(2);
    expect(capped(report)).not.toContain('C6');
    // With no tool offered and every command asked for, a run is the harness's fixed sequence of
    // model calls, each command bounded by the person's yes (C10 S L2 with no step cap).
    expect(report.criteria.find((c) => c.id === 'C10')!.levels.S).toBe(2);
  });

  it('is not gated by reading the task from the user: an answer bound as the prompt, never a yes or no', async () => {
    const report = await variant((t) =>
      t.replace('    def execute(self, task: str) -> list:\n', '    def execute(self, task: str) -> list:\n        prompt = input("Anything to add to the task? ")\n        task = task + " " + prompt\n'),
    );
    const runner = report.agent!.tools.find((t) => t.name === 'run_commands')!;
    expect({ reaches: runner.reaches, gated: runner.gated }).toEqual({ reaches: ['exec'], gated: false });
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4', 'C6']));
    // Commands the model wrote run unasked: nothing bounds how many, so no fixed pipeline.
    expect(report.criteria.find((c) => c.id === 'C10')!.levels.S).toBeLessThan(2);
  });

  it('takes a later read whose no ends the step as the gate, never the task read before it', async () => {
    const later = (check: string) =>
      variant((t) =>
        t.replace(
          '    def execute(self, task: str) -> list:\n',
          `    def execute(self, task: str) -> list:\n        query = input("Anything to add to the task? ")\n        task = task + " " + query\n${check}`,
        ),
      );
    const gated = async (report: Awaited<ReturnType<typeof audit>>) => report.agent!.tools.find((t) => t.name === 'run_commands')!.gated;
    // A yes or no whose no returns before the commands run gates them.
    expect(await gated(await later('        again = input("Run the commands it writes? (y/n): ")\n        if again.lower() != "y":\n            return []\n'))).toBe(true);
    // The same yes or no kept in a flag nothing on the way to the commands reads decides nothing about them.
    expect(await gated(await later('        again = input("Ask another query afterwards? (y/n): ")\n        self.more = again.lower() == "y"\n'))).toBe(false);
    // Without the second read, the task read alone gates nothing.
    expect(await gated(await later('        print("Ask another query afterwards? answer y or n")\n        self.more = "y"\n'))).toBe(false);
  });

  it('leaves nothing confined to one project, even beside a saved transcript (C6 B L0)', async () => {
    const report = await variant((t) =>
      t
        .replace('import json\n', 'import json\nfrom pathlib import Path\n\nHISTORY = Path.home() / ".helm" / "history.jsonl"\n')
        .replace('        commands = parse_commands(reply)\n', '        with open(HISTORY, "a", encoding="utf-8") as f:\n            f.write(json.dumps({"task": task, "reply": reply}) + "\\n")\n        commands = parse_commands(reply)\n'),
    );
    expect(report.criteria.find((c) => c.id === 'C6')!.levels.B).toBe(0);
  });

  it('is no code runner when the command comes from settings and the reply is only printed', async () => {
    const report = await variant((t) =>
      t.replace('        commands = parse_commands(reply)\n        return self.run_commands(commands)\n', '        print(reply)\n        return self.run_commands(self.checks)\n'),
    );
    expect(report.agent!.tools.map((t) => t.name)).toEqual([]);
    expect(capped(report)).not.toContain('C4');
  });

  it('leaves out a command of the harness, taken from settings and given no input, though the reply passes by', async () => {
    const report = await variant((t) =>
      t
        .replace('        self.workdir = workdir\n', '        self.workdir = workdir\n        self.notify_command = "notify-send done"\n')
        .replace('        commands = parse_commands(reply)\n', '        self.report(reply)\n        commands = parse_commands(reply)\n')
        .replace('    def run_commands(self, commands: list) -> list:\n', '    def report(self, text: str):\n        print(text)\n        self.notify()\n\n    def notify(self):\n        subprocess.run(self.notify_command, shell=True)\n\n    def run_commands(self, commands: list) -> list:\n'),
    );
    // The reply is handed to `report`, which calls the notifier; the notifier's shell command is
    // its object's setting, and no argument carries the reply into it: no path the model drives.
    expect(report.agent!.tools.map((t) => t.name)).toEqual(['run_commands']);
    expectUngatedRunner(report);
  });

  it('is followed from an assignment whose model call is wrapped onto the next line', async () => {
    const report = await variant((t) =>
      t.replace('        reply = self.router.complete(PROMPT + task)\n', '        reply = str(\n            self.router.complete(PROMPT + task)\n        )\n'),
    );
    expectUngatedRunner(report);
  });

  it('is not gated by a function of its own merely named like an ask, whose result is dropped', async () => {
    const report = await variant((t) =>
      t
        .replace('class Runner:\n', 'def confirm_system_prompt(messages: list, task: str) -> None:\n    messages[0] = {"role": "system", "content": PROMPT + task}\n\n\nclass Runner:\n')
        .replace('        reply = self.router.complete(PROMPT + task)\n', '        messages = [{}]\n        confirm_system_prompt(messages, task)\n        reply = self.router.complete(PROMPT + task)\n'),
    );
    expectUngatedRunner(report);
  });

  it('runs on the host when it is typed into the desktop (keystrokes the reply chose)', async () => {
    const report = await variant((t) =>
      t
        .replace('import subprocess\n', 'import pyautogui\n')
        .replace('            done = subprocess.run(command.split(" "), cwd=self.workdir, capture_output=True, text=True)\n            outputs.append(done.stdout + done.stderr)\n', '            pyautogui.write(command)\n            pyautogui.press("enter")\n            outputs.append(command)\n'),
    );
    const runner = expectUngatedRunner(report);
    // A fixed keystroke (`press("enter")`) chooses nothing: one path, the typed command.
    expect(runner.paths.map((p) => p.sink.text)).toEqual(['pyautogui.write(command)']);
  });
});
