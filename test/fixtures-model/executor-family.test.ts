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

/** The same tool checking first through an interface: one implementation asks on the TTY, the other passes everything. */
const approving: Record<string, string> = {
  ...files,
  'approve/approve.go': `package approve

import (
	"bufio"
	"fmt"
	"os"
)

type Approver interface {
	Check(command string) bool
}

type TTY struct{}

func (a *TTY) Check(command string) bool {
	fmt.Printf("Run %s? [y/N] ", command)
	reader := bufio.NewReader(os.Stdin)
	answer, _ := reader.ReadString('\\n')
	return answer == "y\\n"
}

type Auto struct{}

func (a *Auto) Check(command string) bool { return true }
`,
  'tools/bash.go': files['tools/bash.go']!
    .replace('"example.com/kelp/sandbox"', '"example.com/kelp/approve"\n\t"example.com/kelp/sandbox"')
    .replace('type BashTool struct{ executor sandbox.Executor }', 'type BashTool struct {\n\texecutor sandbox.Executor\n\tapprover approve.Approver\n}')
    .replace('\treturn t.executor.Execute(ctx, command)', '\tif !t.approver.Check(command) {\n\t\treturn "denied", nil\n\t}\n\treturn t.executor.Execute(ctx, command)'),
};

/** The same checker with its one implementation reading the answer in one expression. */
const asking: Record<string, string> = {
  ...approving,
  'approve/approve.go': approving['approve/approve.go']!
    .replace('\treader := bufio.NewReader(os.Stdin)\n\tanswer, _ := reader.ReadString(', '\tanswer, _ := bufio.NewReader(os.Stdin).ReadString(')
    .replace(/type Auto struct\{\}[\s\S]*$/, ''),
};

describe('a tool that runs its command through an executor interface', () => {
  it('is gated by a checker that reads the answer from stdin in one expression', async () => {
    expect(asking['approve/approve.go']).toContain('bufio.NewReader(os.Stdin).ReadString(');
    expect(asking['approve/approve.go']).not.toContain('Auto');
    const report = await audit(writeTree('kelp-ask', asking), { rubricDir: RUBRIC, factsCache: false });
    const bash = report.agent!.tools.find((t) => t.name === 'bash')!;
    expect(bash.paths.find((p) => p.sink.path === 'sandbox/local.go')).toMatchObject({ kind: 'exec', gated: true });
  });

  it('is not gated by a checker interface one of whose implementations passes everything', async () => {
    expect(approving['tools/bash.go']).toContain('t.approver.Check(command)');
    const report = await audit(writeTree('kelp-approve', approving), { rubricDir: RUBRIC, factsCache: false });
    const bash = report.agent!.tools.find((t) => t.name === 'bash')!;
    expect(bash.paths.find((p) => p.sink.path === 'sandbox/local.go')).toMatchObject({ kind: 'exec', gated: false });
  });

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
