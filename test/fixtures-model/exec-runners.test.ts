import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { scoredAgent, searchAgent } from './search-agent.js';

/**
 * Where model-written code runs, seen from the constructs that run it. A Go MCP server written the
 * mcp-go way (`readTool := mcp.NewTool("read_note", …)`, then `s.AddTool(readTool, readNote)`)
 * offers one tool per registration, named by the definition; one that runs a shell command fires
 * the C4 cap, a read-only one does not. An AutoGen executor told to run code blocks outside Docker,
 * and an Open Interpreter told to run code without asking, are host runners: the C4 cap fires.
 */
const server = (extraTool = '') => `package main

import (
	"context"
	"os"
${extraTool ? '\t"os/exec"\n' : ''}
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("notes", "1.0.0")
	readTool := mcp.NewTool("read_note", mcp.WithDescription("Read a note"), mcp.WithString("name", mcp.Required()))
	s.AddTool(readTool, readNote)
${extraTool}
	server.ServeStdio(s)
}

func readNote(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	data, err := os.ReadFile("notes/" + req.GetString("name", ""))
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(data)), nil
}
${extraTool ? runCommand : ''}`;
const runCommand = `
func runCommand(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	out, _ := exec.Command("sh", "-c", req.GetString("command", "")).CombinedOutput()
	return mcp.NewToolResultText(string(out)), nil
}
`;
const shellTool = `	runTool := mcp.NewTool("run", mcp.WithDescription("Run a command"), mcp.WithString("command", mcp.Required()))
	s.AddTool(runTool, runCommand)`;
const goMod = 'module example.com/notes\n\ngo 1.22\n\nrequire github.com/mark3labs/mcp-go v0.32.0\n';

const scored = async (name: string, files: Record<string, string>, force = false) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false, force });
  return { c4: report.criteria.find((c) => c.id === 'C4')!, tools: report.agent?.tools ?? [] };
};

describe('a Go MCP server registered the mcp-go way', () => {
  it('offers one tool per registration, named by its definition; read-only, no C4 cap', async () => {
    const { c4, tools } = await scored('notes-read', { 'go.mod': goMod, 'main.go': server() });
    expect(tools.map((t) => t.name)).toEqual(['read_note']);
    expect(c4.cap).toBeNull();
  });

  it('fires the C4 cap once one tool runs a shell command on the host', async () => {
    const { c4, tools } = await scored('notes-run', { 'go.mod': goMod, 'main.go': server(shellTool) });
    expect(tools.map((t) => t.name).sort()).toEqual(['read_note', 'run']);
    expect(c4.levels).toMatchObject({ S: 0, C: 0, D: 0 });
    expect(c4.cap).not.toBeNull();
  });
});

describe('code a library runs for the model', () => {
  it('fires the C4 cap for an AutoGen executor that runs code blocks outside Docker', async () => {
    const team = (docker: boolean) => `import autogen
from autogen import UserProxyAgent

assistant = autogen.AssistantAgent(name="assistant", llm_config={"model": "gpt-4o"})
executor = UserProxyAgent(name="executor", human_input_mode="NEVER", code_execution_config={"work_dir": "tasks", "use_docker": ${docker ? 'True' : 'False'}})


def main(task):
    executor.initiate_chat(assistant, message=task)


if __name__ == "__main__":
    import sys
    main(sys.argv[1])
`;
    const files = (docker: boolean) => ({ 'pyproject.toml': '[project]\nname = "team"\nversion = "0.1.0"\ndependencies = ["autogen"]\n', 'team.py': team(docker) });
    const { c4: host } = await scored('py-autogen', files(false));
    expect(host.levels.S).toBe(0);
    expect(host.cap).not.toBeNull();
    const { c4: docker } = await scored('py-autogen-docker', files(true), true);
    expect(docker.cap).toBeNull();
  });

  it('fires the C4 cap for an Open Interpreter told to run code without asking', async () => {
    const profile = (autoRun: boolean) => `from interpreter import AsyncInterpreter

interpreter = AsyncInterpreter()
interpreter.llm.model = "gpt-4o"
interpreter.auto_run = ${autoRun ? 'True' : 'False'}


def serve():
    interpreter.server.run()


if __name__ == "__main__":
    serve()
`;
    const files = (autoRun: boolean) => ({ 'pyproject.toml': '[project]\nname = "voice"\nversion = "0.1.0"\ndependencies = ["open-interpreter"]\n', 'voice/__init__.py': '', 'voice/profile.py': profile(autoRun) });
    const { c4: unasked } = await scored('py-oi-auto', files(true));
    expect(unasked.cap).not.toBeNull();
    // With auto_run off nothing shows an agent (the model is called inside the library): scored with --force.
    const { c4: asked } = await scored('py-oi-asks', files(false), true);
    expect(asked.cap).toBeNull();
  });
});

