import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { goToolLoop, RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go agent whose bash tool runs after `approval := a.hooks.ApproveTool(ctx, req)`: an approver
 * of its own that hands the request to whatever hooks are registered and, with none (none ships),
 * ends by granting it. Nobody is asked: the bash tool runs unasked and the caps fire. Where the
 * approver reads the user's answer instead, the same call is the ask.
 */
const files = (asksUser: boolean): Record<string, string> => ({
  'go.mod': 'module example.com/claw\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.40.0\n',
  'agent/hooks.go': `package agent

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
)

type ToolApprovalRequest struct {
	Tool      string
	Arguments string
}

type ApprovalDecision struct {
	Approved bool
	Reason   string
}

type ToolApprover interface {
	Check(ctx context.Context, req *ToolApprovalRequest) ApprovalDecision
}

type HookManager struct {
	approvers []ToolApprover
}

func (hm *HookManager) Register(a ToolApprover) { hm.approvers = append(hm.approvers, a) }

func (hm *HookManager) ApproveTool(ctx context.Context, req *ToolApprovalRequest) ApprovalDecision {
${asksUser ? `	fmt.Printf("Run %s %s? [y/N] ", req.Tool, req.Arguments)
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\\n')
	return ApprovalDecision{Approved: strings.TrimSpace(answer) == "y"}
` : `	for _, a := range hm.approvers {
		if d := a.Check(ctx, req); !d.Approved {
			return d
		}
	}
	_ = bufio.NewReader
	_ = fmt.Sprint
	_ = os.Stdin
	_ = strings.TrimSpace
	return ApprovalDecision{Approved: true}
`}}
`,
  'agent/loop.go': `package agent

import (
	"context"
	"os/exec"

	openai "github.com/sashabaranov/go-openai"
)

type Agent struct {
	hooks *HookManager
}

func New() *Agent { return &Agent{hooks: &HookManager{}} }

func runBash(ctx context.Context, command string) string {
	out, _ := exec.CommandContext(ctx, "bash", "-c", command).CombinedOutput()
	return string(out)
}

${goToolLoop('(a *Agent) Run(ctx context.Context, prompt string)', `			out := "denied"
			toolName := call.Function.Name
			approval := a.hooks.ApproveTool(ctx, &ToolApprovalRequest{Tool: toolName, Arguments: call.Function.Arguments})
			if approval.Approved {
				switch toolName {
				case "bash":
					out = runBash(ctx, call.Function.Arguments)
				}
			}`)}`,
  'cmd/claw/main.go': `package main

import (
	"context"
	"os"
	"strings"

	"example.com/claw/agent"
)

func main() {
	_ = agent.New().Run(context.Background(), strings.Join(os.Args[1:], " "))
}
`,
});

const bash = async (name: string, asksUser: boolean) => {
  const report = await audit(writeTree(name, files(asksUser)), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'bash');
  return { gated: tool?.paths.filter((p) => p.kind === 'exec').map((p) => p.gated), caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
};

describe('an approver of its own that grants whatever no registered hook refuses', () => {
  it('asks nobody: the bash tool runs unasked and the caps fire', async () => {
    const { gated, caps } = await bash('claw-default-grant', false);
    expect(gated).toEqual([false]);
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('is the ask where it reads the user’s answer', async () => {
    const { gated, caps } = await bash('claw-asks-user', true);
    expect(gated).toEqual([true]);
    expect(caps).not.toContain('C2');
  });
});
