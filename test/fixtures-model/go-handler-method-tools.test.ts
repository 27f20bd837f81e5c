import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';
import { GO_TOOLS_MAIN as MAIN } from './support.js';

/**
 * A Go tool written as a type whose `Declaration()` returns the schema the model sees (`Name:
 * "bash"`) and whose `Handler()` hands back the function that runs it: each such type is a tool
 * named by its declaration, its handler is that function, and what the function takes
 * (`params map[string]any`) is the model's input, so a write at `params["path"]` is the model's.
 */

const TOOLS = `package tools

import (
	"context"
	"os"
	"os/exec"

	"example.com/agent/pkg/ai"
)

type Tool interface {
	Declaration() *ai.FunctionDeclaration
	Handler() ai.HandlerFunc
}

func All() []Tool { return []Tool{&BashTool{}, &WriteTool{}, &ClockTool{}} }

type BashTool struct{}

func (b *BashTool) Declaration() *ai.FunctionDeclaration {
	return &ai.FunctionDeclaration{
		Name:        "bash",
		Description: "Runs a shell command",
	}
}

func (b *BashTool) Handler() ai.HandlerFunc {
	return func(ctx context.Context, params map[string]any) (map[string]any, error) {
		command, _ := params["command"].(string)
		return b.execute(ctx, command)
	}
}

func (b *BashTool) execute(ctx context.Context, command string) (map[string]any, error) {
	out, err := exec.CommandContext(ctx, "bash", "-c", command).CombinedOutput()
	return map[string]any{"results": string(out)}, err
}

type WriteTool struct{ logPath string }

func (w *WriteTool) Declaration() *ai.FunctionDeclaration {
	return &ai.FunctionDeclaration{Name: "writeFile", Description: "Writes a file"}
}

func (w *WriteTool) Handler() ai.HandlerFunc {
	return func(ctx context.Context, args map[string]any) (map[string]any, error) {
		path, _ := args["path"].(string)
		content, _ := args["content"].(string)
		_ = os.WriteFile(w.logPath, []byte("write"), 0o600)
		return nil, os.WriteFile(path, []byte(content), 0o644)
	}
}

type ClockTool struct{}

func (c *ClockTool) Declaration() *ai.FunctionDeclaration {
	return &ai.FunctionDeclaration{Name: "clock", Description: "Tells the time"}
}

// (A type that has a method running it keeps that one as its handler.)
func (c *ClockTool) Run(ctx context.Context, zone string) (string, error) { return zone, nil }

func (c *ClockTool) Handler() ai.HandlerFunc {
	return func(ctx context.Context, params map[string]any) (map[string]any, error) {
		out, err := c.Run(ctx, "UTC")
		return map[string]any{"time": out}, err
	}
}
`;

describe('Go tools whose Handler() returns the function that runs them', () => {
  it('names each by its declaration, reaches what the returned function runs, and reads its parameters as the model input', async () => {
    const { tools, caps } = await auditTools('go-handler-method', { 'go.mod': 'module example.com/agent\n\ngo 1.22\n', 'cmd/main.go': MAIN, 'pkg/tools/tools.go': TOOLS });
    expect(Object.keys(tools).sort()).toEqual(['bash', 'clock', 'writeFile']);
    expect(tools['bash']!.reaches).toEqual(['exec']);
    expect(tools['bash']!.status).toBe('ungated');
    expect(tools['bash']!.paths[0]!.via).toEqual(['Handler', 'execute']);
    // The path the model gives is its write (not the harness's own, as a write at a path the tool holds is).
    expect(tools['writeFile']!.reaches).toContain('write');
    expect(tools['writeFile']!.status).toBe('ungated');
    expect(tools['clock']!.handler!.line).toBe(tools['clock']!.site.line);
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});
