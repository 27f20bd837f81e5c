import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go harness whose shell tool runs its command through an executor interface (`t.executor.Execute`),
 * implemented in one package by a local executor (bash on the host, the default) and a Seatbelt one
 * (opt-in). The call is followed into both: the host path is what the default runs.
 */
const files: Record<string, string> = {
  'go.mod': 'module example.com/kelp\n\ngo 1.22\n',
  'sandbox/local.go': `package sandbox

import (
	"context"
	"os/exec"
)

type Executor interface {
	Execute(ctx context.Context, command string) (string, error)
}

type Local struct{}

func NewLocalExecutor() *Local { return &Local{} }

func (e *Local) Execute(ctx context.Context, command string) (string, error) {
	out, err := exec.CommandContext(ctx, "/bin/bash", "-c", command).CombinedOutput()
	return string(out), err
}
`,
  'sandbox/seatbelt.go': `package sandbox

import (
	"context"
	"os/exec"
)

type Seatbelt struct{ profile string }

func NewSeatbeltExecutor() *Seatbelt { return &Seatbelt{profile: "(version 1)(deny default)"} }

func (e *Seatbelt) Execute(ctx context.Context, command string) (string, error) {
	out, err := exec.CommandContext(ctx, "sandbox-exec", "-p", e.profile, "/bin/bash", "-c", command).CombinedOutput()
	return string(out), err
}
`,
  'tools/bash.go': `package tools

import (
	"context"

	"example.com/kelp/sandbox"
)

type BashTool struct{ executor sandbox.Executor }

func NewBashTool(executor sandbox.Executor) *BashTool { return &BashTool{executor: executor} }

func (t *BashTool) Name() string { return "bash" }

func (t *BashTool) Description() string { return "Executes a bash command." }

func (t *BashTool) Run(ctx context.Context, args map[string]any) (any, error) {
	command, _ := args["command"].(string)
	return t.executor.Execute(ctx, command)
}
`,
  'agent/agent.go': `package agent

import (
	"context"

	openai "github.com/sashabaranov/go-openai"

	"example.com/kelp/sandbox"
	"example.com/kelp/tools"
)

type Agent struct {
	client  *openai.Client
	Sandbox string
}

func (a *Agent) Run(ctx context.Context, history []openai.ChatCompletionMessage) (any, error) {
	var executor sandbox.Executor
	switch a.Sandbox {
	case "seatbelt":
		executor = sandbox.NewSeatbeltExecutor()
	default:
		executor = sandbox.NewLocalExecutor()
	}
	bash := tools.NewBashTool(executor)
	resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "gpt-4o", Messages: history})
	if err != nil {
		return nil, err
	}
	call := resp.Choices[0].Message.ToolCalls[0]
	return bash.Run(ctx, map[string]any{"command": call.Function.Arguments})
}
`,
};

describe('a tool that runs its command through an executor interface', () => {
  it('reaches every implementation in the one package: the host one runs unasked', async () => {
    const report = await audit(writeTree('kelp', files), { rubricDir: RUBRIC, factsCache: false });
    const bash = report.agent!.tools.find((t) => t.name === 'bash')!;
    expect(bash.reaches).toContain('exec');
    expect([...new Set(bash.paths.map((p) => p.sink.path))].sort()).toEqual(['sandbox/local.go', 'sandbox/seatbelt.go']);
    expect(bash.paths.find((p) => p.sink.path === 'sandbox/local.go')).toMatchObject({ kind: 'exec', gated: false, isolated: false });
    expect(report.criteria.find((c) => c.id === 'C4')!.levels.S).toBe(0);
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
