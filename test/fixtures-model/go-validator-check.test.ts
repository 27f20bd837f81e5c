import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go MCP shell tool that hands the model's command to a validator first and refuses it on the
 * validator's error (`if err := h.validator.validateCommand(command); err != nil { return
 * mcp.NewToolResultError(…) }`): the command path is checked before it runs. The same handler
 * that only logs the error refuses nothing.
 */
const files = (refuse: boolean): Record<string, string> => ({
  'go.mod': 'module example.com/vshell\n\ngo 1.22\n',
  'main.go': `package main

import (
	"context"
	"fmt"
	"log"
	"os/exec"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type validator struct{ allowed []string }

func (v *validator) validateCommand(command string) error {
	for _, a := range v.allowed {
		if strings.HasPrefix(command, a+" ") {
			return nil
		}
	}
	return fmt.Errorf("not allowed: %s", command)
}

type handler struct{ validator *validator }

func (h *handler) handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	command, _ := req.RequireString("command")
	if err := h.validator.validateCommand(command); err != nil {
		${refuse ? 'return mcp.NewToolResultError(fmt.Sprintf("Security violation: %s", err)), nil' : 'log.Printf("validation: %v", err)'}
	}
	argv := strings.Fields(command)
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(string(out)), nil
}

func main() {
	h := &handler{validator: &validator{allowed: []string{"ls", "cat"}}}
	s := server.NewMCPServer("vshell", "1.0.0")
	s.AddTool(mcp.NewTool("shell_exec", mcp.WithString("command", mcp.Required())), h.handle)
	server.ServeStdio(s)
}
`,
});

const checks = async (name: string, refuse: boolean) => {
  const report = await audit(writeTree(name, files(refuse)), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'shell_exec')!;
  return tool.paths.map((p) => p.check?.line ?? null);
};

describe('a Go validator whose error refuses the call', () => {
  it('checks the command before it runs', async () => {
    expect(await checks('vshell', true)).toEqual([29]);
  });

  it('a validator whose error is only logged refuses nothing', async () => {
    expect(await checks('vshell-log', false)).toEqual([null]);
  });
});