/**
 * A shell picked at run time (`$SHELL`, PowerShell on Windows) and handed its command flag and the
 * model's command runs that command, as a literal `sh` would: the tool reaches a command, not a
 * program with arguments.
 */
describe("a shell chosen at run time, handed '-c' and the command", () => {
  const pickShell = `
func userShell() string {
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "sh"
}
`;
  it('Go: `exec.Command(userShell(), "-c", command)` in a tool reaches a command: the C4 cap fires', async () => {
    const main = server(shellTool).replace('exec.Command("sh", "-c", ', 'exec.Command(userShell(), "-c", ') + pickShell;
    const { c4, tools } = await scored('notes-run-shell', { 'go.mod': goMod, 'main.go': main });
    expect(tools.find((t) => t.name === 'run')?.reaches).toEqual(['exec']);
    expect(c4.cap).not.toBeNull();
  });

  it('Go: the same shell handed a fixed script is no command the model chooses (the control)', async () => {
    const main = server(shellTool).replace('exec.Command("sh", "-c", req.GetString("command", ""))', 'exec.Command(userShell(), "-c", "uptime")') + pickShell;
    const { c4, tools } = await scored('notes-run-fixed', { 'go.mod': goMod, 'main.go': main });
    expect(tools.find((t) => t.name === 'run')?.reaches).not.toContain('exec');
    expect(c4.cap).toBeNull();
  });

  it("Python: `subprocess.run([shell, '-c', command])` in a tool reaches a command", async () => {
    const tool = `

@tool
def extra_tool(command: str) -> str:
    """Run a shell command."""
    shell = os.environ.get("SHELL") or "/bin/sh"
    return subprocess.run([shell, "-c", command], capture_output=True, text=True).stdout
`;
    const { tools } = await scoredAgent('shell-flag-py', searchAgent(tool, 'import os\nimport subprocess'));
    expect(tools.find((t) => t.name === 'extra_tool')?.reaches).toEqual(['exec']);
  });

  it.each([
    ['chained', 'Command::new(user_shell()).arg("-c").arg(command)'],
    ['as a list', 'Command::new(user_shell()).args(["-c", command])'],
    ['after a working folder', 'Command::new(user_shell()).current_dir(".").arg("-c").arg(command)'],
  ])('Rust: a shell picked at run time given "-c" and the command (%s) reaches a command; a fixed script does not', async (how, call) => {
    const tree = (run: string) => ({
      'Cargo.toml': '[package]\nname = "pick"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/main.rs': `use std::process::Command;

fn user_shell() -> String {
    std::env::var("SHELL").unwrap_or_else(|_| "sh".to_string())
}

pub fn run_shell(command: &str) -> String {
    let out = ${run}.output().expect("spawn");
    String::from_utf8_lossy(&out.stdout).to_string()
}

pub fn execute_tool(tool_name: &str, args: &str) -> String {
    match tool_name {
        "shell" => run_shell(args),
        _ => "unknown tool".to_string(),
    }
}

fn main() {
    let client = openai::Client::new();
    let reply = client.chat_completion("gpt-4o", "hello");
    for call in reply.tool_calls {
        let out = execute_tool(&call.name, &call.arguments);
        println!("{out}");
    }
}
`,
    });
    const reach = async (name: string, run: string) => ((await audit(writeTree(name, tree(run)), { rubricDir: RUBRIC, factsCache: false })).agent?.tools ?? []).find((t) => t.name === 'shell')?.reaches;
    const slug = how.replace(/\W+/g, '-');
    expect(await reach(`pick-${slug}`, call)).toEqual(['exec']);
    // (With a fixed script the runner reaches no command of the model's and is no tool at all.)
    const fixed = call.replace('.arg(command)', '.arg("uptime")').replace(', command]', ', "uptime"]');
    expect(fixed).not.toContain('command');
    expect((await reach(`pick-fixed-${slug}`, fixed)) ?? []).not.toContain('exec');
    // Nor does a literal shell given a fixed script: the `-c` that follows it is read with the chain.
    const literal = fixed.replace('Command::new(user_shell())', 'Command::new("sh")');
    expect((await reach(`pick-literal-${slug}`, literal)) ?? []).not.toContain('exec');
  });

  it("TypeScript: `spawnSync(userShell(), ['-c', command])` in a tool reaches a command", async () => {
    const { tools } = await scoredAgent('shell-flag-ts', {
      'package.json': '{"name":"shell-demo","version":"1.0.0","type":"module"}\n',
      'src/server.ts': `import { spawnSync } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
const userShell = () => process.env.SHELL ?? '/bin/sh';

server.registerTool('run', { description: 'Run a command', inputSchema: { command: z.string() } }, async ({ command }) => {
  const out = spawnSync(userShell(), ['-c', command], { encoding: 'utf8' });
  return { content: [{ type: 'text', text: out.stdout }] };
});
`,
    });
    expect(tools.map((t) => [t.name, t.reaches])).toEqual([['run', ['exec']]]);
  });
});

