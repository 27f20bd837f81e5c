import { describe, expect, it } from 'vitest';
import { auditTools, goToolLoop } from '../helpers.js';

/**
 * A Go agent whose tools are a table of empty values of its own tool types (`"shell": ShellTool{}`),
 * each with a description, a schema and the method that runs it; the loop looks the model's call up
 * in the table and calls that method. The method that takes the model's input is the handler: the
 * shell runs unasked (C2 cap), and the weather tool reaches the network only.
 */
const files: Record<string, string> = {
  'go.mod': 'module example.com/kube\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.40.0\n',
  'tools/tool.go': `package tools

import (
	"net/http"
	"os/exec"
)

type Tool interface {
	Description() string
	InputSchema() string
	ToolFunc(input string) (string, error)
}

var CopilotTools = map[string]Tool{
	"shell":   ShellTool{},
	"weather": &WeatherTool{},
}

type ShellTool struct{}

func (s ShellTool) Description() string { return "Run a shell command" }

func (s ShellTool) InputSchema() string { return "the command" }

func (s ShellTool) ToolFunc(command string) (string, error) {
	out, err := exec.Command("sh", "-c", command).CombinedOutput()
	return string(out), err
}

type WeatherTool struct{}

func (w *WeatherTool) Description() string { return "Look up the weather" }

func (w *WeatherTool) InputSchema() string { return "a city" }

func (w *WeatherTool) ToolFunc(city string) (string, error) {
	resp, err := http.Get("https://wttr.in/" + city)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Status, nil
}
`,
  'main.go': `package main

import (
	"context"
	"fmt"
	"os"

	openai "github.com/sashabaranov/go-openai"

	"example.com/kube/tools"
)

${goToolLoop('run(ctx context.Context, prompt string)', `			out := "unknown tool"
			if tool, ok := tools.CopilotTools[call.Function.Name]; ok {
				out, _ = tool.ToolFunc(call.Function.Arguments)
			}`)}
func main() {
	if err := run(context.Background(), os.Args[1]); err != nil {
		fmt.Println(err)
	}
}
`,
};

describe('a Go table of empty tool-type values', () => {
  it("runs each type's input-taking method: the shell unasked, the weather on the network", async () => {
    const { tools, caps } = await auditTools('kube', files);
    expect(tools.shell).toMatchObject({ reaches: ['exec'], status: 'ungated' });
    expect(tools.weather?.reaches).toEqual(['net']);
    expect(caps).toContain('C2');
  });
});
