import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { RUN_TESTS, WRITE_TESTS } from './support.js';

/**
 * A CLI routes its commands through one `if`/`elif` chain. `clean` asks before deleting the cache
 * and returns; `test` runs the test file the model wrote. The question belongs to the `clean`
 * branch, which leaves: the `test` branch, a later `elif` of the same chain, never meets it. Only
 * a question asked inside the `test` branch, before the run, gates it.
 */
const cli = (askInTest: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "testgen"\nversion = "0.1.0"\n[project.scripts]\ntestgen = "testgen.main:main"\n',
  'testgen/__init__.py': '',
  'testgen/steps.py': `import shutil
import subprocess

import typer
from openai import OpenAI

client = OpenAI()


${WRITE_TESTS}


${RUN_TESTS}


def clean_cache() -> int:
    if not typer.confirm("Delete the cache folder?"):
        return 1
    shutil.rmtree(".testgen-cache", ignore_errors=True)
    return 0
`,
  'testgen/main.py': `import argparse

import typer

from testgen.steps import clean_cache, run_tests, write_tests


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["clean", "test"])
    parser.add_argument("source", nargs="?")
    args = parser.parse_args(argv)
    if args.command == "clean":
        return clean_cache()
    elif args.command == "test":
        path = write_tests(args.source)
${askInTest ? '        if not typer.confirm(f"Run {path} on this machine?"):\n            return 1\n' : ''}        print(run_tests(path))
        return 0
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
`,
});

const testRunner = async (name: string, askInTest: boolean) => {
  const report = await audit(writeTree(name, cli(askInTest)), { rubricDir: RUBRIC, factsCache: false });
  return { report, runner: report.agent!.tools.find((t) => t.construct === 'code runner' && t.site.text.includes('subprocess.run(["python3"'))! };
};

describe('a question in one branch of a command router', () => {
  it('does not gate a step in a later branch of the same chain', async () => {
    const { report, runner } = await testRunner('router-other-branch', false);
    expect(runner.status).toBe('ungated');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('a question in the branch itself, before the run, gates it', async () => {
    const { runner } = await testRunner('router-own-branch', true);
    expect(runner.status).toBe('gated');
    expect(runner.paths.find((p) => p.gate)!.gate!.site.text).toMatch(/Run \{path\} on this machine/);
  });
});
