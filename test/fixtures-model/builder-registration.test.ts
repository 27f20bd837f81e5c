import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server in Go that registers each tool as two calls of its own functions:
 * `s.AddTool(tools.CreateRunTool(), tools.HandleRun("sh"))`. The first returns the tool
 * (`mcp.NewTool("run_command", …)`), the second the function that runs it: the registration is
 * the tool of that name, and what the returned function reaches, the tool reaches. A third,
 * registered only when a flag that is off by default is set (`--enable-write`), is not offered.
 */
const files = {
  'cmd/srv/main.go': `package main

import (
	"github.com/mark3labs/mcp-go/server"
	"github.com/spf13/cobra"

	"example.com/factorymcp/internal/tools"
)

var enableWrite bool

var rootCmd = &cobra.Command{Use: "srv", Run: run}

func init() {
	rootCmd.Flags().BoolVar(&enableWrite, "enable-write", false, "Offer the write tool")
}

func run(cmd *cobra.Command, args []string) {
	s := server.NewMCPServer("shell", "1.0.0")
	s.AddTool(tools.CreateRunTool(), tools.HandleRun("sh"))
	s.AddTool(tools.CreateEchoTool(), tools.HandleEcho())
	if enableWrite {
		s.AddTool(tools.CreateWriteTool(), tools.HandleWrite())
	}
	_ = server.ServeStdio(s)
}

func main() {
	_ = rootCmd.Execute()
}
`,
  'go.mod': `module example.com/factorymcp

go 1.22

require github.com/mark3labs/mcp-go v0.20.0
`,
  'internal/tools/shell.go': `package tools

import (
	"context"
	"os"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
)

// CreateRunTool describes the run_command tool.
func CreateRunTool() mcp.Tool {
	return mcp.NewTool("run_command",
		mcp.WithDescription("Run a shell command"),
		mcp.WithString("command", mcp.Required()),
	)
}

// CreateEchoTool describes the echo tool.
func CreateEchoTool() mcp.Tool {
	return mcp.NewTool("echo",
		mcp.WithDescription("Echo the text back"),
		mcp.WithString("text", mcp.Required()),
	)
}

// HandleRun runs the command it is given.
func HandleRun(shell string) func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		command, _ := req.Params.Arguments["command"].(string)
		out, err := exec.CommandContext(ctx, shell, "-c", command).CombinedOutput()
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(string(out)), nil
	}
}

// CreateWriteTool describes the write_file tool.
func CreateWriteTool() mcp.Tool {
	return mcp.NewTool("write_file",
		mcp.WithDescription("Write a file"),
		mcp.WithString("path", mcp.Required()),
		mcp.WithString("text", mcp.Required()),
	)
}

// HandleWrite writes the file it is given.
func HandleWrite() func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		path, _ := req.Params.Arguments["path"].(string)
		text, _ := req.Params.Arguments["text"].(string)
		return nil, os.WriteFile(path, []byte(text), 0o644)
	}
}

// HandleEcho returns the text.
func HandleEcho() func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		text, _ := req.Params.Arguments["text"].(string)
		return mcp.NewToolResultText(text), nil
	}
}
`,
};

describe('a tool registered by the functions that build it and its handler', () => {
  it('takes the built tool\'s name, reaches what the made handler reaches, and is not offered when its switch is off', async () => {
    const report = await audit(writeTree('factorymcp', files), { rubricDir: RUBRIC, factsCache: false });
    const reaches = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t.reaches]));
    expect(reaches).toEqual({ run_command: ['exec'], echo: [] });
    expect(report.agent!.tools.find((t) => t.name === 'run_command')!.site.path).toBe('cmd/srv/main.go');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
