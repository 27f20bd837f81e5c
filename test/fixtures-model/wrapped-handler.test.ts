import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server that wraps each handler as it registers it (`withRecovery("run_command",
 * func(…) {…})`, a panic guard): the function handed to the wrapper is the tool's handler, and
 * what it reaches is what the tool reaches.
 */
const files = {
  'go.mod': 'module example.com/shellmcp\n\ngo 1.22\n\nrequire github.com/modelcontextprotocol/go-sdk v0.2.0\n',
  'main.go': `package main

import (
	"context"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type RunArgs struct {
	Command string \`json:"command"\`
}

func withRecovery[T any](name string, h mcp.ToolHandlerFor[T, any]) mcp.ToolHandlerFor[T, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, args T) (res *mcp.CallToolResult, out any, err error) {
		defer func() { _ = recover() }()
		return h(ctx, req, args)
	}
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "shell"}, nil)
	mcp.AddTool(server,
		&mcp.Tool{Name: "run_command", Description: "Run a shell command"},
		withRecovery("run_command", func(ctx context.Context, req *mcp.CallToolRequest, args RunArgs) (*mcp.CallToolResult, any, error) {
			out, err := exec.Command("sh", "-c", args.Command).CombinedOutput()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil, err
		}),
	)
	_ = server.Run(context.Background(), &mcp.StdioTransport{})
}
`,
};

/** Audits the server: its `run_command` tool reaches a command, and runs it unasked (the C2 cap). */
async function expectUnaskedCommand(name: string, tree: Record<string, string>): Promise<void> {
  const report = await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'run_command');
  expect(tool?.reaches).toContain('exec');
  expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
}

describe('a handler wrapped as it is registered', () => {
  it('is the function handed to the wrapper', async () => {
    await expectUnaskedCommand('shellmcp', files);
  });
});

/**
 * The same registration where the server is a package's field and the tool's name a constant
 * (`mcp.AddTool(app.Server, &mcp.Tool{Name: runTool, …}, gen(runTool, func(…) {…}))`): the tool
 * takes the constant's value.
 */
const byField = {
  'go.mod': 'module example.com/fieldmcp\n\ngo 1.22\n\nrequire github.com/modelcontextprotocol/go-sdk v0.2.0\n',
  'main.go': `package main

import (
	"context"
	"io"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	runTool  = "run_command"
	runShort = "Run a shell command"
)

type App struct {
	Server *mcp.Server
}

var app = &App{Server: mcp.NewServer(&mcp.Implementation{Name: "shell"}, nil)}

type RunInput struct {
	Command string \`json:"command"\`
}

func gen[T any](name string, run func(input T, w io.Writer) error) mcp.ToolHandlerFor[T, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, args T) (*mcp.CallToolResult, any, error) {
		return nil, nil, run(args, io.Discard)
	}
}

func init() {
	mcp.AddTool(
		app.Server, &mcp.Tool{Name: runTool, Description: runShort},
		gen(runTool, func(input RunInput, w io.Writer) error {
			out, err := exec.Command("sh", "-c", input.Command).CombinedOutput()
			_, _ = w.Write(out)
			return err
		}),
	)
}

func main() {
	_ = app.Server.Run(context.Background(), &mcp.StdioTransport{})
}
`,
};

describe('a registration handed the server by a field', () => {
  it('names its tool by the constant the struct gives and reaches what the handler reaches', async () => {
    await expectUnaskedCommand('fieldmcp', byField);
  });
});
