import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server in Go whose tools only read: the model is given no way to run a command, so C4 has
 * nothing to isolate and holds by construction (S, C and D at L4, said as such rather than as a
 * microVM). The same server with one tool that runs a shell command is back at L0, and a tree
 * whose tools were not recognised but which starts a shell is not credited. (A function that runs
 * commands blocks the reading even when nothing calls it: see the Python case below.)
 */
const server = (extraTool = '') => `package main

import (
	"context"
	"os"
${extraTool ? '\t"os/exec"\n' : ''}
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("notes", "1.0.0")
	readTool := mcp.NewTool("read_note", mcp.WithDescription("Read a note"), mcp.WithString("name", mcp.Required()))
	s.AddTool(readTool, readNote)
${extraTool}
	server.ServeStdio(s)
}

func readNote(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	data, err := os.ReadFile("notes/" + req.GetString("name", ""))
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(data)), nil
}
${extraTool ? runCommand : ''}`;
const runCommand = `
func runCommand(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	out, _ := exec.Command("sh", "-c", req.GetString("command", "")).CombinedOutput()
	return mcp.NewToolResultText(string(out)), nil
}
`;
const shellTool = `	runTool := mcp.NewTool("run", mcp.WithDescription("Run a command"), mcp.WithString("command", mcp.Required()))
	s.AddTool(runTool, runCommand)`;
const goMod = 'module example.com/notes\n\ngo 1.22\n\nrequire github.com/mark3labs/mcp-go v0.32.0\n';

const c4 = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  return { c4: report.criteria.find((c) => c.id === 'C4')!, tools: report.agent?.tools ?? [] };
};

describe('a server whose tools run no code', () => {
  it('holds C4 by construction, and says so', async () => {
    const { c4: got, tools } = await c4('notes-read', { 'go.mod': goMod, 'main.go': server() });
    expect(tools.map((t) => t.name)).toEqual(['read_note']);
    expect(got.levels).toMatchObject({ S: 4, C: 4, D: 4 });
    expect(got.dimensions.S.means).toMatch(/^nothing to isolate/);
    expect(got.dimensions.S.means).not.toMatch(/microVM/);
  });

  it('is back at L0 once one tool runs a shell command', async () => {
    const { c4: got, tools } = await c4('notes-run', { 'go.mod': goMod, 'main.go': server(shellTool) });
    expect(tools.map((t) => t.name).sort()).toEqual(['read_note', 'run']);
    expect(got.levels).toMatchObject({ S: 0, C: 0, D: 0 });
  });

  it('is not credited when no tool was recognised but the code starts a shell', async () => {
    const { c4: got } = await c4('notes-unseen', {
      'go.mod': goMod,
      'main.go': 'package main\n\nimport (\n\t"os"\n\t"os/exec"\n)\n\nfunc main() {\n\tout, _ := exec.Command("sh", "-c", os.Args[1]).CombinedOutput()\n\tos.Stdout.Write(out)\n}\n',
    });
    expect(got.levels.S).toBeLessThan(4);
    expect(got.dimensions.S.means).not.toMatch(/^nothing to isolate/);
  });
});

/**
 * The same reading in Python, and what keeps it honest: a read-only tool server credits "nothing to
 * isolate" only while no product code evaluates code anywhere, traced to a tool or not, since a
 * path the model missed could lead there. And an AutoGen executor told to run code blocks outside
 * Docker is a host runner: the C4 cap fires.
 */
const pyServer = (extra = '') => `from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def read_note(name: str) -> str:
    """Read a note."""
    with open(f"notes/{name}") as f:
        return f.read()
${extra}

if __name__ == "__main__":
    mcp.run()
`;
const pyFiles = (server: string, more: Record<string, string> = {}) => ({ 'pyproject.toml': '[project]\nname = "notes"\nversion = "0.1.0"\ndependencies = ["mcp"]\n', 'notes_server.py': server, ...more });

describe('a Python server whose tools run no code', () => {
  it('holds C4 by construction', async () => {
    const { c4: got } = await c4('py-notes', pyFiles(pyServer()));
    expect(got.levels).toMatchObject({ S: 4, C: 4, D: 4 });
  });

  it('is not credited while product code evaluates code somewhere no path was traced to', async () => {
    const helper = '\n\ndef compute(expression):\n    return eval(expression)\n\n\nRESULTS = {"answer": compute}\n';
    const { c4: got } = await c4('py-notes-eval', pyFiles(pyServer(helper)));
    expect(got.levels.S).toBe(0);
  });

  it('fires the C4 cap for an AutoGen executor that runs code blocks outside Docker', async () => {
    const team = `import autogen
from autogen import UserProxyAgent

assistant = autogen.AssistantAgent(name="assistant", llm_config={"model": "gpt-4o"})
executor = UserProxyAgent(name="executor", human_input_mode="NEVER", code_execution_config={"work_dir": "tasks", "use_docker": False})


def main(task):
    executor.initiate_chat(assistant, message=task)


if __name__ == "__main__":
    import sys
    main(sys.argv[1])
`;
    const { c4: got } = await c4('py-autogen', { 'pyproject.toml': '[project]\nname = "team"\nversion = "0.1.0"\ndependencies = ["autogen"]\n', 'team.py': team });
    expect(got.levels.S).toBe(0);
    expect(got.cap).not.toBeNull();
  });

  it('fires the C4 cap for an Open Interpreter told to run code without asking', async () => {
    const profile = (autoRun: boolean) => `from interpreter import AsyncInterpreter

interpreter = AsyncInterpreter()
interpreter.llm.model = "gpt-4o"
interpreter.auto_run = ${autoRun ? 'True' : 'False'}


def serve():
    interpreter.server.run()


if __name__ == "__main__":
    serve()
`;
    const files = (autoRun: boolean) => ({ 'pyproject.toml': '[project]\nname = "voice"\nversion = "0.1.0"\ndependencies = ["open-interpreter"]\n', 'voice/__init__.py': '', 'voice/profile.py': profile(autoRun) });
    const { c4: unasked } = await c4('py-oi-auto', files(true));
    expect(unasked.cap).not.toBeNull();
    // With auto_run off nothing shows an agent (the model is called inside the library): scored with --force.
    const asked = (await audit(writeTree('py-oi-asks', files(false)), { rubricDir: RUBRIC, factsCache: false, force: true })).criteria.find((c) => c.id === 'C4')!;
    expect(asked.cap).toBeNull();
  });
});
