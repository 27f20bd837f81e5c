import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * A tool that refuses some values of its own input before it acts (a command outside a list, a
 * path under a hidden folder, a pattern it blocks) checks its arguments: C3 S and C reach L1 from
 * that check, linked to its line. A branch that returns a cached value, a test of something that
 * is not the input, a key looked up in the input, a refusal nested under a dispatch on the value,
 * and a check that comes only after the command ran are no such check.
 */
const pyAgent = (shell: string, extra = ''): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "shelly"\nversion = "0.1.0"\n[project.scripts]\nshelly = "shelly.main:main"\n',
  'shelly/__init__.py': '',
  'shelly/main.py': `import json
import os
import subprocess
import sys
from openai import OpenAI

ALLOWED = {"ls", "cat", "git"}
CACHE = {}
${extra}

def run_shell(command: str) -> str:
${shell}


TOOLS = {"run_shell": run_shell}
SPECS = [{"type": "function", "function": {"name": "run_shell", "parameters": {"type": "object"}}}]


def main():
    client = OpenAI()
${chatToolLoop('SPECS', 'TOOLS[call.function.name](**json.loads(call.function.arguments))')}
`,
});

const RUN = '    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout';

async function outcome(name: string, files: Record<string, string>) {
  const run = await auditDetailed(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const c3 = run.report.criteria.find((c) => c.id === 'C3')!;
  const checks = run.results.get('model.arg-check')!.findings.map((f) => `${f.path}:${f.startLine} ${f.text}`);
  return { S: c3.levels.S, C: c3.levels.C, checks, evidence: JSON.stringify(c3.dimensions.S.evidence) };
}

describe('a tool that checks its own arguments', () => {
  it('Python: a command whose program is not on a list is refused before it runs', async () => {
    const o = await outcome('argcheck-py', pyAgent(`    if command.split()[0] not in ALLOWED:\n        return "Error: command not allowed"\n${RUN}`));
    expect(o.checks).toEqual(['shelly/main.py:12 if command.split()[0] not in ALLOWED:']);
    expect([o.S, o.C]).toEqual([1, 1]);
    expect(o.evidence).toContain('shelly/main.py#L12');
  });

  it('Python: a helper that raises on the path of a hidden file is the check, linked where it refuses', async () => {
    const helper = `def visible(path):\n    name = os.path.basename(path)\n    if name.startswith("."):\n        raise ValueError("hidden files are refused")\n    return path\n`;
    const o = await outcome('argcheck-helper', pyAgent(`    target = visible(command)\n${RUN.replace('command,', 'target,')}`, helper));
    expect(o.checks).toEqual(['shelly/main.py:11 if name.startswith("."):']);
    expect([o.S, o.C]).toEqual([1, 1]);
  });

  it('Python: a cached answer, a test of the environment, a required key, a dispatch and a check after the command refuse nothing', async () => {
    const body = [
      '    if command in CACHE:',
      '        return CACHE[command]',
      '    if "CI" in os.environ:',
      '        raise RuntimeError("not in CI")',
      '    options = {"command": command}',
      '    if "command" not in options:',
      '        raise KeyError("command is required")',
      '    if command in ("ls", "pwd"):',
      '        if len(command) > 100:',
      '            raise ValueError("refused: too long")',
      '    out = subprocess.run(command, shell=True, capture_output=True, text=True).stdout',
      '    if "password" in out:',
      '        raise ValueError("refused: output holds a secret")',
      '    return out',
    ].join('\n');
    const o = await outcome('argcheck-none', pyAgent(body));
    expect(o.checks).toEqual([]);
    expect([o.S, o.C]).toEqual([0, 0]);
  });

  it('TypeScript: a blocked pattern throws before the command runs', async () => {
    const o = await outcome('argcheck-ts', {
      'package.json': '{"name":"tsagent","version":"1.0.0","bin":{"tsagent":"dist/index.js"},"dependencies":{"ai":"4.0.0"}}',
      'src/index.ts': `import { execSync } from 'node:child_process';
import { generateText, tool } from 'ai';
import { z } from 'zod';

const BLOCKED = [/rm\\s+-rf/, /curl/];

export const bash = tool({
  description: 'run a command',
  parameters: z.object({ command: z.string() }),
  execute: async ({ command }) => {
    if (BLOCKED.some((re) => re.test(command))) {
      throw new Error('command blocked');
    }
    return execSync(command).toString();
  },
});

export async function main(prompt: string) {
  return generateText({ model: 'openai/gpt-4o', prompt, tools: { bash }, maxSteps: 5 });
}
`,
    });
    expect(o.checks).toEqual(['src/index.ts:11 if (BLOCKED.some((re) => re.test(command))) {']);
    expect([o.S, o.C]).toEqual([1, 1]);
  });

  it('Go: a command holding a denied word returns an error before it runs', async () => {
    const o = await outcome('argcheck-go', {
      'go.mod': 'module example.com/goagent\n\ngo 1.22\n\nrequire github.com/mark3labs/mcp-go v0.30.0\n',
      'main.go': `package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func runShell(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	command := req.GetString("command", "")
	if strings.Contains(command, "sudo") {
		return nil, fmt.Errorf("refused: %s", command)
	}
	out, err := exec.Command("sh", "-c", command).Output()
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(out)), nil
}

func main() {
	s := server.NewMCPServer("goagent", "1.0.0")
	s.AddTool(mcp.NewTool("run_shell", mcp.WithString("command")), runShell)
	server.ServeStdio(s)
}
`,
    });
    expect(o.checks).toEqual(['main.go:15 if strings.Contains(command, "sudo") {']);
    expect([o.S, o.C]).toEqual([1, 1]);
  });
});
