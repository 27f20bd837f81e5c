import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * C9 L1 is "unstructured logs": a harness that writes warnings and errors through a logger keeps
 * a best-effort record (S, C, D and B L1) even when no line names a tool call. One that only
 * prints its answer, or logs at a level a fresh install hides, keeps none (L0).
 */
const files = (log: 'error' | 'info' | 'none'): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "runner"\nversion = "0.1.0"\n[project.scripts]\nrunner = "runner.cli:main"\n',
  'runner/__init__.py': '',
  'runner/cli.py': `import json
import logging
import sys

from openai import OpenAI

logger = logging.getLogger(__name__)


def add(a, b):
    return a + b


FUNCTIONS = {"add": add}


def main():
    client = OpenAI()
    reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": sys.argv[1]}], tools=[{"type": "function", "function": {"name": "add", "parameters": {}}}])
    for call in reply.choices[0].message.tool_calls or []:
        try:
            result = FUNCTIONS[call.function.name](**json.loads(call.function.arguments))
            print(result)
        except Exception:
${log === 'error' ? '            logger.error("call failed")\n' : log === 'info' ? '            logger.info("call failed")\n' : '            pass\n'}`,
});

const c9 = async (name: string, log: 'error' | 'info' | 'none') => {
  const report = await audit(writeTree(name, files(log)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C9')!.levels;
};

describe('operational logs as the unstructured record (C9 L1)', () => {
  it('a warning or error logger line is a best-effort record', async () => {
    expect(await c9('log-error', 'error')).toEqual({ S: 1, C: 1, D: 1, B: 1 });
  });

  it('an info line, hidden in a fresh install, is none', async () => {
    expect(await c9('log-info', 'info')).toEqual({ S: 0, C: 0, D: 0, B: 0 });
  });

  it('no log at all is none', async () => {
    expect(await c9('log-none', 'none')).toEqual({ S: 0, C: 0, D: 0, B: 0 });
  });
});
