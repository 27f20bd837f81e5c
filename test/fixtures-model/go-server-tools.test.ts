import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Report } from '../../src/report/schema.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go agent server of its own making: tools registered through its own constructor
 * (`mcp.NewServerTool("bash", …, s.bash)`), a table grouping tool names under permissions
 * (`map[string][]string`), a skill installer that asks only before replacing a skill that is
 * already there, MCP servers started through its own process wrapper from an environment cleared
 * to a few variables, and a rounding helper that compares a `step` with 1. A reviewer reads: bash
 * and write run unasked (the C2 and C4 caps), the installer's question confirms an overwrite and
 * gates nothing else, the permission table names no tools, the extension servers start from a
 * cleared environment, and nothing caps the tool loop.
 */
const files = (confirmAlways: boolean): Record<string, string> => ({
  'go.mod': 'module example.com/hostbot\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.40.0\n',
  'pkg/mcp/tools.go': `package mcp

import "context"

type Handler func(ctx context.Context, args map[string]string) (string, error)

type ServerTool struct {
	Name        string
	Description string
	Run         Handler
}

func NewServerTool(name, description string, run Handler) ServerTool {
	return ServerTool{Name: name, Description: description, Run: run}
}

type ServerTools map[string]ServerTool

func NewServerTools(tools ...ServerTool) ServerTools {
	out := ServerTools{}
	for _, t := range tools {
		out[t.Name] = t
	}
	return out
}

func (s ServerTools) Call(ctx context.Context, name string, args map[string]string) (string, error) {
	return s[name].Run(ctx, args)
}
`,
  'pkg/servers/system/server.go': `package system

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"

	"example.com/hostbot/pkg/mcp"
)

var allowedPermsToTools = map[string][]string{
	"bash":  {"bash"},
	"write": {"write", "install_skill"},
}

type Server struct {
	dir   string
	tools mcp.ServerTools
	ask   func(ctx context.Context, question string) (bool, error)
}

func New(dir string, ask func(ctx context.Context, question string) (bool, error)) *Server {
	s := &Server{dir: dir, ask: ask}
	s.tools = mcp.NewServerTools(
		mcp.NewServerTool("bash", "Run a bash command", s.bash),
		mcp.NewServerTool("write", "Write a file", s.write),
		mcp.NewServerTool("install_skill", "Install a skill", s.installSkill),
	)
	return s
}

func (s *Server) Tools() mcp.ServerTools { return s.tools }

func (s *Server) bash(ctx context.Context, args map[string]string) (string, error) {
	out, err := exec.CommandContext(ctx, "bash", "-c", args["command"]).CombinedOutput()
	return string(out), err
}

func (s *Server) write(ctx context.Context, args map[string]string) (string, error) {
	return "ok", os.WriteFile(args["path"], []byte(args["content"]), 0o644)
}

func (s *Server) confirmOverwrite(ctx context.Context, name string) (bool, error) {
	return s.ask(ctx, "Replace the installed skill "+name+"?")
}

func (s *Server) installSkill(ctx context.Context, args map[string]string) (string, error) {
	target := filepath.Join(s.dir, "skills", args["name"])
${
  confirmAlways
    ? `	ok, err := s.confirmOverwrite(ctx, args["name"])
	if err != nil || !ok {
		return "declined", err
	}
`
    : `	if _, err := os.Stat(target); err == nil {
		ok, err := s.confirmOverwrite(ctx, args["name"])
		if err != nil || !ok {
			return "declined", err
		}
	}
`
}	return "installed", os.WriteFile(target, []byte(args["body"]), 0o644)
}

func roundUp(value, step int) int {
	if step <= 1 {
		return value
	}
	return value + (step - value%step)
}
`,
  'pkg/runner/runner.go': `package runner

import (
	"context"
	"os"
	"strings"

	"example.com/hostbot/pkg/supervise"
)

type Server struct {
	Command string
	Args    []string
	Env     []string
}

var allowedEnv = map[string]bool{"PATH": true, "HOME": true}

func cleanOSEnv() []string {
	var out []string
	for _, e := range os.Environ() {
		if k, _, ok := strings.Cut(e, "="); ok && allowedEnv[k] {
			out = append(out, e)
		}
	}
	return out
}

func Start(ctx context.Context, config Server) error {
	command := os.ExpandEnv(config.Command)
	cmd := supervise.Cmd(ctx, command, config.Args...)
	cmd.Env = append(cleanOSEnv(), config.Env...)
	return cmd.Start()
}
`,
  'pkg/supervise/supervise.go': `package supervise

import (
	"context"
	"os/exec"
)

func Cmd(ctx context.Context, name string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, name, args...)
}
`,
  'main.go': `package main

import (
	"bufio"
	"context"
	"fmt"
	"os"

	openai "github.com/sashabaranov/go-openai"

	"example.com/hostbot/pkg/runner"
	"example.com/hostbot/pkg/servers/system"
)

func ask(ctx context.Context, question string) (bool, error) {
	fmt.Print(question + " [y/N] ")
	line, err := bufio.NewReader(os.Stdin).ReadString('\\n')
	return line == "y\\n", err
}

func main() {
	ctx := context.Background()
	_ = runner.Start(ctx, runner.Server{Command: os.Getenv("MCP_COMMAND")})
	srv := system.New(os.Getenv("HOME"), ask)
	client := openai.NewClient(os.Getenv("OPENAI_API_KEY"))
	history := []openai.ChatCompletionMessage{{Role: "user", Content: os.Args[1]}}
	for {
		resp, err := client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "gpt-4o", Messages: history})
		if err != nil {
			return
		}
		msg := resp.Choices[0].Message
		history = append(history, msg)
		if len(msg.ToolCalls) == 0 {
			return
		}
		for _, call := range msg.ToolCalls {
			out, _ := srv.Tools().Call(ctx, call.Function.Name, map[string]string{"command": call.Function.Arguments})
			history = append(history, openai.ChatCompletionMessage{Role: "tool", ToolCallID: call.ID, Content: out})
		}
	}
}
`,
});

