import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * An MCP server that hands each call to a function of its own named for tool calls, which switches
 * on the tool's name; each case runs a statement the model wrote through a database driver. Each
 * case is a tool, and a statement the code did not write out changes what the database holds
 * (`remote`), as a Python cursor's `execute(query)` does. A statement the code wrote, a fixed
 * `SELECT`, a statement run on the harness's own store (`storage.sql.exec(query, text)`), and a
 * `switch (name)` in a function not named for tools, are neither.
 */
const SERVER = `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { handleToolCall, handleListTools } from "./handlers.js";

const server = new Server({ name: "db", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => handleListTools());
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  return await handleToolCall(request.params.name, request.params.arguments);
});
await server.connect(new StdioServerTransport());
`;

const HANDLERS = `import { runStatement, allRows, tableCount, sessionSearch } from "./db.js";

export function handleListTools() {
  return { tools: [{ name: "write_query", description: "Runs a statement", inputSchema: { type: "object", properties: { query: { type: "string" } } } }] };
}

export async function handleToolCall(name: string, args: any) {
  switch (name) {
    case "write_query":
      return await runStatement(args.query);
    case "read_query":
      return await allRows(args.query);
    case "count_tables":
      return await tableCount();
    case "session_search":
      return sessionSearch(args.query);
    default:
      throw new Error("unknown tool");
  }
}

export function describeShape(name: string) {
  switch (name) {
    case "circle":
      return "round";
    default:
      return "unknown";
  }
}
`;

const DB = `import sqlite3 from "sqlite3";

const db = new sqlite3.Database("data.db");

export function runStatement(query: string): Promise<void> {
  return new Promise((resolve, reject) => db.run(query, [], (err) => (err ? reject(err) : resolve())));
}

export function allRows(sql: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => db.all(sql, [], (err, rows) => (err ? reject(err) : resolve(rows))));
}

const storage = { sql: { exec: (q: string, ...values: unknown[]) => [q, values] } };

export function sessionSearch(text: string) {
  const query = "SELECT * FROM messages WHERE content LIKE ?";
  return storage.sql.exec(query, text);
}

export function tableCount(): Promise<unknown[]> {
  return new Promise((resolve, reject) => db.all("SELECT count(*) FROM sqlite_master", [], (err, rows) => (err ? reject(err) : resolve(rows))));
}
`;

describe('an MCP server whose tool-call function switches on the name and runs model-written SQL', () => {
  it('offers each case that runs a statement as a tool that changes the database, unasked', async () => {
    const { tools } = await auditTools('sql-tool-server', { 'package.json': '{"name":"db-mcp","type":"module"}', 'src/index.ts': SERVER, 'src/handlers.ts': HANDLERS, 'src/db.ts': DB });
    expect(tools['write_query']?.reaches).toEqual(['remote']);
    expect(tools['write_query']?.status).toBe('ungated');
    expect(tools['read_query']?.reaches).toEqual(['remote']);
    // A fixed statement the code wrote, or one run on the harness's own store, reaches nothing
    // consequential; a shape's name is no tool.
    expect(tools['count_tables']).toBeUndefined();
    expect(tools['session_search']).toBeUndefined();
    expect(tools['circle']).toBeUndefined();
  });
});
