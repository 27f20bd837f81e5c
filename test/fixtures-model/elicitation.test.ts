import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { auditTools, RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server that asks the user through the protocol's elicitation before running a command:
 * the client shows the question to the user, never to the model, and the tool runs only on an
 * accepted answer. That is an approval, in each language's SDK form; the same server without the
 * elicitation runs its commands unasked.
 */
const PY = (ask: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "runner"\nversion = "0.1.0"\ndependencies = ["mcp"]\n\n[project.scripts]\nrunner = "runner.server:main"\n',
  'runner/__init__.py': '',
  'runner/server.py': `import subprocess

from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("runner")


class Go(BaseModel):
    confirm: bool


@mcp.tool()
async def run_command(command: str, ctx: Context) -> str:
    """Run a shell command."""
${ask ? '    answer = await ctx.elicit(message=f"Run {command}?", schema=Go)\n    if answer.action != "accept":\n        return "declined"\n' : ''}    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def main():
    mcp.run()


if __name__ == "__main__":
    main()
`,
});

const TS = (ask: boolean): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'runner', version: '1.0.0', type: 'module', bin: { runner: 'dist/server.js' }, dependencies: { '@modelcontextprotocol/sdk': '1.17.0', zod: '3.25.0' } }),
  'src/server.ts': `import { execSync } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'runner', version: '1.0.0' });

server.registerTool('run_command', { description: 'Run a shell command', inputSchema: { command: z.string() } }, async ({ command }) => {
${ask ? "  const answer = await server.server.elicitInput({ message: `Run ${command}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } });\n  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'declined' }] };\n" : ''}  return { content: [{ type: 'text', text: execSync(command).toString() }] };
});

await server.connect(new StdioServerTransport());
`,
});

const GO = (ask: boolean, inline = false): Record<string, string> => ({
  'go.mod': 'module example.com/runner\n\ngo 1.22\n\nrequire github.com/mark3labs/mcp-go v0.32.0\n',
  'main.go': `package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func runCommand(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	command := req.GetString("command", "")
${ask ? '\tanswer, err := server.ServerFromContext(ctx).RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Run " + command + "?"}})\n\tif err != nil || answer.Action != mcp.ElicitationResponseActionAccept {\n\t\treturn mcp.NewToolResultError("declined"), nil\n\t}\n' : ''}	out, err := exec.Command("sh", "-c", command).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	return mcp.NewToolResultText(string(out)), nil
}

func main() {
	s := server.NewMCPServer("runner", "1.0.0", server.WithElicitation())
${inline ? '\ts.AddTool(mcp.NewTool("run_command", mcp.WithDescription("Run a shell command"), mcp.WithString("command", mcp.Required())), runCommand)' : '\trunTool := mcp.NewTool("run_command", mcp.WithDescription("Run a shell command"), mcp.WithString("command", mcp.Required()))\n\ts.AddTool(runTool, runCommand)'}
	if err := server.ServeStdio(s); err != nil {
		fmt.Println(err)
	}
}
`,
});

// The official Go SDK: the tool is a struct literal given to mcp.AddTool, the question a session call.
const GO_SDK = (ask: boolean): Record<string, string> => ({
  'go.mod': 'module example.com/runner\n\ngo 1.23\n\nrequire github.com/modelcontextprotocol/go-sdk v0.2.0\n',
  'main.go': `package main

import (
	"context"
	"errors"
	"log"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type Input struct {
	Command string \`json:"command"\`
}

func runCommand(ctx context.Context, req *mcp.CallToolRequest, in Input) (*mcp.CallToolResult, any, error) {
${ask ? '\tanswer, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Run " + in.Command + "?"})\n\tif err != nil || answer.Action != "accept" {\n\t\treturn nil, nil, errors.New("declined")\n\t}\n' : ''}	out, err := exec.Command("sh", "-c", in.Command).CombinedOutput()
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil, nil
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "runner", Version: "v1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "run_command", Description: "Run a shell command"}, runCommand)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
`,
});

