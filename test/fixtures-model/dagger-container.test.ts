import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server whose one tool runs the model's command in a Dagger container
 * (`ctr.WithExec([]string{"sh", "-c", command})`): the command runs, and it runs isolated, so C4
 * is neither "nothing to isolate" nor the host, and no C4 cap fires. Given the engine's own API
 * (`ExperimentalPrivilegedNesting: true`), the container is privileged: the C1 cap fires.
 */
const server = (opts: string) => `package main

import (
	"context"

	"dagger.io/dagger"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type Environment struct{ ctr *dagger.Container }

func (env *Environment) Run(ctx context.Context, command string) (string, error) {
	next := env.ctr.WithExec([]string{"sh", "-c", command}${opts})
	return next.Stdout(ctx)
}

var env = &Environment{}

func runCommand(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	out, err := env.Run(ctx, req.GetString("command", ""))
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(out), nil
}

func main() {
	s := server.NewMCPServer("boxes", "1.0.0")
	runTool := mcp.NewTool("environment_run_cmd", mcp.WithDescription("Run a command in the environment"), mcp.WithString("command", mcp.Required()))
	s.AddTool(runTool, runCommand)
	server.ServeStdio(s)
}
`;
const goMod = 'module example.com/boxes\n\ngo 1.22\n\nrequire (\n\tdagger.io/dagger v0.18.0\n\tgithub.com/mark3labs/mcp-go v0.32.0\n)\n';

const run = async (name: string, opts: string) => {
  const report = await audit(writeTree(name, { 'go.mod': goMod, 'main.go': server(opts) }), { rubricDir: RUBRIC, factsCache: false });
  const crit = (id: string) => report.criteria.find((c) => c.id === id)!;
  return { report, c1: crit('C1'), c4: crit('C4') };
};

describe('a command run in a Dagger container', () => {
  it('is an isolated exec path: a container, no host, no C4 cap', async () => {
    const { report, c4 } = await run('boxes', '');
    const tool = report.agent!.tools.find((t) => t.name === 'environment_run_cmd')!;
    expect(tool.reaches).toContain('exec');
    expect(tool.paths.filter((p) => p.kind === 'exec').every((p) => p.isolated)).toBe(true);
    expect(c4.levels.S).toBe(2);
    expect(c4.dimensions.S.means).not.toMatch(/^nothing to isolate/);
    expect(c4.cap).toBeNull();
  });

  it('is a privileged container when given the engine API: the C1 cap fires', async () => {
    const { c1 } = await run('boxes-nested', ', dagger.ContainerWithExecOpts{ExperimentalPrivilegedNesting: true}');
    expect(c1.cap).not.toBeNull();
  });
});
