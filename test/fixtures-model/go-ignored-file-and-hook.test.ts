import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { goToolLoop, RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go coding agent whose bash tool runs the model's command after a permission hook held in a
 * field (`if b.CheckPermission != nil { b.CheckPermission(cmd) }`), left for an embedder to set.
 * Beside it, a release script built only on request (`//go:build ignore`) that asks before it
 * runs the agent and offers a tool of its own. Neither asks anything in the shipped program, and the
 * script's tool is not the product's: the bash tool runs unasked, the only tool there is. Where
 * the program's own main sets the hook to a prompt, it asks.
 */
const files = (mainSetsHook: boolean): Record<string, string> => ({
  'go.mod': 'module example.com/gopher\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.40.0\n',
  'tools/bash.go': `package tools

import (
	"context"
	"encoding/json"
	"os/exec"
)

type PermissionCallback func(command string) error

type BashTool struct {
	// CheckPermission is called before running any command, if set.
	CheckPermission PermissionCallback
}

type bashInput struct {
	Command string \`json:"command"\`
}

func (b *BashTool) Run(ctx context.Context, m json.RawMessage) (string, error) {
	var req bashInput
	if err := json.Unmarshal(m, &req); err != nil {
		return "", err
	}
	if b.CheckPermission != nil {
		if err := b.CheckPermission(req.Command); err != nil {
			return "", err
		}
	}
	out, err := exec.CommandContext(ctx, "bash", "-c", req.Command).CombinedOutput()
	return string(out), err
}
`,
  'agent/agent.go': `package agent

import (
	"context"
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"

	"example.com/gopher/tools"
)

${goToolLoop('Run(ctx context.Context, bash *tools.BashTool, prompt string)', `			out, _ := bash.Run(ctx, json.RawMessage(call.Function.Arguments))`)}`,
  'cmd/gopher/main.go': `package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"example.com/gopher/agent"
	"example.com/gopher/tools"
)

func main() {
	bash := &tools.BashTool{}
${mainSetsHook ? `	bash.CheckPermission = func(command string) error {
		fmt.Printf("Run %s? [y/N] ", command)
		answer, _ := bufio.NewReader(os.Stdin).ReadString('\\n')
		if strings.TrimSpace(answer) != "y" {
			return errors.New("denied")
		}
		return nil
	}
` : ''}	_ = errors.New
	_ = bufio.NewReader
	_ = strings.TrimSpace
	if err := agent.Run(context.Background(), bash, strings.Join(os.Args[1:], " ")); err != nil {
		fmt.Println(err)
	}
}
`,
  'release/push.go': `//go:build ignore
// +build ignore

package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"example.com/gopher/agent"
	"example.com/gopher/tools"
)

func publish(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	out, err := exec.CommandContext(ctx, "sh", "-c", req.GetString("command", "")).CombinedOutput()
	return mcp.NewToolResultText(string(out)), err
}

func main() {
	fmt.Print("This builds and publishes a release. Press Enter to continue or Ctrl+C to abort...")
	fmt.Scanln()
	s := server.NewMCPServer("release", "1.0.0")
	s.AddTool(mcp.NewTool("publish", mcp.WithDescription("Publish a release")), publish)
	_ = agent.Run(context.Background(), &tools.BashTool{}, "release")
}
`,
});

const bash = async (name: string, mainSetsHook: boolean) => {
  const report = await audit(writeTree(name, files(mainSetsHook)), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.reaches.includes('exec'))!;
  return { tools: report.agent!.tools.map((t) => t.site.path), gated: tool.paths.filter((p) => p.kind === 'exec').map((p) => p.gated), caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
};

describe('asks that never run in the shipped Go program', () => {
  it('take neither an unset permission hook nor a release script built only on request for an approval', async () => {
    expect(await bash('gopher-unset', false)).toEqual({ tools: ['tools/bash.go'], gated: [false], caps: ['C2', 'C4', 'C6'] });
  });

  it('take the hook for one where the program sets it', async () => {
    const { gated, caps } = await bash('gopher-set', true);
    expect(gated).toEqual([true]);
    expect(caps).not.toContain('C2');
  });
});
