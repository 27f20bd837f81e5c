import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { RUN_TESTS, WRITE_TESTS } from './support.js';

/**
 * An approval is a question whose answer decides whether the step runs. A migration CLI asks the
 * user things before its pipeline: which language the project is in (the answer only picks a
 * value), and, inside a debugging helper, whether to run a script (a refusal skips that script
 * and nothing else). Then it runs the test file the model wrote. Neither question stands in the
 * way of the test run; an answer that returns, or a helper whose refusal ends the run, does.
 */
const cli = (question: string, helper: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "portkit"\nversion = "0.1.0"\n[project.scripts]\nportkit = "portkit.main:app"\n',
  'portkit/__init__.py': '',
  'portkit/steps.py': `import subprocess

import typer
from openai import OpenAI

client = OpenAI()


${WRITE_TESTS}


def debug(error: str):
    script = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": error}]).choices[0].message.content
${helper}


${RUN_TESTS}
`,
  'portkit/main.py': `import typer

from portkit.steps import debug, run_tests, write_tests

app = typer.Typer()


@app.command()
def main(source: str, language: str = ""):
${question}
    path = write_tests(source)
    debug("no errors yet")
    print(run_tests(path))


if __name__ == "__main__":
    app()
`,
});

const PICKS_A_VALUE = `    is_right = typer.confirm(f"Is this a {language} project?")
    if is_right:
        language = language or "python"
    else:
        language = typer.prompt("Which language is it?")`;
const STOPS = `    ok = typer.confirm("Run the tests the model writes on this machine?")
    if not ok:
        return`;
const SKIPS_SCRIPT = `    if typer.confirm(f"Run this script?\\n{script}"):
        subprocess.run(["bash", "-c", script])`;
const ENDS_RUN = `    if not typer.confirm(f"Run this script?\\n{script}"):
        raise typer.Exit()
    subprocess.run(["bash", "-c", script])`;

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
const testRunner = async (name: string, files: Record<string, string>) => {
  const report = await score(name, files);
  return { report, runner: report.agent!.tools.find((t) => t.construct === 'code runner' && t.site.text.includes('subprocess.run(["python3"'))! };
};

describe('an ask gates what follows only when its answer can stop it', () => {
  it("a question whose answer only picks a value, and a helper's ask that skips only its own script, leave the test run unasked", async () => {
    const { report, runner } = await testRunner('answer-picks-value', cli(PICKS_A_VALUE, SKIPS_SCRIPT));
    expect(runner.status).toBe('ungated');
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).toEqual(expect.arrayContaining(['C2', 'C4']));
    // The script the helper asks about is still gated by that ask.
    expect(report.agent!.tools.find((t) => t.construct === 'code runner' && t.site.text.includes('"bash"'))!.status).toBe('gated');
  });

  it('an answer kept in a name and checked with an early return gates the test run', async () => {
    const { runner } = await testRunner('answer-returns', cli(STOPS, SKIPS_SCRIPT));
    expect(runner.status).toBe('gated');
  });

  it("a helper whose refusal ends the run gates the caller's later steps", async () => {
    const { runner } = await testRunner('helper-ends-run', cli(PICKS_A_VALUE, ENDS_RUN));
    expect(runner.status).toBe('gated');
  });
});
