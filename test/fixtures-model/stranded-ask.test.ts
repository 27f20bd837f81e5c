import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * LangGraph's pause for a person (`interrupt(request)`) is an ask: a tool whose handler waits on it
 * before it runs the command is gated. Where the pause sits in a graph node that nothing calls by
 * name, and the command runs in another node the graph routes to, no call path joins the two: the
 * tool path reads as unasked, and the Limitations name the pause as a place to check by hand.
 */
const agent = (nodes: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "inboxer"\nversion = "0.1.0"\n',
  'inboxer/__init__.py': '',
  'inboxer/graph.py': `import subprocess

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.graph import StateGraph
from langgraph.types import interrupt

llm = ChatOpenAI(model="gpt-4o")

${nodes}

builder = StateGraph(dict)
builder.add_node(review)
builder.add_node(act)
builder.add_edge("review", "act")
graph = builder.compile()
`,
});

const inTool = `@tool
def run_command(command: str) -> str:
    """Run a shell command after the user approves it."""
    answer = interrupt({"action": "run_command", "args": command})
    if answer["type"] != "accept":
        return "declined"
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def review(state):
    reply = llm.bind_tools([run_command]).invoke(state["messages"])
    return {"messages": [reply]}


def act(state):
    return state`;

const inOtherNode = `@tool
def run_command(command: str) -> str:
    """Run a shell command."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def review(state):
    answer = interrupt({"action": "run_command", "args": state["command"]})
    if answer["type"] != "accept":
        return {"approved": False}
    return {"approved": True}


def act(state):
    reply = llm.bind_tools([run_command]).invoke(state["messages"])
    return {"messages": [reply]}`;

async function run(name: string, nodes: string) {
  const r = await auditDetailed(writeTree(name, agent(nodes)), { rubricDir: RUBRIC, factsCache: false });
  const tool = r.report.agent?.tools.find((t) => t.name === 'run_command');
  const note = r.report.limitations.find((l) => /wait(s)? for the user (was|were) found/.test(l));
  return { status: tool?.status, note };
}

describe("LangGraph's interrupt()", () => {
  it('in the tool itself, before the command: the tool is gated, and no note', async () => {
    const { status, note } = await run('interrupt-in-tool', inTool);
    expect(status).toBe('gated');
    expect(note).toBeUndefined();
  });

  it('in another graph node: the tool reads as unasked, and the Limitations name the pause', async () => {
    const { status, note } = await run('interrupt-in-node', inOtherNode);
    expect(status).toBe('ungated');
    expect(note).toContain('inboxer/graph.py:');
    expect(note).toContain('check that place by hand');
  });
});
