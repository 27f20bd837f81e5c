import { describe, expect, it } from 'vitest';
import { audit, auditDetailed } from '../../src/audit.js';
import { explain } from '../../src/explain/index.js';
import { renderExplanation } from '../../src/explain/markdown.js';
import { outcomesFromResults } from '../../src/explain/outcomes.js';
import { renderMarkdown } from '../../src/render/markdown.js';
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

describe('a search whose matches all sit in code nothing uses', () => {
  it('is still an empty search, and says how many matches it left out (explain)', async () => {
    const run = await auditDetailed(writeTree('lib-unexported-note', library('')), { rubricDir: RUBRIC, factsCache: false, force: true });
    const outcomes = outcomesFromResults(run.rubric, run.results, { webUrl: null, commit: null });
    expect(outcomes.get('ext.install-on-missing')).toMatchObject({ state: 'empty', search: { unused: 2 } });
    const text = renderExplanation(explain({ report: run.report, rubric: run.rubric, outcomes, from: 'repo' }, 'C7', 'S'));
    expect(text).toContain('→ 0 hits in used code; 2 more in code nothing uses (no failed import makes the harness install a package by itself)');
  });

  it('the scorecard and the JSON say so where they cite the search: a sandbox wrapper nothing calls', async () => {
    const report = await audit(
      writeTree('dead-sandbox', {
        'agent.py': `import subprocess

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI


def jailed(command):
    return subprocess.run(["bwrap", "--ro-bind", "/", "/", "--unshare-all", "sh", "-c", command], capture_output=True, text=True).stdout


@tool
def shell(command: str) -> str:
    """Run a shell command."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


llm = ChatOpenAI(model="gpt-4o").bind_tools([shell])
print(llm.invoke(input("> ")).content)
`,
      }),
      { rubricDir: RUBRIC, factsCache: false },
    );
    const cited = report.criteria.flatMap((c) => Object.values(c.dimensions).flatMap((d) => d.evidence)).filter((e) => e.kind === 'search' && e.unused);
    expect(cited.filter((e) => e.probe === 'sandbox.os').map((e) => e.kind === 'search' && e.unused)).toContain(3);
    expect(renderMarkdown(report)).toContain('→ 0 hits in used code; 3 more in code nothing uses (no OS sandbox is used)');
  });
});
