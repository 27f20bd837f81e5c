import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A function-running agent that keeps no conversation transcript but writes a row per call to a
 * log table of its own (name, arguments, outcome): a structured per-call record, C9 S and C L2.
 * Without the row, only the printed line is left: unstructured (S L1), but printed where every call
 * is dispatched, so it still covers every call (C L2).
 */
const files = (record: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "runner"\nversion = "0.1.0"\n[project.scripts]\nrunner = "runner.cli:main"\n',
  'runner/__init__.py': '',
  'runner/store.py': `from sqlalchemy import Column, Float, Integer, String, JSON
from sqlalchemy.orm import declarative_base

Base = declarative_base()


class ExecutionLog(Base):
    __tablename__ = "execution_logs"
    id = Column(Integer, primary_key=True)
    function_name = Column(String)
    params = Column(JSON)
    output = Column(JSON)
    time_spent = Column(Float)
`,
  'runner/cli.py': `import json
import sys
import time

from openai import OpenAI

from runner.store import ExecutionLog

FUNCTIONS = {}


def register(fn):
    FUNCTIONS[fn.__name__] = fn
    return fn


@register
def add(a, b):
    return a + b


def execute(session, name, params):
    start = time.time()
    output = FUNCTIONS[name](**params)
    print(f"ran {name}")
${record ? '    session.add(ExecutionLog(function_name=name, params=params, output=output, time_spent=time.time() - start))\n    session.commit()\n' : ''}    return output


def main():
    client = OpenAI()
    reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": sys.argv[1]}], tools=[{"type": "function", "function": {"name": "add", "parameters": {}}}])
    for call in reply.choices[0].message.tool_calls or []:
        execute(None, call.function.name, json.loads(call.function.arguments))


if __name__ == "__main__":
    main()
`,
});

const c9 = async (name: string, record: boolean) => {
  const report = await audit(writeTree(name, files(record)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C9')!.levels;
};

describe('a per-call record in a log of its own', () => {
  it('is a structured record: C9 S and C at L2', async () => {
    expect(await c9('runner-logged', true)).toMatchObject({ S: 2, C: 2 });
  });

  it('is missing without the row; the line printed at the dispatch still covers every call', async () => {
    const got = await c9('runner-unlogged', false);
    expect(got.S).toBeLessThan(2);
    expect(got.C).toBe(2);
  });
});
