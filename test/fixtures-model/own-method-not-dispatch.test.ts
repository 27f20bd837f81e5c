import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, goToolLoop, writeTree } from '../helpers.js';

/**
 * A Go agent whose tools each define `Execute`, dispatched by the loop unasked. Its migration
 * command asks before it runs a step of its own type (`if !Confirm() { return }` then
 * `m.Execute(actions)`, with `func (m *Migrator) Execute` in the same file). That call is the
 * migrator's own method, not a tool the code looked up: the ask gates no tool.
 */
const files: Record<string, string> = {
  'go.mod': 'module example.com/claw\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.20.0\n',
  'pkg/tools/tools.go': `package tools

import (
	"context"
	"os"
	"os/exec"
)

type Tool interface {
	Name() string
	Execute(ctx context.Context, args map[string]string) (string, error)
}

type ShellTool struct{}

func (t *ShellTool) Name() string { return "exec" }

func (t *ShellTool) Execute(ctx context.Context, args map[string]string) (string, error) {
	out, err := exec.CommandContext(ctx, "sh", "-c", args["command"]).CombinedOutput()
	return string(out), err
}

type WriteTool struct{}

func (t *WriteTool) Name() string { return "write_file" }

func (t *WriteTool) Execute(ctx context.Context, args map[string]string) (string, error) {
	return "ok", os.WriteFile(args["path"], []byte(args["content"]), 0o644)
}

func All() []Tool { return []Tool{&ShellTool{}, &WriteTool{}} }
`,
  'pkg/agent/loop.go': `package agent

import (
	"context"

	openai "github.com/sashabaranov/go-openai"

	"example.com/claw/pkg/tools"
)

func byName() map[string]tools.Tool {
	m := map[string]tools.Tool{}
	for _, t := range tools.All() {
		m[t.Name()] = t
	}
	return m
}

${goToolLoop('Run(ctx context.Context, prompt string)', '\t\t\tout, _ := byName()[call.Function.Name].Execute(ctx, map[string]string{"command": call.Function.Arguments})')}`,
  'pkg/migrate/migrate.go': `package migrate

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

type Options struct {
	Force bool
}

type Migrator struct{}

func Confirm() bool {
	fmt.Print("Proceed? [y/N] ")
	line, _ := bufio.NewReader(os.Stdin).ReadString('\\n')
	return strings.TrimSpace(line) == "y"
}

func (m *Migrator) Run(opts Options, actions []string) error {
	if !opts.Force {
		if !Confirm() {
			return nil
		}
	}
	return m.Execute(actions)
}

func (m *Migrator) Execute(actions []string) error {
	for _, a := range actions {
		if err := os.WriteFile(a, nil, 0o644); err != nil {
			return err
		}
	}
	return nil
}
`,
  'cmd/claw/main.go': `package main

import (
	"context"

	"github.com/spf13/cobra"

	"example.com/claw/pkg/agent"
	"example.com/claw/pkg/migrate"
)

var opts migrate.Options

func main() {
	root := &cobra.Command{Use: "claw", RunE: func(cmd *cobra.Command, args []string) error {
		return agent.Run(context.Background(), args[0])
	}}
	migrateCmd := &cobra.Command{Use: "migrate", RunE: func(cmd *cobra.Command, args []string) error {
		return (&migrate.Migrator{}).Run(opts, args)
	}}
	migrateCmd.Flags().BoolVar(&opts.Force, "force", false, "Skip the confirmation")
	root.AddCommand(migrateCmd)
	_ = root.Execute()
}
`,
};

describe("a call of the caller's own file's method named like a handler", () => {
  it('is no dispatch: the ask before it gates no tool', async () => {
    const report = await audit(writeTree('claw', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools.filter((t) => t.reaches.includes('exec') || t.reaches.includes('write'));
    expect(tools.length).toBeGreaterThan(0);
    for (const t of tools) expect(t.status).toBe('ungated');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
