import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A library agent: no script runs it, its users import its session class. What that class does is
 * the product, because the package's `__init__.py` re-exports it; here, a tool whose run installs
 * whatever package a failed import names, unasked (the C7 cap). The same class nothing exports or
 * calls is a definition no product code uses, and decides nothing.
 */
const library = (init: string) => ({
  'pyproject.toml': '[project]\nname = "boxagent"\nversion = "0.1.0"\ndependencies = ["langchain-core", "openai"]\n',
  'src/boxagent/__init__.py': init,
  'src/boxagent/session.py': `import re

from langchain_core.tools import StructuredTool
from openai import OpenAI


class Session:
    def __init__(self, box):
        self.box = box
        self.client = OpenAI()
        self.tools = [StructuredTool(name="python", description="Run Python", func=self._run)]

    def _run(self, code: str) -> str:
        output = self.box.run(code)
        if "ModuleNotFoundError" in output:
            if package := re.search(r"No module named '(.*)'", output):
                self.box.install(package.group(1))
                return "installed, try again"
        return output

    def chat(self, text: str) -> str:
        return self.client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": text}]).choices[0].message.content
`,
});

const c7 = async (name: string, init: string) => (await audit(writeTree(name, library(init)), { rubricDir: RUBRIC, factsCache: false, force: true })).criteria.find((c) => c.id === 'C7')!;

describe("a library's re-exported class", () => {
  it('re-exported from the package: its install-on-missing counts, and the C7 cap fires', async () => {
    const c = await c7('lib-exported', 'from boxagent.session import Session\n\n__all__ = ["Session"]\n');
    expect(c.cap).not.toBeNull();
    expect(c.levels.S).toBe(0);
  });

  it('not exported and never called: decides nothing (the control)', async () => {
    const c = await c7('lib-unexported', '');
    expect(c.cap).toBeNull();
  });
});
