import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go harness with two string-keyed maps named for commands: a table from tool name to handler,
 * and a set of command names (`map[string]bool`) it skips. Only the table names tools; a set's
 * entries are no tools, and listing them would bury the real ones in the Tools section as
 * "unknown: its handler, its callers or the calls it makes could not be followed". Nor are the parameters a JSON schema's
 * `Properties` map declares, in a `tools` list of the schema's own, nor the keys of a JSON object
 * (`map[string]interface{}`) a tool is translated into, nor the variable a registration helper is
 * handed by its caller or its loop (`NewTool(name, …)`, `RegisterTool(tool)`).
 */
const dir = () =>
  writeTree('gotable', {
    'go.mod': 'module example.com/gotable\n\ngo 1.22\n',
    'agent/tools.go': `package agent

import "os/exec"

func runShell(args string) (string, error) {
	out, err := exec.Command("sh", "-c", args).CombinedOutput()
	return string(out), err
}

func readNote(args string) (string, error) { return "note", nil }

var toolHandlers = map[string]func(string) (string, error){
	"run_shell": runShell,
	"read_note": readNote,
}

var skipCommands = map[string]bool{
	"deno": true,
	"dart": true,
}

var retryCommands = map[string]int{
	"fetch": 3,
}

type Definition struct {
	Type        string
	Description string
	Properties  map[string]Definition
}

type ToolDefinition struct {
	Name        string
	InputSchema Definition
}

var tools = []ToolDefinition{
	{
		Name: "get_summary_prefix",
		InputSchema: Definition{
			Type: "object",
			Properties: map[string]Definition{
				"prefix": {Type: "string", Description: "the prefix"},
				"scope":  {Type: "string"},
			},
		},
	},
}

type Tool struct{ Name string }

type Registry struct{ tools map[string]Tool }

func NewTool(name string, opts ...string) Tool { return Tool{Name: name} }

func (r *Registry) RegisterTool(t Tool) { r.tools[t.Name] = t }

func newNamedTool(name string) Tool {
	return NewTool(name, "described")
}

func registerAll(r *Registry, all []Tool) {
	for _, tool := range all {
		r.RegisterTool(tool)
	}
}

func toOpenAI(tools []map[string]interface{}) []interface{} {
	var openAITools []interface{}
	for _, t := range tools {
		openAITools = append(openAITools, map[string]interface{}{
			"type": "function",
			"function": map[string]interface{}{
				"name":       t["name"],
				"parameters": t["input_schema"],
			},
		})
	}
	return openAITools
}
`,
    'agent/loop.go': `package agent

import (
	"context"
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

func Step(ctx context.Context, client *openai.Client, history []openai.ChatCompletionMessage) error {
	resp, err := client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "gpt-4o", Messages: history})
	if err != nil {
		return err
	}
	for _, call := range resp.Choices[0].Message.ToolCalls {
		if skipCommands[call.Function.Name] || retryCommands[call.Function.Name] > 5 {
			continue
		}
		out, _ := toolHandlers[call.Function.Name](call.Function.Arguments)
		fmt.Println(out)
	}
	return nil
}
`,
  });

describe('a Go map of names to plain values', () => {
  it('names no tool, while the map of names to handlers beside it names each of its tools', async () => {
    const report = await audit(dir(), { rubricDir: RUBRIC, factsCache: false });
    const names = report.agent!.tools.map((t) => t.name).sort();
    expect(names).toEqual(['read_note', 'run_shell']);
    expect(report.agent!.tools.find((t) => t.name === 'run_shell')).toMatchObject({ construct: 'dispatch-map', reaches: ['exec'] });
  });
});
