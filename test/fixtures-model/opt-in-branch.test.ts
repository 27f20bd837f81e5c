import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A shell tool whose shell string runs only on the branch a setting opens (`if cfg.UseShell {
 * bash -c … }`): with the setting off by default, the default runs the model's command as a
 * program with its arguments, after a check of its own. Switched on by default, the shell string
 * is the default way again.
 */
const files = (useShell: 'true' | 'false'): Record<string, string> => ({
  'go.mod': 'module example.com/shellsrv\n\ngo 1.22\n',
  'config.go': `package main

type Config struct {
	UseShell bool
	Allowed  []string
}

func defaultConfig() Config {
	return Config{
		UseShell: ${useShell},
		Allowed:  []string{"ls", "cat", "grep"},
	}
}
`,
  'main.go': `package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type runner struct{ cfg Config }

func (r *runner) run(ctx context.Context, command string) (string, error) {
	var cmd *exec.Cmd
	if r.cfg.UseShell {
		cmd = exec.CommandContext(ctx, "bash", "-c", command)
	} else {
		argv := strings.Fields(command)
		cmd = exec.CommandContext(ctx, argv[0], argv[1:]...)
	}
	out, err := cmd.Output()
	return string(out), err
}

func main() {
	r := &runner{cfg: defaultConfig()}
	s := server.NewMCPServer("shellsrv", "1.0.0")
	s.AddTool(mcp.NewTool("shell_exec", mcp.WithString("command", mcp.Required())), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		command, _ := req.RequireString("command")
		out, err := r.run(ctx, command)
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprint(err)), nil
		}
		return mcp.NewToolResultText(out), nil
	})
	server.ServeStdio(s)
}
`,
});

const shellTool = async (name: string, useShell: 'true' | 'false') => {
  const report = await audit(writeTree(name, files(useShell)), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.find((t) => t.name === 'shell_exec')!;
};

describe('a shell string behind a setting', () => {
  it('off by default: the default starts the program the command names, no shell string', async () => {
    const tool = await shellTool('shellsrv-off', 'false');
    expect(tool.paths.map((p) => [p.kind, p.sink.line])).toEqual([['spawn', 21]]);
  });

  it('on by default: the shell string is a default way', async () => {
    const tool = await shellTool('shellsrv-on', 'true');
    expect(tool.paths.map((p) => p.kind)).toContain('exec');
  });
});
