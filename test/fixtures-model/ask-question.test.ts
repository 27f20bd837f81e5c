import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A read of the user's line bound to a name like `user_input` is taken for the user's next task
 * unless something says it is an answer. The question itself can say so: one that offers to abort
 * the action is an approval, and a branch on its answer that skips the step gates it. A menu from
 * a copy of a prompt library kept under its own name (`vendored_questionary.select(…)`) is the
 * library's menu.
 */
const loop = (ask: string, staticRunner = false, call = staticRunner ? 'Commands.run_command(command)' : 'run_command(command)'): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "stepper"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'stepper/__init__.py': '',
  'stepper/main.py': `import subprocess
import sys

from openai import OpenAI

client = OpenAI()


${staticRunner ? 'class Commands:\n    @staticmethod\n    def run_command(cmd: str) -> str:\n        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout\n' : 'def run_command(cmd: str) -> str:\n    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout\n'}

def main():
    history = [{"role": "user", "content": sys.argv[1]}]
    while True:
        reply = client.chat.completions.create(model="gpt-4o", messages=history)
        command = reply.choices[0].message.content
        print("The model has answered.")
${ask}
        history.append({"role": "user", "content": ${call}})


if __name__ == "__main__":
    main()
`,
});

const runner = async (name: string, ask: string, extra: Record<string, string> = {}, staticRunner = false, call?: string) => {
  const report = await audit(writeTree(name, { ...loop(ask, staticRunner, call), ...extra }), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.find((t) => t.construct === 'code runner')!;
};

const ABORT = `        user_input = input("Press enter to continue or abort this action by typing feedback: ")
        if len(user_input) > 0:
            history.append({"role": "user", "content": user_input})
            continue`;
const NEXT_TASK = `        user_input = input("Anything to add? ")
        if len(user_input) > 0:
            history.append({"role": "user", "content": user_input})
            continue`;

describe('what the question says', () => {
  it('a question that offers to abort the action, with a branch that skips it, gates the command', async () => {
    expect((await runner('ask-abort', ABORT)).status).toBe('gated');
  });

  it('the same read under a task name with a question that offers no stop is the user\'s next message', async () => {
    expect((await runner('ask-next-task', NEXT_TASK)).status).toBe('ungated');
  });

  it('a menu of the model\'s commands from a prompt library kept under another name is an ask', async () => {
    const menu = `        picked = vendored_questionary.select("", choices=[command]).ask()
        if not picked:
            return`;
    const vendored = { 'stepper/vendored_questionary/__init__.py': 'def select(message, choices):\n    raise NotImplementedError\n' };
    expect((await runner('ask-vendored-menu', `        import stepper.vendored_questionary as vendored_questionary\n${menu}`, vendored)).status).toBe('gated');
  });

  it('a @staticmethod runner is called by its name, not by a framework: the ask before the call gates it', async () => {
    expect((await runner('ask-static-runner', ABORT, {}, true)).status).toBe('gated');
  });

  it('a @staticmethod runner whose callers cannot be followed is read as any decorated function: run by the runtime, unasked', async () => {
    // The loop reaches the runner only through getattr: no call names it.
    const tool = await runner('ask-static-unfollowed', ABORT, {}, true, 'getattr(Commands, "run_" + "command")(command)');
    expect(tool.status).toBe('ungated');
  });

  it('a command printed on the line before the ask is shown to the person asked; fixed text is not', async () => {
    const ask = (shown: string) => `        print(${shown})
        answer = input("Run it? (y/n) ")
        if answer.lower() != "y":
            continue`;
    const shows = async (name: string, shown: string) => (await runner(name, ask(shown))).paths[0]!.gate!.showsInput;
    expect(await shows('ask-shown-before', 'f"Next: {command}"')).toBe(true);
    expect(await shows('ask-fixed-before', 'colored("The model wants to run a command.", "cyan")')).toBe(false);
  });

  it('an ask held only for commands a check judges to modify something lets whatever it judges harmless run unasked', async () => {
    const judged = `        if modifies_resources(command):
            answer = input(f"Run {command}? (y/n) ")
            if answer.lower() != "y":
                continue`;
    const check = { 'stepper/checks.py': 'def modifies_resources(command: str) -> bool:\n    return command.split()[0] not in ("get", "describe", "logs")\n' };
    const tool = await runner('ask-judged-unsafe', `        from stepper.checks import modifies_resources\n${judged}`, check);
    expect(tool.paths[0]!.gate?.kind).toBe('safe-list');
    expect(tool.status).toBe('ungated');
    // The ask still stands for what the check judges unsafe: an approval step exists, showing the
    // command (C2 S L2), and the commands let past it run unasked (the C2 cap).
    const report = await audit(writeTree('ask-judged-unsafe-levels', { ...loop(`        from stepper.checks import modifies_resources\n${judged}`, false), ...check }), { rubricDir: RUBRIC, factsCache: false });
    const c2 = report.criteria.find((c) => c.id === 'C2')!;
    expect(c2.levels.S).toBe(2);
    expect(c2.cap).toBe(0.25);
  });

  it('such a check is strict only where code refuses shell metacharacters; a prompt marker or a code fence is no such refusal', async () => {
    const judged = (marker: string) => `        print(${marker})
        if modifies_resources(command):
            answer = input(f"Run {command}? (y/n) ")
            if answer.lower() != "y":
                continue`;
    const check = (refuses: string) => ({ 'stepper/checks.py': `def modifies_resources(command: str) -> bool:
${refuses}    return command.split()[0] not in ("get", "describe", "logs")
` });
    const status = async (name: string, marker: string, refuses = '') => (await runner(name, `        from stepper.checks import modifies_resources
${judged(marker)}`, check(refuses))).status;
    expect(await status('ask-judged-marker', '">>> "')).toBe('ungated');
    expect(await status('ask-judged-fence', '"```"')).toBe('ungated');
    // A check that refuses chaining, pipes and substitution keeps the ask for every command that could hide one.
    expect(await status('ask-judged-strict', '">>> "', '    if any(c in command for c in [";|", "$(", "&&"]):\n        return True\n')).toBe('gated');
  });
});
