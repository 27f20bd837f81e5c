import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Where model-written code runs, seen from the constructs that run it. A Go MCP server written the
 * mcp-go way (`readTool := mcp.NewTool("read_note", …)`, then `s.AddTool(readTool, readNote)`)
 * offers one tool per registration, named by the definition; one that runs a shell command fires
 * the C4 cap, a read-only one does not. An AutoGen executor told to run code blocks outside Docker,
 * and an Open Interpreter told to run code without asking, are host runners: the C4 cap fires.
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

const scored = async (name: string, files: Record<string, string>, force = false) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false, force });
  return { c4: report.criteria.find((c) => c.id === 'C4')!, tools: report.agent?.tools ?? [] };
};

describe('a Go MCP server registered the mcp-go way', () => {
  it('offers one tool per registration, named by its definition; read-only, no C4 cap', async () => {
    const { c4, tools } = await scored('notes-read', { 'go.mod': goMod, 'main.go': server() });
    expect(tools.map((t) => t.name)).toEqual(['read_note']);
    expect(c4.cap).toBeNull();
  });

  it('fires the C4 cap once one tool runs a shell command on the host', async () => {
    const { c4, tools } = await scored('notes-run', { 'go.mod': goMod, 'main.go': server(shellTool) });
    expect(tools.map((t) => t.name).sort()).toEqual(['read_note', 'run']);
    expect(c4.levels).toMatchObject({ S: 0, C: 0, D: 0 });
    expect(c4.cap).not.toBeNull();
  });
});

describe('code a library runs for the model', () => {
  it('fires the C4 cap for an AutoGen executor that runs code blocks outside Docker', async () => {
    const team = (docker: boolean) => `import autogen
from autogen import UserProxyAgent

assistant = autogen.AssistantAgent(name="assistant", llm_config={"model": "gpt-4o"})
executor = UserProxyAgent(name="executor", human_input_mode="NEVER", code_execution_config={"work_dir": "tasks", "use_docker": ${docker ? 'True' : 'False'}})


def main(task):
    executor.initiate_chat(assistant, message=task)


if __name__ == "__main__":
    import sys
    main(sys.argv[1])
`;
    const files = (docker: boolean) => ({ 'pyproject.toml': '[project]\nname = "team"\nversion = "0.1.0"\ndependencies = ["autogen"]\n', 'team.py': team(docker) });
    const { c4: host } = await scored('py-autogen', files(false));
    expect(host.levels.S).toBe(0);
    expect(host.cap).not.toBeNull();
    const { c4: docker } = await scored('py-autogen-docker', files(true), true);
    expect(docker.cap).toBeNull();
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
    const { c4: unasked } = await scored('py-oi-auto', files(true));
    expect(unasked.cap).not.toBeNull();
    // With auto_run off nothing shows an agent (the model is called inside the library): scored with --force.
    const { c4: asked } = await scored('py-oi-asks', files(false), true);
    expect(asked.cap).toBeNull();
  });
});
