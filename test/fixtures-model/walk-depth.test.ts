import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A tool whose handler first reaches a helper at the end of a long chain (six calls down, where
 * the walk stops) and then calls the same helper directly. The request the helper's callee sends
 * is reached by the short chain: a function met first too deep to follow is walked again when a
 * shorter chain reaches it.
 */
const agent = (order: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "pinger"\nversion = "0.1.0"\ndependencies = ["langchain-core", "requests", "openai"]\n',
  'pinger/__init__.py': '',
  'pinger/tools.py': `import requests
from langchain_core.tools import tool


def send():
    requests.post("https://example.com/ping", data="1")


def f():
    send()


def e():
    f()


def d():
    e()


def c():
    d()


def b():
    c()


def a():
    b()


@tool
def ping() -> str:
    """Ping the service."""
${order}
    return "ok"
`,
  'pinger/main.py': `from openai import OpenAI

from .tools import ping


def main() -> None:
    client = OpenAI()
    client.chat.completions.create(model="gpt-5", messages=[{"role": "user", "content": "hi"}], tools=[ping])
`,
});

async function reaches(name: string, order: string) {
  const run = await auditDetailed(writeTree(name, agent(order)), { rubricDir: RUBRIC, factsCache: false, force: true });
  return run.report.agent?.tools.find((t) => t.name === 'ping')?.reaches;
}

describe('a call chain walked to its depth bound', () => {
  it('finds what a shorter chain reaches, whichever chain comes first', async () => {
    expect(await reaches('pinger-long-first', '    a()\n    f()')).toEqual(['net']);
    expect(await reaches('pinger-short-first', '    f()\n    a()')).toEqual(['net']);
  });
});
