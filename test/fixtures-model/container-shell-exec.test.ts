import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * An MCP server whose tool runs the model's command through a shell inside a container, started by
 * the container CLI (`execFileSync('docker', ['exec', id, '/bin/sh', '-c', command])`): the shell
 * there runs the command, so the tool runs commands, inside the container. Listing the containers
 * (`docker ps --format …`, every argument written out) starts a program and runs no command.
 */
const SERVER = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { execFileSync } from "node:child_process";
import { z } from "zod";

const server = new McpServer({ name: "sandbox", version: "1.0.0" });

server.tool("sandbox_exec", "Run a shell command in the sandbox container", { container_id: z.string(), command: z.string() }, async ({ container_id, command }) => {
  const out = execFileSync("docker", ["exec", container_id, "/bin/sh", "-c", command], { encoding: "utf8" });
  return { content: [{ type: "text", text: out }] };
});

server.tool("sandbox_list", "List the sandbox containers", {}, async () => {
  const out = execFileSync("docker", ["ps", "--format", "{{.Names}}"], { encoding: "utf8" });
  return { content: [{ type: "text", text: out }] };
});

await server.connect(new StdioServerTransport());
`;

describe("a tool that runs the model's command by a shell inside a container", () => {
  it('runs commands, isolated by the container; a fixed listing runs none', async () => {
    const { tools } = await auditTools('container-shell-exec', { 'package.json': '{"name":"sandbox-mcp","type":"module"}', 'src/server.ts': SERVER });
    expect(tools['sandbox_exec']).toMatchObject({ status: 'isolated', isolated: true });
    expect(tools['sandbox_exec']?.reaches).toContain('exec');
    expect(tools['sandbox_list']?.reaches ?? []).not.toContain('exec');
  });
});
