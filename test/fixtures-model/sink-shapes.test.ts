import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { summaryParagraph } from '../../src/render/prose.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Three sink shapes and the re-verification of runners found as sinks. A Go MCP server whose edit
 * tool writes through a name bound to os.WriteFile (the usual seam for stubbing it in tests); a
 * Python server whose helper opens the file with a mode kept in a name; a TypeScript agent that compiles the model's reply with `new Function`. Both run unasked, so the
 * caps fire, and every cited place re-reads as cited.
 */
const goServer = (binding: string, call: string): Record<string, string> => ({
  'go.mod': 'module example.com/lspmcp\n\ngo 1.22\n',
  'main.go': `package main

import (
	"context"

	"example.com/lspmcp/internal/edits"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("lspmcp", "0.1.0")
	editTool := mcp.NewTool("edit_file", mcp.WithDescription("Replace text in a file"), mcp.WithString("path"), mcp.WithString("text"))
	s.AddTool(editTool, func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		path, _ := request.Params.Arguments["path"].(string)
		text, _ := request.Params.Arguments["text"].(string)
		if err := edits.Apply(path, text); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText("ok"), nil
	})
	server.ServeStdio(s)
}
`,
  'internal/edits/apply.go': `package edits

import "os"

var (
	${binding}
)

// Apply writes the new text of a file.
func Apply(path string, text string) error {
	return ${call}(path, []byte(text), 0644)
}
`,
});

const tsAgent: Record<string, string> = {
  'package.json': '{ "name": "sandboxed", "version": "1.0.0", "dependencies": { "openai": "^4.0.0" } }\n',
  'src/agent.ts': `import OpenAI from 'openai';

const client = new OpenAI();

export function evaluateCode(code: string, context: Record<string, unknown>) {
  const run = new Function('context', \`
    with (context) {
      \${code}
    }
  \`);
  return run(context);
}

export async function main(task: string) {
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: task }] });
  return evaluateCode(reply.choices[0]!.message.content ?? '', {});
}

main(process.argv[2] ?? '');
`,
};

// A Python MCP server whose write tool goes through a helper that keeps the file mode in a name.
const pyServer = (mode: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "notes-mcp"\nversion = "0.1.0"\n[project.scripts]\nnotes-mcp = "notes_mcp.server:main"\n',
  'notes_mcp/__init__.py': '',
  'notes_mcp/files.py': `import anyio


async def write_text(path: str, content: str) -> None:
    file_mode = "${mode}"
    async with await anyio.open_file(path, file_mode, encoding="utf-8") as f:
        await f.write(content)
`,
  'notes_mcp/server.py': `from mcp.server.fastmcp import FastMCP

from notes_mcp.files import write_text

mcp = FastMCP("notes")


@mcp.tool()
async def save_note(path: str, text: str) -> str:
    await write_text(path, text)
    return "saved"


def main():
    mcp.run()
`,
});

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
const capped = (report: Awaited<ReturnType<typeof score>>) => report.criteria.filter((c) => c.cap !== null).map((c) => c.id);
const sites = (report: Awaited<ReturnType<typeof score>>) => report.agent!.tools.flatMap((t) => [t.site, ...t.paths.map((p) => p.sink)]);
/** The tool reaches that one kind with nobody asked, the C2 cap fires, and every cited place re-reads as cited. */
const expectUngated = (report: Awaited<ReturnType<typeof score>>, name: string, reach: string) => {
  const tool = report.agent!.tools.find((t) => t.name === name)!;
  expect({ reaches: tool.reaches, status: tool.status }).toEqual({ reaches: [reach], status: 'ungated' });
  expect(capped(report)).toContain('C2');
  expect(sites(report).every((s) => s.verified)).toBe(true);
};

describe('sinks written through a binding or compiled from text', () => {
  it('a Go write through a name bound to os.WriteFile is a file write: the edit tool writes unasked', async () => {
    const report = await score('go-write-alias', goServer('osWriteFile = os.WriteFile', 'osWriteFile'));
    expectUngated(report, 'edit_file', 'write');
  });

  it("a binding to a call's result is no alias: a variable holding what os.Getwd returned writes nothing", async () => {
    const report = await score('go-write-not-alias', goServer('cwd, _ = os.Getwd()', 'os.WriteFile'));
    // The direct call still writes; the binding adds no second sink of its own.
    const tool = report.agent!.tools.find((t) => t.name === 'edit_file')!;
    expect(tool.paths.filter((p) => p.kind === 'write')).toHaveLength(1);
  });

  it('a Python file opened with a write mode held in a name is a file write; a read mode is not', async () => {
    const report = await score('py-mode-name', pyServer('w'));
    expectUngated(report, 'save_note', 'write');
    const reading = await score('py-mode-name-read', pyServer('r'));
    expect(reading.agent!.tools.find((t) => t.name === 'save_note')!.reaches).not.toContain('write');
  });

  it("new Function over the model's reply runs it: an ungated code runner whose site re-verifies", async () => {
    const report = await score('ts-new-function', tsAgent);
    const runner = report.agent!.tools.find((t) => t.construct === 'code runner')!;
    expect(runner).toMatchObject({ name: 'evaluateCode', reaches: ['exec'], status: 'ungated' });
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
    expect(sites(report).every((s) => s.verified)).toBe(true);
  });
});

