import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go assistant whose tool definitions name their handler by a callback field (`ToolAnyCallback`)
 * and declare their ask by a `ToolApproval` field, which the harness reads off each tool before it
 * runs it. The file writer declares one and is gated; the page fetcher declares none and runs
 * unasked. Without the harness reading the field, the declaration asks nothing.
 */
const files = (honoured: boolean): Record<string, string> => ({
  'go.mod': 'module example.com/termai\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.40.0\n',
  'tools/tools.go': `package tools

import (
	"io"
	"net/http"
	"os"
)

type ToolDefinition struct {
	Name            string
	Description     string
	ToolAnyCallback func(input map[string]string) (any, error)
	ToolApproval    func(input map[string]string) string
}

func writeFileCallback(input map[string]string) (any, error) {
	return nil, os.WriteFile(input["path"], []byte(input["content"]), 0o644)
}

func WriteFileTool() ToolDefinition {
	return ToolDefinition{
		Name:            "write_file",
		Description:     "Write a file",
		ToolAnyCallback: writeFileCallback,
		ToolApproval: func(input map[string]string) string {
			return "needs-approval"
		},
	}
}

func fetchCallback(input map[string]string) (any, error) {
	resp, err := http.Get(input["url"])
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func FetchTool() ToolDefinition {
	return ToolDefinition{
		Name:            "fetch_page",
		Description:     "Fetch a web page",
		ToolAnyCallback: fetchCallback,
	}
}
`,
  'main.go': `package main

import (
	"context"
	"fmt"
	"os"

	openai "github.com/sashabaranov/go-openai"

	"example.com/termai/tools"
)

// The panel shows each call whose tool declares it needs approval and waits for the click.
var approvals = map[string]string{}

func run(def tools.ToolDefinition, input map[string]string) (any, error) {
${honoured ? '\tif def.ToolApproval != nil {\n\t\tapprovals[def.Name] = def.ToolApproval(input)\n\t}\n' : ''}	return def.ToolAnyCallback(input)
}

func main() {
	defs := map[string]tools.ToolDefinition{"write_file": tools.WriteFileTool(), "fetch_page": tools.FetchTool()}
	client := openai.NewClient(os.Getenv("OPENAI_API_KEY"))
	resp, err := client.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{Model: "gpt-4o", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: os.Args[1]}}})
	if err != nil {
		return
	}
	for _, call := range resp.Choices[0].Message.ToolCalls {
		out, _ := run(defs[call.Function.Name], map[string]string{"raw": call.Function.Arguments})
		fmt.Println(out)
	}
}
`,
});

describe('a Go tool definition that names its handler and declares its ask by fields', () => {
  it('is gated where the harness reads the declaration off the tool; the tool that declares none is not', async () => {
    const report = await audit(writeTree('termai', files(true)), { rubricDir: RUBRIC, factsCache: false });
    const write = report.agent!.tools.find((t) => t.name === 'write_file')!;
    const fetch = report.agent!.tools.find((t) => t.name === 'fetch_page')!;
    expect(write.reaches).toContain('write');
    expect(write.paths.filter((p) => p.kind === 'write').every((p) => p.gated)).toBe(true);
    expect(fetch.reaches).toContain('net');
    expect(fetch.paths.some((p) => p.kind === 'net' && !p.gated)).toBe(true);
  });

  it('asks nothing where the harness never reads the declaration', async () => {
    const report = await audit(writeTree('termai', files(false)), { rubricDir: RUBRIC, factsCache: false });
    const write = report.agent!.tools.find((t) => t.name === 'write_file')!;
    expect(write.paths.some((p) => p.kind === 'write' && !p.gated)).toBe(true);
  });
});
