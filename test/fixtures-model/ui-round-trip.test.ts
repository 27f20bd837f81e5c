import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An approval that is a round trip through the UI: the agent loop posts a request for the user's
 * choice and moves on (`continue`) until the answer comes back, and dispatches the pending calls
 * on a later pass, through helpers of its own, to each tool's `Call`. Every tool is gated there.
 * A request posted without leaving (the loop dispatches straight after) waits for nothing.
 */
const agent = (afterPost: string): Record<string, string> => ({
  'go.mod': 'module example.com/pilot\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.36.0\n',
  'tools.go': `package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
)

type Tool interface {
	Name() string
	Call(ctx context.Context, args json.RawMessage) (string, error)
}

type ShellTool struct{}

func (ShellTool) Name() string { return "run_shell" }

func (t ShellTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var in struct {
		Command string \`json:"command"\`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, "bash", "-c", in.Command).CombinedOutput()
	return string(out), err
}

type WriteTool struct{}

func (WriteTool) Name() string { return "write_file" }

func (t WriteTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var in struct {
		Path    string \`json:"path"\`
		Content string \`json:"content"\`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return "", err
	}
	return "written", os.WriteFile(in.Path, []byte(in.Content), 0o644)
}
`,
  'agent.go': `package main

import (
	"context"
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
)

type ChoiceRequest struct {
	Prompt  string
	Options []string
}

type Pending struct {
	tool Tool
	args json.RawMessage
}

type Agent struct {
	client   *openai.Client
	tools    map[string]Tool
	input    chan string
	output   chan any
	pending  []Pending
	approved bool
}

func (a *Agent) Run(ctx context.Context, task string) {
	go func() {
		messages := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: task}}
		for step := 0; step < 30; step++ {
			if len(a.pending) == 0 {
				resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "gpt-4o", Messages: messages})
				if err != nil {
					return
				}
				for _, call := range resp.Choices[0].Message.ToolCalls {
					a.pending = append(a.pending, Pending{tool: a.tools[call.Function.Name], args: json.RawMessage(call.Function.Arguments)})
				}
				a.approved = false
			}
			if !a.approved {
				choice := &ChoiceRequest{Prompt: "The agent wants to run " + describe(a.pending) + ". Proceed?", Options: []string{"yes", "no"}}
				a.output <- choice
${afterPost}
			}
			if err := a.dispatchPending(ctx); err != nil {
				return
			}
		}
	}()
}

func (a *Agent) dispatchPending(ctx context.Context) error {
	for _, p := range a.pending {
		if _, err := a.invoke(ctx, p); err != nil {
			return err
		}
	}
	a.pending = nil
	return nil
}

func (a *Agent) invoke(ctx context.Context, p Pending) (string, error) {
	return p.tool.Call(ctx, p.args)
}

func describe(pending []Pending) string {
	out := ""
	for _, p := range pending {
		out += p.tool.Name() + " " + string(p.args) + "; "
	}
	return out
}
`,
  'main.go': `package main

import (
	"context"
	"os"

	openai "github.com/sashabaranov/go-openai"
)

func main() {
	a := &Agent{client: openai.NewClient(os.Getenv("OPENAI_API_KEY")), tools: map[string]Tool{"run_shell": ShellTool{}, "write_file": WriteTool{}}, input: make(chan string), output: make(chan any)}
	a.Run(context.Background(), os.Args[1])
	for answer := range a.input {
		a.approved = answer == "yes"
	}
}
`,
});

async function statuses(name: string, afterPost: string) {
  const run = await auditDetailed(writeTree(name, agent(afterPost)), { rubricDir: RUBRIC, factsCache: false });
  const tools = run.report.agent?.tools ?? [];
  return Object.fromEntries(tools.filter((t) => t.reaches.length).map((t) => [t.name, t.status]));
}

describe('an approval that is a round trip through the UI', () => {
  it('a request posted before the loop moves on gates every tool the later pass dispatches', async () => {
    expect(await statuses('round-trip', '\t\t\t\tcontinue')).toEqual({ run_shell: 'gated', write_file: 'gated' });
  });

  it('a request posted with no wait before the dispatch gates nothing', async () => {
    expect(await statuses('round-trip-none', '\t\t\t\t_ = choice')).toEqual({ run_shell: 'ungated', write_file: 'ungated' });
  });
});