// A Go MCP server whose tool closes an issue through a service client: a mutating method given the
// request context. An in-memory cache's Delete (no context) is no remote change.
const issueServer = (body: string): Record<string, string> => ({
  'go.mod': 'module example.com/issues\n\ngo 1.22\n',
  'main.go': `package main

import (
	"context"

	"github.com/google/go-github/v69/github"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

var cache = map[string]string{}

func main() {
	client := github.NewClient(nil)
	s := server.NewMCPServer("issues", "0.1.0")
	closeTool := mcp.NewTool("close_issue", mcp.WithDescription("Close an issue"), mcp.WithString("repo"), mcp.WithNumber("number"))
	s.AddTool(closeTool, func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		repo, _ := request.Params.Arguments["repo"].(string)
		number, _ := request.Params.Arguments["number"].(float64)
${body}
		return mcp.NewToolResultText("done"), nil
	})
	server.ServeStdio(s)
}
`,
});

describe('a service client\'s mutating call', () => {
  it('is a remote change: an ungated tool that makes one fires the C2 cap', async () => {
    const report = await score('go-remote-write', issueServer('\t\t_, _, err := client.Issues.Edit(ctx, "acme", repo, int(number), &github.IssueRequest{State: github.Ptr("closed")})\n\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}'));
    expectUngated(report, 'close_issue', 'remote');
    // The summary says so as the Tools table does: the tool acts with nobody asked.
    expect(summaryParagraph(report)).toMatch(/`close_issue` acts with nobody asked: `close_issue` changes a remote service/);
  });

  it('is not a map or cache entry removed in memory', async () => {
    const report = await score('go-local-delete', issueServer('\t\tdelete(cache, repo)\n\t\t_ = number'));
    expect(report.agent!.tools.find((t) => t.name === 'close_issue')!.reaches).toEqual([]);
    expect(capped(report)).not.toContain('C2');
  });
});


// A Python MCP server whose command tool calls a method of a module-level helper object, which
// starts the shell with its argument list built by concatenation (`['powershell', '-Command'] + …`).
const shellServer = (argv: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "desk-mcp"\nversion = "0.1.0"\n',
  'desk/__init__.py': `import subprocess


class Host:
    def run_command(self, command: str) -> tuple[str, int]:
        result = subprocess.run(${argv}, capture_output=True)
        return (result.stdout.decode(), result.returncode)
`,
  'main.py': `from mcp.server.fastmcp import FastMCP

from desk import Host

mcp = FastMCP("desk")
host = Host()


@mcp.tool()
def shell_tool(command: str) -> str:
    out, status = host.run_command(command)
    return f"{status}: {out}"


if __name__ == "__main__":
    mcp.run()
`,
});

describe('a shell started with an argument list built by concatenation', () => {
  it("runs the caller's command: the tool runs commands unasked and the C2 and C4 caps fire", async () => {
    const report = await score('py-shell-concat', shellServer("['powershell', '-Command'] + command.split()"));
    expectUngated(report, 'shell_tool', 'exec');
    expect(capped(report)).toContain('C4');
  });

  it('a fixed program with concatenated arguments only starts that program', async () => {
    const report = await score('py-program-concat', shellServer("['git', 'log'] + command.split()"));
    expect(report.agent!.tools.find((t) => t.name === 'shell_tool')!.reaches).not.toContain('exec');
  });
});

// The same server whose helper runs a command line through os.system.
const systemServer = (line: string): Record<string, string> => ({
  ...shellServer("['true']"),
  'desk/__init__.py': `import os


class Host:
    def run_command(self, command: str) -> tuple[str, int]:
        status = os.system(${line})
        return ("", status)
`,
});

// A harness with no tool that, after the model replied, saves its settings or runs the script it wrote.
const saver = (line: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "scribe"\nversion = "0.1.0"\n',
  'scribe/__init__.py': '',
  'scribe/main.py': `import os

from openai import OpenAI

client = OpenAI()


def save(config_path: str, out_dir: str, script: str) -> None:
    os.system(${line})


def main() -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Write a script"}])
    script = reply.choices[0].message.content
    with open("out.py", "w") as f:
        f.write(script)
    save("settings.toml", "runs", "out.py")


if __name__ == "__main__":
    main()
`,
});

describe('a command line handed to os.system', () => {
  it("is a shell running the caller's text, even with its program written out (the arguments can carry `; rm …`)", async () => {
    expectUngated(await score('py-system-fixed', systemServer('" ".join(["cp", command, "/tmp/backup"])')), 'shell_tool', 'exec');
    expectUngated(await score('py-system-command', systemServer('command')), 'shell_tool', 'exec');
  });

  it('run by the harness with its program written out (a copy of its settings) is no code runner; one that starts an interpreter is', async () => {
    const copy = await score('py-system-copy', saver('" ".join(["cp", config_path, out_dir])'));
    expect(copy.agent!.tools.filter((t) => t.construct === 'code runner')).toEqual([]);
    expect(capped(copy)).not.toContain('C4');
    const run = await score('py-system-run', saver('f"python {script}"'));
    expect(run.agent!.tools.filter((t) => t.construct === 'code runner').map((t) => t.status)).toEqual(['ungated']);
    expect(capped(run)).toContain('C4');
  });
});
