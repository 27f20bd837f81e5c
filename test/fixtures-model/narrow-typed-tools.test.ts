import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * Typed tools with no shell, no file tool and no fetch tool (each calls one fixed API with its own
 * parameters) leave nothing to contain or allowlist: C3 S reaches L3, as reviewers rate closed
 * sets of typed API tools. A file tool beside them keeps S at the typed-tools L1 until its paths
 * are contained.
 */
const agent = (extra: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "issues"\nversion = "0.1.0"\n[project.scripts]\nissues = "issues.main:main"\n',
  'issues/__init__.py': '',
  'issues/main.py': `import json
import sys

import requests
from openai import OpenAI

API = "https://api.github.com/repos/acme/widgets"


def get_issue(number: int) -> str:
    return requests.get(f"{API}/issues/{int(number)}", timeout=10).text


def list_labels() -> str:
    return requests.get(f"{API}/labels", timeout=10).text
${extra}

TOOLS = {"get_issue": get_issue, "list_labels": list_labels${extra ? ', "read_file": read_file' : ''}}
SPECS = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}} for name in TOOLS]


def main():
    client = OpenAI()
${chatToolLoop('SPECS', 'TOOLS[call.function.name](**json.loads(call.function.arguments))')}
`,
});

const c3 = async (name: string, extra: string) => {
  const report = await audit(writeTree(name, agent(extra)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C3')!.levels;
};

describe('narrow typed tools', () => {
  it('typed API tools only: C3 S at L3', async () => {
    expect((await c3('narrow-typed', '')).S).toBe(3);
  });

  it('a file tool beside them: S stays at L1', async () => {
    const readFile = '\n\ndef read_file(path: str) -> str:\n    with open(path) as f:\n        return f.read()\n';
    expect((await c3('typed-with-file', readFile)).S).toBe(1);
  });
});
