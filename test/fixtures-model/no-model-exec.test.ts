import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server in Go whose tools only read: the model is given no way to run a command, so C4 has
 * nothing to isolate and holds by construction (S, C and D at L4, said as such rather than as a
 * microVM). The same server with one tool that runs a shell command is back at L0, and a tree
 * whose tools were not recognised but which starts a shell is not credited.
 */
const server = (extraTool = '') => `package main

import (
	"context"
	"os"
	"os/exec"

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
