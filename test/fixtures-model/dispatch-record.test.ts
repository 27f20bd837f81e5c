import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { searchCommand } from '../../src/evaluate/evidence.js';
import { factProbe } from '../../src/model/facts.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { loadRubric } from '../../src/rubric/load.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Every tool call passes through the unit that dispatches the model's calls to the tools: a log
 * line or a record written there (or by a helper it calls) covers every tool, which C9 C L2 asks
 * for. A log line elsewhere (the loop's start, a registry building the tools, a branch beside the
 * call), or one written only when a call fails, covers nothing.
 */
const agent = (dispatch: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "toolbox"\nversion = "0.1.0"\n[project.scripts]\ntoolbox = "toolbox.main:main"\n',
  'toolbox/__init__.py': '',
  'toolbox/main.py': `import json
import logging
import subprocess
import sys
from openai import OpenAI

logger = logging.getLogger("toolbox")


class ShellTool:
    name = "run_shell"
    description = "Run a shell command"
    parameters = {"type": "object", "properties": {"command": {"type": "string"}}}

    def execute(self, command):
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


class NoteTool:
    name = "write_note"
    description = "Write a note"
    parameters = {"type": "object", "properties": {"text": {"type": "string"}}}

    def execute(self, text):
        with open("notes.txt", "a") as f:
            f.write(text)
        return "ok"


TOOL_REGISTRY = {"run_shell": ShellTool, "write_note": NoteTool}


def build(name):
    logger.warning("building %s", name)
    return TOOL_REGISTRY[name]()


TOOLS = {name: build(name) for name in TOOL_REGISTRY}


def show(name, args):
    print(f"tool {name}: {args}")


def dispatch(call):
    tool = TOOLS[call.function.name]
    args = json.loads(call.function.arguments)
${dispatch}


def main():
    logger.warning("starting")
    client = OpenAI()
    messages = [{"role": "user", "content": sys.argv[1]}]
    for _ in range(10):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=[{"type": "function", "function": {"name": t.name, "parameters": t.parameters}} for t in TOOLS.values()])
        message = reply.choices[0].message
        if not message.tool_calls:
            return
        messages.append(message)
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": dispatch(call)})
`,
});

async function outcome(name: string, dispatch: string) {
  const run = await auditDetailed(writeTree(name, agent(dispatch)), { rubricDir: RUBRIC, factsCache: false });
  return {
    recorded: run.results.get('model.dispatch-recorded')!.findings.map((f) => `${f.path}:${f.startLine} ${f.text}`),
    dispatches: run.model!.dispatches.map((d) => `${d.site.path}:${d.site.line}`),
    C: run.report.criteria.find((c) => c.id === 'C9')!.levels.C,
    line: renderMarkdown(run.report).split('\n').find((l) => l.startsWith('Tool calls are dispatched at')),
  };
}

describe('the unit that dispatches the model tool calls', () => {
  it('logs each call: every tool call is recorded (C9 C L2), cited at the log line', async () => {
    const o = await outcome('dispatch-logged', '    logger.warning("tool %s %s", call.function.name, args)\n    return tool.execute(**args)');
    expect(o.dispatches).toEqual(['toolbox/main.py:49']);
    expect(o.recorded).toEqual(['toolbox/main.py:48 logger.warning("tool %s %s", call.function.name, args)']);
    expect(o.C).toBe(2);
    expect(o.line).toBe('Tool calls are dispatched at [toolbox/main.py:49](toolbox/main.py#L49) (each recorded at [toolbox/main.py:48](toolbox/main.py#L48)).');
  });

  it('hands each call to a helper that prints it: recorded, cited at the helper call', async () => {
    const o = await outcome('dispatch-helper', '    result = tool.execute(**args)\n    show(call.function.name, args)\n    return result');
    expect(o.recorded).toEqual(['toolbox/main.py:49 show(call.function.name, args)']);
    expect(o.C).toBe(2);
  });

  it('records only failures, or in a branch beside the call: no tool call is covered, whatever else logs', async () => {
    const o = await outcome('dispatch-silent', '    if not args:\n        print("no arguments")\n    try:\n        return tool.execute(**args)\n    except Exception as e:\n        logger.error("tool failed: %s", e)\n        raise');
    expect(o.dispatches).toEqual(['toolbox/main.py:51']);
    expect(o.recorded).toEqual([]);
    expect(o.C).toBeLessThan(2);
    expect(o.line).toBe('Tool calls are dispatched at [toolbox/main.py:51](toolbox/main.py#L51) (not recorded there).');
  });

  it('an empty search names what it went through: the dispatch sites, not tool paths', () => {
    const fact = loadRubric(RUBRIC).model!.facts.find((f) => f.id === 'model.dispatch-recorded')!;
    expect(searchCommand(factProbe(fact), 'rubrics/dids')).toBe(
      "agent model: the calls that dispatch the model's tool calls (each tool call is recorded where the model's calls are dispatched) over the call graph of every code file (rubrics/dids/model.yaml)",
    );
  });
});
