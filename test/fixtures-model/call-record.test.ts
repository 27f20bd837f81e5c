import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

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

const c9Of = async (name: string, tree: Record<string, string>) =>
  (await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C9')!;
const c9 = async (name: string, record: boolean) => (await c9Of(name, files(record))).levels;
/** The lines C9 S cites for one probe, as path:line. */
const citedBy = (c: Awaited<ReturnType<typeof c9Of>>, probe: string) =>
  c.dimensions.S.evidence.flatMap((e) => (e.kind === 'lines' && e.probe === probe ? [`${e.path}:${e.startLine}`] : []));

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


/**
 * A database table of tool calls is a per-call record of its own (C9 S L2): SQL that creates or
 * fills a table with the tool's name and its input, handed to the database. The same SQL quoted
 * in a log line is a message, and SQL reads as code however many plain words (`TEXT,`) it holds.
 */
describe('tool calls recorded in a database table', () => {
  const store = (statement: string) => `import sqlite3

db = sqlite3.connect("calls.db")


def record(name: str, args: str, result: str) -> None:
${statement}
    db.commit()
`;
  const agent = (name: string, statement: string) =>
    c9Of(name, { ...toolLoopAgent('ledger', { extra: 'from ledger.store import record\n', atDispatch: '            record(tool_call.function.name, tool_call.function.arguments, "")' }), 'ledger/store.py': store(statement) });

  it('an INSERT into a table with the tool name and arguments, handed to the database: C9 S L2 cited at the statement', async () => {
    const c = await agent('sql-record', '    db.execute("CREATE TABLE IF NOT EXISTS tool_calls (id INTEGER PRIMARY KEY, tool_name TEXT, arguments TEXT, result TEXT)")\n    db.execute("INSERT INTO tool_calls (tool_name, arguments, result) VALUES (?, ?, ?)", (name, args, result))');
    expect(c.levels.S).toBe(2);
    expect(citedBy(c, 'audit.call-record')).toEqual(['ledger/store.py:7']);
  });

  it('the same SQL only quoted in a log line is no record: C9 S below L2', async () => {
    const c = await agent('sql-quoted', '    print("INSERT INTO tool_calls (tool_name, arguments, result) VALUES (?, ?, ?)")');
    expect(c.levels.S).toBeLessThan(2);
  });
});

/**
 * Each step of the run kept as a record on the run's memory (`memory.steps.append(…)`, as agent
 * libraries keep their step history) is a structured per-step record, C9 S L2, though nothing is
 * written to disk. The same dictionaries in a bare `steps` list, which may as well be a plan or a
 * progress display, are not read as one.
 */
describe("each step kept on the run's memory", () => {
  const memory = 'class Memory:\n    def __init__(self):\n        self.steps = []\n\n\nmemory = Memory()\nsteps = []\n';
  const agent = (name: string, holder: string) =>
    c9Of(name, toolLoopAgent('stepper', { extra: memory, atDispatch: `            ${holder}.append({"tool": tool_call.function.name, "arguments": tool_call.function.arguments})` }));

  it('a step appended to memory.steps: C9 S L2, cited at the append', async () => {
    const c = await agent('steps-memory', 'memory.steps');
    expect(c.levels.S).toBe(2);
    expect(citedBy(c, 'audit.step-record')).toEqual(['stepper/main.py:37']);
  });

  it('the same step in a bare list is no such record: C9 S below L2', async () => {
    expect((await agent('steps-bare', 'steps')).levels.S).toBeLessThan(2);
  });
});
