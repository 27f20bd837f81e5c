import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A research graph served by the LangGraph server (langgraph.json names it): its own code writes no
 * transcript, but the runtime that serves it checkpoints every step of a thread (its messages and
 * tool calls with their arguments) by default. A structured record on by default that the model
 * cannot reach (it has no shell): C9 S, C and D L2, B L1. The same graph run as a script (no
 * langgraph.json) keeps nothing.
 */
function graph(served: boolean) {
  const dir = writeTree('researcher', {
    'pyproject.toml': '[project]\nname = "researcher"\nversion = "0.1.0"\ndependencies = ["langgraph", "langchain-openai", "httpx"]\n',
    ...(served ? { 'langgraph.json': '{\n  "dependencies": ["."],\n  "graphs": {\n    "researcher": "./src/researcher/graph.py:graph"\n  },\n  "env": ".env"\n}\n' } : {}),
    'src/researcher/__init__.py': '',
    'src/researcher/graph.py': `import os
from typing import TypedDict

import httpx
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    sources: list
    summary: str


def search(state: State) -> dict:
    response = httpx.get("https://search.example.invalid/v1", params={"q": state["topic"]}, headers={"x-key": os.environ["SEARCH_KEY"]}, timeout=20)
    return {"sources": response.json().get("results", [])}


def summarize(state: State) -> dict:
    llm = ChatOpenAI(model="gpt-4o")
    reply = llm.invoke(f"Summarize for {state['topic']}: {state['sources']}")
    return {"summary": reply.content}


builder = StateGraph(State)
builder.add_node("search", search)
builder.add_node("summarize", summarize)
builder.add_edge(START, "search")
builder.add_edge("search", "summarize")
builder.add_edge("summarize", END)
graph = builder.compile()
`,
  });
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}
const c9 = (r: Awaited<ReturnType<typeof audit>>) => r.criteria.find((c) => c.id === 'C9')!;

describe('an agent served by a runtime that checkpoints each step', () => {
  it('has a structured record on by default, out of the model\'s reach (C9 S, C and D L2, B L1)', async () => {
    const report = await graph(true);
    expect(c9(report).levels).toEqual({ S: 2, C: 2, D: 2, B: 1 });
    const ev = c9(report).dimensions.S.evidence.find((e) => e.probe === 'audit.runtime-checkpoint');
    expect(ev).toMatchObject({ kind: 'lines', path: 'langgraph.json', startLine: 3 });
  });

  it('keeps nothing when run as a script: no deployment names the graph (C9 S L0)', async () => {
    const report = await graph(false);
    expect(c9(report).levels.S).toBe(0);
    expect(c9(report).levels.D).toBe(0);
  });
});
