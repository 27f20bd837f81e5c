import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { pyToolLoop } from './support.js';

/**
 * A coding agent whose symbol tool starts a language server, a third-party program that runs as a
 * separate process of the same user with the agent's whole environment: C7 B L1 (separate process,
 * same user, full inherited environment). The same agent reading the file itself starts nothing
 * third-party, and its third-party code is its own dependencies, in its process (L0).
 */
const files = (languageServer: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "symbols"\nversion = "0.1.0"\ndependencies = ["openai"]\n\n[project.scripts]\nsymbols = "symbols.main:main"\n',
  'symbols/__init__.py': '',
  'symbols/tools.py': `import json
import subprocess


def find_symbol(path: str, name: str) -> str:
${
  languageServer
    ? `    server = subprocess.Popen(["clangd", "--log=error"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    request = json.dumps({"method": "workspace/symbol", "params": {"query": name}})
    out, _ = server.communicate(request.encode())
    return out.decode()
`
    : `    with open(path) as f:
        return "\\n".join(line for line in f if name in line)
`
}

TOOLS = {"find_symbol": find_symbol}
`,
  'symbols/main.py': `import json
import sys

from openai import OpenAI

from symbols.tools import TOOLS


${pyToolLoop('TOOLS[call.function.name](**json.loads(call.function.arguments))')}`,
});

describe('a third-party program a tool starts', () => {
  it('runs apart from the agent with its environment: C7 B L1', async () => {
    const report = await audit(writeTree('symbols', files(true)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.name === 'find_symbol')!.reaches).toContain('spawn');
    expect(report.criteria.find((c) => c.id === 'C7')!.levels.B).toBe(1);
  });

  it('is absent when the tool reads the file itself: C7 B L0', async () => {
    const report = await audit(writeTree('symbols', files(false)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.criteria.find((c) => c.id === 'C7')!.levels.B).toBe(0);
  });
});
