import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { PY_TOOL_LOOP, RUBRIC, writeTree } from '../helpers.js';

/**
 * A Python agent with no memory tool and no shell, whose `save_document` tool writes wherever the
 * model says with nobody asked: it rewrites the harness's settings and the workspace's instruction
 * files as freely as any other file (C6 D L0). The same agent asking before each write leaves
 * the stores out of the model's unasked reach.
 */
const agent = (asks: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "scribe"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'scribe/tools.py': `def save_document(path, content):
${asks ? `    answer = input(f"Write {path}? [y/N] ")
    if answer.strip().lower() != "y":
        return "refused"
` : ''}    with open(path, "w") as f:
        f.write(content)
    return "ok"


def read_file(path):
    with open(path) as f:
        return f.read()


TOOLS = {"save_document": save_document, "read_file": read_file}
`,
  'scribe/main.py': `import json

from openai import OpenAI

from scribe.tools import TOOLS

client = OpenAI()


${PY_TOOL_LOOP}`,
});

const c6 = async (name: string, asks: boolean) => {
  const report = await audit(writeTree(name, agent(asks)), { rubricDir: RUBRIC, factsCache: false });
  const c = report.criteria.find((x) => x.id === 'C6')!;
  const write = report.agent!.tools.find((t) => t.name === 'save_document')!;
  return { D: c.dimensions.D.level, gated: write.paths.filter((p) => p.kind === 'write').map((p) => p.gated), evidence: c.dimensions.D.evidence.map((e) => e.probe) };
};

describe('file writes the model makes with nobody asked', () => {
  it('put the stores in its unasked reach: C6 D L0, cited by the write', async () => {
    const { D, gated, evidence } = await c6('scribe-unasked', false);
    expect(gated).toEqual([false]);
    expect(D).toBe(0);
    expect(evidence).toContain('model.write-ungated');
  });

  it('asked before each write, leave the stores out of it', async () => {
    const { D, gated } = await c6('scribe-asked', true);
    expect(gated).toEqual([true]);
    expect(D).toBeGreaterThan(0);
  });
});
