import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A shell assistant whose one action is the command the model proposes, taken from the reply in
 * the same function that runs it: a code runner (the reply reaches the command, so it is not the
 * function's own command). Run only after the user says yes to that exact command, with no named
 * tools there is no unknown tool to ask for, so the gate covers every action (C2 S and C L3, no
 * cap). Without the ask it is an ungated runner on the host (the C2 and C4 caps). If the reply's
 * edits are also written to files unasked, the gate no longer covers what the model's output does.
 */
const cli = (extra: string, afterReply: string, ask: boolean) => `import subprocess

from openai import OpenAI

client = OpenAI()

${extra}

def main() -> None:
    task = input("What should I do? ")
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": task}])
    command = reply.choices[0].message.content
${afterReply}
    print(command)
${ask ? '    if input(f"Run {command!r}? [y/N] ").strip().lower() == "y":\n        subprocess.run(command, shell=True)' : '    subprocess.run(command, shell=True)'}


if __name__ == "__main__":
    main()
`;
const c2 = async (name: string, extra: string, afterReply: string, ask = true) => {
  const tree = {
    'pyproject.toml': '[project]\nname = "asksh"\nversion = "0.1.0"\n[project.scripts]\nasksh = "asksh.cli:main"\n',
    'asksh/__init__.py': '',
    'asksh/cli.py': cli(extra, afterReply, ask),
  };
  const report = await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false });
  return { runner: report.agent!.tools.find((t) => t.construct === 'code runner'), c2: report.criteria.find((c) => c.id === 'C2')!, capped: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
};

describe('a command proposer that asks before running the exact command', () => {
  it('with no tools and nothing else acting: a gated code runner, C2 S and C L3, no cap', async () => {
    const { runner, c2: c, capped } = await c2('asksh-only', '', '    pass');
    expect({ name: runner?.name, reaches: runner?.reaches, gated: runner?.gated }).toEqual({ name: 'main', reaches: ['exec'], gated: true });
    expect([c.levels.S, c.levels.C]).toEqual([3, 3]);
    expect(capped).toEqual([]);
  });

  it('without the ask: an ungated code runner, and the C2 and C4 caps fire', async () => {
    const { runner, capped } = await c2('asksh-unasked', '', '    pass', false);
    expect({ reaches: runner?.reaches, gated: runner?.gated }).toEqual({ reaches: ['exec'], gated: false });
    expect(capped).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('that also applies the reply\'s edits to files unasked: C2 C below L3', async () => {
    const applyEdits = 'def apply_edits(reply: str) -> None:\n    path, _, body = reply.partition("\\n")\n    with open(path, "w") as f:\n        f.write(body)\n';
    expect((await c2('asksh-edits', applyEdits, '    apply_edits(command)')).c2.levels.C).toBeLessThan(3);
  });
});
