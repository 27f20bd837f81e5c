import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go harness whose tools are struct literals in a slice (`[]tools.Tool{{Name: ToolNameShell,
 * Handler: tools.NewHandler(h.RunShell)}}`), named by constants, dispatched by a runtime that asks
 * the user through its own `askUserForConfirmation` before running any of them.
 */
const files = (ask: boolean): Record<string, string> => ({
  'go.mod': 'module example.com/harbor\n\ngo 1.22\n',
  'tools/tools.go': `package tools

type Handler func(args string) (string, error)

type Tool struct {
	Name        string
	Description string
	Handler     Handler
}

func NewHandler(f func(args string) (string, error)) Handler { return Handler(f) }
`,
  'builtin/shell.go': `package builtin

import (
	"os/exec"

	"example.com/harbor/tools"
)

const ToolNameShell = "shell"

type shellHandler struct{ dir string }

func (h *shellHandler) RunShell(command string) (string, error) {
	out, err := exec.Command("sh", "-c", command).CombinedOutput()
	return string(out), err
}

func ShellTools() []tools.Tool {
	h := &shellHandler{}
	return []tools.Tool{
		{
			Name:        ToolNameShell,
			Description: "Runs a shell command.",
			Handler:     tools.NewHandler(h.RunShell),
		},
	}
}
`,
  'runtime/loop.go': `package runtime

import (
	"bufio"
	"context"
	"fmt"
	"os"

	openai "github.com/sashabaranov/go-openai"

	"example.com/harbor/builtin"
)

type Runtime struct{ client *openai.Client }

func (r *Runtime) askUserForConfirmation(name, args string) bool {
	fmt.Printf("Run %s %s? [y/N] ", name, args)
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\\n')
	return answer == "y\\n"
}

func (r *Runtime) Step(ctx context.Context, history []openai.ChatCompletionMessage) error {
	resp, err := r.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "gpt-4o", Messages: history})
	if err != nil {
		return err
	}
	for _, call := range resp.Choices[0].Message.ToolCalls {
		for _, t := range builtin.ShellTools() {
			if t.Name != call.Function.Name {
				continue
			}
${ask ? '\t\t\tif !r.askUserForConfirmation(t.Name, call.Function.Arguments) {\n\t\t\t\tcontinue\n\t\t\t}\n' : ''}			out, _ := t.Handler(call.Function.Arguments)
			fmt.Println(out)
		}
	}
	return nil
}
`,
});

const harness = (ask: boolean) => writeTree('harbor', files(ask));

describe('a Go tool written as a struct literal', () => {
  it('is a tool named by its constant, whose handler (through an adapter call) runs a command', async () => {
    const report = await audit(harness(false), { rubricDir: RUBRIC, factsCache: false });
    const shell = report.agent!.tools.find((t) => t.name === 'shell');
    expect(shell).toMatchObject({ construct: 'object-with-handler', reaches: ['exec'] });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it("is gated by the runtime's own askUserForConfirmation before the handler runs", async () => {
    const report = await audit(harness(true), { rubricDir: RUBRIC, factsCache: false });
    const shell = report.agent!.tools.find((t) => t.name === 'shell');
    expect(shell).toMatchObject({ reaches: ['exec'], gated: true });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });
});

/**
 * An MCP server in Go whose tools pair a definition built by a call with a handler
 * (`&Tool{Definition: mcp.NewTool("run_cmd", …), Handler: func(…) {…}}`): each is a tool named by
 * the call's first string, and this one runs the command on the host with nobody asked.
 */
describe('a Go tool whose definition is built by a call', () => {
  it('is named by the call and reaches its handler', async () => {
    const dir = writeTree('gomcp', {
      'go.mod': 'module example.com/gomcp\n\ngo 1.22\n',
      'server/tools.go': `package server

import (
	"context"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type Tool struct {
	Definition mcp.Tool
	Handler    server.ToolHandlerFunc
}

func runCmdTool() *Tool {
	return &Tool{
		Definition: mcp.NewTool("run_cmd", mcp.WithDescription("Run a shell command")),
		Handler: func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			out, err := exec.Command("sh", "-c", request.GetString("command", "")).CombinedOutput()
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(string(out)), nil
		},
	}
}

func Serve() error {
	s := server.NewMCPServer("gomcp", "1.0.0")
	t := runCmdTool()
	s.AddTool(t.Definition, t.Handler)
	return server.ServeStdio(s)
}
`,
      'main.go': 'package main\n\nimport "example.com/gomcp/server"\n\nfunc main() {\n\tif err := server.Serve(); err != nil {\n\t\tpanic(err)\n\t}\n}\n',
    });
    const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'run_cmd');
    expect(tool && { reaches: tool.reaches, gated: tool.gated }).toEqual({ reaches: ['exec'], gated: false });
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).toContain('C2');
  });
});