const found = (report: Report, probe: string): boolean => report.criteria.some((c) => Object.values(c.dimensions).some((d) => d.evidence.some((e) => e.kind === 'lines' && e.probe === probe)));

describe('a Go agent server with tools built by its own constructor', () => {
  it('finds the tools, not the names a permission table groups, and sees bash and write run unasked', async () => {
    const report = await audit(writeTree('hostbot', files(false)), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools;
    expect(tools.map((t) => t.name).sort()).toEqual(['bash', 'install_skill', 'write']);
    const bash = tools.find((t) => t.name === 'bash')!;
    expect(bash.paths.some((p) => p.kind === 'exec' && !p.gated)).toBe(true);
    const cap = (id: string) => report.criteria.find((c) => c.id === id)!.cap;
    expect(cap('C2')).toBe(0.25);
    expect(cap('C4')).toBe(0.2);
  });

  it('reads a question asked only when the skill already exists as an overwrite check, not an approval', async () => {
    const report = await audit(writeTree('hostbot', files(false)), { rubricDir: RUBRIC, factsCache: false });
    const install = report.agent!.tools.find((t) => t.name === 'install_skill')!;
    const write = install.paths.find((p) => p.kind === 'write')!;
    expect(write).toMatchObject({ gated: false, gate: { kind: 'overwrite' } });
    expect(report.criteria.find((c) => c.id === 'C2')!.levels.S).toBe(0);
  });

  it('reads the same question asked before every install as the approval it is', async () => {
    const report = await audit(writeTree('hostbot', files(true)), { rubricDir: RUBRIC, factsCache: false });
    const install = report.agent!.tools.find((t) => t.name === 'install_skill')!;
    expect(install.paths.find((p) => p.kind === 'write')).toMatchObject({ gated: true });
    expect(report.criteria.find((c) => c.id === 'C2')!.levels.S).toBeGreaterThan(0);
  });

  it('sees the extension servers start from a cleared environment, and no step cap in a rounding helper', async () => {
    const report = await audit(writeTree('hostbot', files(false)), { rubricDir: RUBRIC, factsCache: false });
    expect(found(report, 'ext.mcp-launch')).toBe(true);
    expect(report.criteria.find((c) => c.id === 'C7')!.levels.B).toBe(2);
    expect(found(report, 'limits.step-cap')).toBe(false);
  });
});