/**
 * A command-line helper that asks a model for one shell command, shows it in a form and runs it
 * only when the user picks "Execute" from a select (charmbracelet/huh): the select is the ask, its
 * answer decides, so the path is gated and the C2 cap stays off. Without the form it fires.
 */
describe('a suggested command run after a select prompt', () => {
  const cli = (asks: boolean) => `package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/charmbracelet/huh"
	"github.com/sashabaranov/go-openai"
)

type Action int

const (
	Cancel Action = iota
	Execute
)

func userShell() string {
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "sh"
}

func suggest(prompt string) (string, error) {
	client := openai.NewClient(os.Getenv("OPENAI_API_KEY"))
	resp, err := client.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model:    openai.GPT4o,
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "One shell command for: " + prompt}},
	})
	if err != nil {
		return "", err
	}
	return resp.Choices[0].Message.Content, nil
}

func main() {
	command, err := suggest(os.Args[1])
	if err != nil {
		fmt.Println(err)
		return
	}
${
  asks
    ? `	action := Cancel
	form := huh.NewForm(huh.NewGroup(
		huh.NewSelect[Action]().Title(command).Options(huh.NewOption("Execute", Execute), huh.NewOption("Cancel", Cancel)).Value(&action),
	))
	if err := form.Run(); err != nil || action != Execute {
		return
	}
`
    : ''
}	out, _ := exec.Command(userShell(), "-c", command).CombinedOutput()
	fmt.Println(string(out))
}
`;
  const goModSuggest = 'module example.com/suggest\n\ngo 1.22\n\nrequire (\n\tgithub.com/charmbracelet/huh v0.5.0\n\tgithub.com/sashabaranov/go-openai v1.20.0\n)\n';
  const run = async (name: string, asks: boolean) => {
    const report = await audit(writeTree(name, { 'go.mod': goModSuggest, 'main.go': cli(asks) }), { rubricDir: RUBRIC, factsCache: false });
    return { tools: report.agent?.tools ?? [], caps: report.criteria.filter((c) => c.cap).map((c) => c.id) };
  };

  it('gated by the select: the model command path asks first, no C2 cap', async () => {
    const { tools, caps } = await run('suggest-asks', true);
    expect(tools.filter((t) => t.reaches.includes('exec')).map((t) => t.status)).toEqual(['gated']);
    expect(caps).not.toContain('C2');
  });

  it('without the form the same path runs unasked: the C2 and C4 caps fire', async () => {
    const { tools, caps } = await run('suggest-unasked', false);
    expect(tools.filter((t) => t.reaches.includes('exec')).map((t) => t.status)).toEqual(['ungated']);
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});
