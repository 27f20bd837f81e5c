import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { goToolLoop, RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go agent that asks before each tool call and then hands the call to a helper named for running
 * it (`executeToolInternal`), which calls a tool service that more than one type implements (the
 * service itself and a tracing wrapper around it) before the tool's `Execute` runs: the ask stands
 * before every tool the service dispatches.
 */
const files: Record<string, string> = {
  'go.mod': 'module example.com/coder\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.20.0\n',
  'tools/bash.go': `package tools

import (
	"context"
	"os/exec"
)

type BashTool struct{}

func (t *BashTool) Execute(ctx context.Context, args map[string]any) (string, error) {
	out, err := exec.CommandContext(ctx, "bash", "-c", args["command"].(string)).CombinedOutput()
	return string(out), err
}
`,
  'tools/write.go': `package tools

import (
	"context"
	"os"
)

type WriteTool struct{}

func (t *WriteTool) Execute(ctx context.Context, args map[string]any) (string, error) {
	return "written", os.WriteFile(args["path"].(string), []byte(args["content"].(string)), 0o644)
}
`,
  'tools/service.go': `package tools

import "context"

type Tool interface {
	Execute(ctx context.Context, args map[string]any) (string, error)
}

type LocalService struct {
	tools map[string]Tool
}

func (s *LocalService) ExecuteTool(ctx context.Context, name string, args map[string]any) (string, error) {
	tool := s.tools[name]
	return tool.Execute(ctx, args)
}

type TracedService struct {
	inner *LocalService
}

func (t *TracedService) ExecuteTool(ctx context.Context, name string, args map[string]any) (string, error) {
	return t.inner.ExecuteTool(ctx, name, args)
}
`,
  'agent/agent.go': `package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"example.com/coder/tools"
	openai "github.com/sashabaranov/go-openai"
)

type Agent struct {
	toolService *tools.TracedService
}

func (a *Agent) requestToolApproval(name string, args map[string]any) bool {
	fmt.Printf("Run %s with %v? [y/N] ", name, args)
	line, _ := bufio.NewReader(os.Stdin).ReadString('\\n')
	return strings.TrimSpace(line) == "y"
}

func (a *Agent) executeTool(ctx context.Context, name string, args map[string]any) (string, error) {
	if !a.requestToolApproval(name, args) {
		return "rejected by the user", nil
	}
	return a.executeToolInternal(ctx, name, args)
}

func (a *Agent) executeToolInternal(ctx context.Context, name string, args map[string]any) (string, error) {
	return a.toolService.ExecuteTool(ctx, name, args)
}

${goToolLoop('(a *Agent) Run(ctx context.Context, prompt string)', `			var args map[string]any
			_ = json.Unmarshal([]byte(call.Function.Arguments), &args)
			out, _ := a.executeTool(ctx, call.Function.Name, args)`)}`,
};

describe('an ask before a helper that hands the call to a tool service', () => {
  it('gates the tools the service dispatches', async () => {
    const report = await audit(writeTree('coder', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t.paths.map((p) => p.gated)]));
    expect(tools).toEqual({ BashTool: [true], WriteTool: [true] });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });
});