// Rust (rmcp): tools are methods marked #[tool] in a #[tool_router] impl; the question goes to the peer.
const RUST = (ask: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "runner"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nrmcp = { version = "0.8", features = ["server", "elicitation"] }\ntokio = { version = "1", features = ["full"] }\n',
  'src/main.rs': `use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{tool, tool_handler, tool_router, ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Cmd {
    pub command: String,
}

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Go {
    pub confirm: bool,
}

#[derive(Clone)]
pub struct Runner {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[tool_router]
impl Runner {
    /// Runs what the model asks for.
    #[tool(description = "Run a shell command")]
    async fn run_command(&self, Parameters(p): Parameters<Cmd>, context: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
${ask ? '        let answer = context.peer.elicit::<Go>(format!("Run {}?", p.command)).await;\n        if !matches!(answer, Ok(Some(Go { confirm: true }))) {\n            return Ok(CallToolResult::error(vec![Content::text("declined")]));\n        }\n' : ''}        let out = std::process::Command::new("sh").arg("-c").arg(&p.command).output().map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(String::from_utf8_lossy(&out.stdout).to_string())]))
    }
}

#[tool_handler]
impl ServerHandler for Runner {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let service = Runner { tool_router: Runner::tool_router() }.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
`,
});

const shellTool = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'run_command');
  expect(tool, `run_command among ${report.agent!.tools.map((t) => t.name).join(', ')}`).toBeDefined();
  // One tool: a builder inside its registration is not a second, handlerless one.
  expect(report.agent!.tools.filter((t) => t.name === 'run_command')).toHaveLength(1);
  return { tool: tool!, caps: report.criteria.filter((c) => c.cap).map((c) => c.id) };
};

describe.each([
  ['Python (FastMCP, ctx.elicit)', PY],
  ['TypeScript (McpServer, server.server.elicitInput)', TS],
  ['Go (mcp-go, RequestElicitation)', GO],
  ['Go (mcp-go, the tool built inside the registration)', (ask: boolean) => GO(ask, true)],
  ['Go (the official SDK: a struct literal tool, Session.Elicit)', GO_SDK],
  ['Rust (rmcp: a #[tool] method, peer.elicit)', RUST],
])('an MCP server that asks by elicitation: %s', (_lang, files) => {
  it('gates its shell tool on the answer, so no approval cap fires', async () => {
    const { tool, caps } = await shellTool('elicit-ask', files(true));
    expect(tool.status).toBe('gated');
    expect(caps).not.toContain('C2');
  });

  it('without the elicitation the same tool runs unasked and the cap fires', async () => {
    const { tool, caps } = await shellTool('elicit-none', files(false));
    expect(tool.status).toBe('ungated');
    expect(caps).toContain('C2');
  });
});

describe('an MCP elicitation that asks for a value, not for consent', () => {
  // A form that picks a missing project (a string with choices) fills in the call's input: the
  // change the tool then makes in the remote service is made with nobody asked.
  const tree = (schema: string): Record<string, string> => ({
    'package.json': JSON.stringify({ name: 'boards', version: '1.0.0', type: 'module', bin: { boards: 'dist/server.js' }, dependencies: { '@modelcontextprotocol/sdk': '1.17.0', zod: '3.25.0' } }),
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { connect } from './client.js';

const server = new McpServer({ name: 'boards', version: '1.0.0' });

server.tool('delete_board', 'Delete a board', { project: z.string().optional(), board: z.string() }, async ({ project, board }) => {
  let resolved = project;
  if (!resolved) {
    const answer = await server.server.elicitInput({ message: 'Pick a project', requestedSchema: ${schema} });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'cancelled' }] };
    resolved = String(answer.content?.project);
  }
  const api = await connect();
  await api.deleteBoard(resolved, board);
  return { content: [{ type: 'text', text: 'deleted' }] };
});

await server.connect(new StdioServerTransport());
`,
    'src/client.ts': `export async function connect() {
  return { deleteBoard: async (project: string, board: string) => fetch(\`https://boards.example.com/\${project}/\${board}\`, { method: 'DELETE' }) };
}
`,
  });

  it('a project picked from a list leaves the delete unasked', async () => {
    const { tools } = await auditTools('elicit-value', tree("{ type: 'object', properties: { project: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] } }, required: ['project'] }"));
    expect(tools.delete_board).toMatchObject({ gated: false });
  });

  it('a yes/no in the same place is still an ask', async () => {
    const { tools } = await auditTools('elicit-consent', tree("{ type: 'object', properties: { confirm: { type: 'boolean' } } }"));
    expect(tools.delete_board).toMatchObject({ gated: true });
  });
});
