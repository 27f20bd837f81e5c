import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Python agent with a table from tool name to handler and, beside it, a record whose variable
 * also ends in `tools` (a prompt template's context): the record holds literals among its values,
 * which no table of handlers does, so its keys are no tools. Nor are the Python builtins a
 * sandboxed interpreter's table allows (`"len": len`).
 */
const dir = () =>
  writeTree('pyrecord', {
    'pyproject.toml': '[project]\nname = "pyrecord"\n',
    'pyrecord/agent.py': `import subprocess
from openai import OpenAI


def run_shell(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def read_note(name):
    return "note"


HANDLERS_TOOLS = {
    "run_shell": run_shell,
    "read_note": read_note,
}

SANDBOX_BASE_TOOLS = {
    "len": len,
    "range": range,
    "isinstance": isinstance,
}


def render(issue, analysis, config):
    context_without_tools = {
        "investigation": analysis,
        "issue": issue.kind,
        "cluster_name": config.cluster_name,
        "runbooks_enabled": True,
    }
    return str(context_without_tools)


def main():
    client = OpenAI()
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": render(None, "", None)}])
    for call in reply.choices[0].message.tool_calls or []:
        print(HANDLERS_TOOLS[call.function.name](call.function.arguments))


if __name__ == "__main__":
    main()
`,
  });

describe('a Python dictionary with literals among its values', () => {
  it('names no tool, while the table of handlers beside it names each of its tools', async () => {
    const report = await audit(dir(), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => t.name).sort()).toEqual(['read_note', 'run_shell']);
    expect(report.agent!.tools.find((t) => t.name === 'run_shell')).toMatchObject({ construct: 'dispatch-map', reaches: ['exec'] });
  });
});
