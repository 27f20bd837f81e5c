import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * MCP servers whose tool runs the model's command on a remote host over SSH: ssh2's
 * `client.exec(command, cb)`, paramiko's `client.exec_command(command)`, x/crypto/ssh's
 * `session.CombinedOutput(cmd)`. Each is a command run with nobody asked, and the approval cap
 * fires; a fixed command sent over the same connection (`client.exec("uptime", …)`) is none.
 */
const TS = (fixed: boolean): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'ssh-runner', version: '1.0.0', type: 'module', bin: { 'ssh-runner': 'dist/server.js' }, dependencies: { '@modelcontextprotocol/sdk': '1.17.0', ssh2: '1.16.0', zod: '3.25.0' } }),
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Client } from 'ssh2';
import { z } from 'zod';

const server = new McpServer({ name: 'ssh-runner', version: '1.0.0' });
const conn = new Client();
conn.connect({ host: process.env.SSH_HOST, username: process.env.SSH_USER, privateKey: process.env.SSH_KEY });

function runRemote(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    conn.exec(${fixed ? "'uptime'" : 'command'}, (err, stream) => {
      if (err) return reject(err);
      let out = '';
      stream.on('data', (d: Buffer) => (out += d.toString()));
      stream.on('close', () => resolve(out));
    });
  });
}

server.registerTool('run_command', { description: 'Run a command on the server', inputSchema: { command: z.string() } }, async ({ command }) => {
  return { content: [{ type: 'text', text: await runRemote(command) }] };
});

await server.connect(new StdioServerTransport());
`,
});

const PY: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "ssh-runner"\nversion = "0.1.0"\ndependencies = ["mcp", "paramiko"]\n\n[project.scripts]\nssh-runner = "ssh_runner.server:main"\n',
  'ssh_runner/__init__.py': '',
  'ssh_runner/server.py': `import os

import paramiko
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ssh-runner")


def client():
    c = paramiko.SSHClient()
    c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    c.connect(os.environ["SSH_HOST"], username=os.environ["SSH_USER"])
    return c


@mcp.tool()
def run_command(command: str) -> str:
    """Run a command on the server."""
    _, stdout, _ = client().exec_command(command)
    return stdout.read().decode()


def main():
    mcp.run()
`,
};

const GO: Record<string, string> = {
  'go.mod': 'module example.com/sshrunner\n\ngo 1.22\n\nrequire (\n\tgithub.com/mark3labs/mcp-go v0.32.0\n\tgolang.org/x/crypto v0.31.0\n)\n',
  'main.go': `package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"golang.org/x/crypto/ssh"
)

func runCommand(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	cmd := req.GetString("command", "")
	client, err := ssh.Dial("tcp", os.Getenv("SSH_HOST"), &ssh.ClientConfig{User: os.Getenv("SSH_USER"), HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	if err != nil {
		return nil, err
	}
	session, err := client.NewSession()
	if err != nil {
		return nil, err
	}
	defer session.Close()
	out, err := session.CombinedOutput(cmd)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	return mcp.NewToolResultText(string(out)), nil
}

func main() {
	s := server.NewMCPServer("ssh-runner", "1.0.0")
	s.AddTool(mcp.NewTool("run_command", mcp.WithDescription("Run a command on the server"), mcp.WithString("command", mcp.Required())), runCommand)
	if err := server.ServeStdio(s); err != nil {
		fmt.Println(err)
	}
}
`,
};

describe.each([
  ['TypeScript (ssh2 client.exec)', TS(false)],
  ['Python (paramiko exec_command)', PY],
  ['Go (x/crypto/ssh session.CombinedOutput)', GO],
])('an MCP server that runs the command over SSH: %s', (_lang, files) => {
  it('reaches a command run with nobody asked, and the approval cap fires', async () => {
    const { tools, caps } = await auditTools('ssh-exec', files);
    expect(tools.run_command?.reaches, Object.keys(tools).join(', ')).toContain('exec');
    expect(tools.run_command!.status).toBe('ungated');
    expect(caps).toContain('C2');
  });
});

describe('a fixed command over the same connection', () => {
  it('runs no command of the model', async () => {
    const { tools } = await auditTools('ssh-fixed', TS(true));
    expect(tools.run_command?.reaches ?? []).not.toContain('exec');
  });
});
