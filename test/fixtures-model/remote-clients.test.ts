import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Python MCP servers (and a Go one) whose tools change a service's state through its client library, not an
 * HTTP verb the code writes out: a calendar server on Google's discovery client
 * (`service.events().delete(…).execute()`; in Go, `srv.Events.Delete(…).Do()`), a Docker server on the Docker SDK
 * (`client.images.pull(…)`) dispatching by name in one low-level handler (`if name == …` /
 * `elif name == …`), and a SQL server whose query tool is registered by reference
 * (`mcp.add_tool(execute_sql, description=…)`) and runs the statement it is given on a cursor.
 * Each change runs with nobody asked: C2's cap fires. The calendar's read (`list(…).execute()`)
 * changes nothing.
 */
const PYPROJECT = (name: string) => `[project]\nname = "${name}"\nversion = "0.1.0"\ndependencies = ["mcp"]\n`;

const calendar = {
  'pyproject.toml': PYPROJECT('calendar-mcp'),
  'calendar_mcp/server.py': `from googleapiclient.discovery import build
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("calendar")


def service():
    return build("calendar", "v3")


@mcp.tool()
def list_events(calendar_id: str = "primary") -> list:
    """List upcoming events."""
    return service().events().list(calendarId=calendar_id).execute().get("items", [])


@mcp.tool()
def delete_event(event_id: str, calendar_id: str = "primary") -> str:
    """Delete an event."""
    service().events().delete(calendarId=calendar_id, eventId=event_id).execute()
    return f"deleted {event_id}"


if __name__ == "__main__":
    mcp.run()
`,
};

const docker = {
  'pyproject.toml': PYPROJECT('docker-mcp'),
  'docker_mcp/server.py': `import docker
import mcp.types as types
from mcp.server import Server

app = Server("docker")
client = docker.from_env()


@app.list_tools()
async def list_tools():
    return [
        types.Tool(name="list_containers", description="List containers", inputSchema={"type": "object"}),
        types.Tool(name="run_container", description="Run a container", inputSchema={"type": "object"}),
        types.Tool(name="pull_image", description="Pull an image", inputSchema={"type": "object"}),
    ]


@app.call_tool()
async def call_tool(name: str, arguments: dict):
    if name == "list_containers":
        result = [c.name for c in client.containers.list()]
    elif name == "run_container":
        result = client.containers.run(arguments["image"], arguments.get("command"), remove=True)
    elif name == "pull_image":
        image = client.images.pull(arguments["repository"], tag=arguments.get("tag"))
        result = image.id
    else:
        raise ValueError(f"unknown tool {name}")
    return [types.TextContent(type="text", text=str(result))]
`,
};

const sql = {
  'pyproject.toml': PYPROJECT('sql-mcp'),
  'sql_mcp/server.py': `import psycopg
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("sql")


async def execute_sql(sql: str) -> str:
    """Run a SQL statement."""
    async with await psycopg.AsyncConnection.connect() as conn:
        async with conn.cursor() as cursor:
            await cursor.execute(sql)
            return str(await cursor.fetchall())


def main():
    mcp.add_tool(execute_sql, description="Execute any SQL query")
    mcp.run()
`,
};

// The same tool on SQLAlchemy: the statement wrapped in text() in the call, or bound first.
const alchemy = (bound: boolean) => ({
  'pyproject.toml': PYPROJECT('alchemy-mcp'),
  'alchemy_mcp/server.py': `from mcp.server.fastmcp import FastMCP
from sqlalchemy import create_engine, text

mcp = FastMCP("alchemy")
engine = create_engine("sqlite:///data.db")


@mcp.tool()
def execute_sql(query: str) -> str:
    """Run a SQL statement."""
    with engine.begin() as connection:
${bound ? '        command = text(query)\n        result = connection.execute(command)' : '        result = connection.execute(text(query))'}
        return str(result.fetchall())


@mcp.tool()
def count_rows() -> str:
    """Count the rows."""
    with engine.begin() as connection:
        return str(connection.execute(text("SELECT count(*) FROM items")).scalar())


if __name__ == "__main__":
    mcp.run()
`,
});

const goCalendar = {
  'go.mod': 'module example.com/gcal\n\ngo 1.22\n',
  'main.go': `package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"google.golang.org/api/calendar/v3"
)

var srv *calendar.Service

func deleteEvent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id, _ := req.RequireString("event_id")
	if err := srv.Events.Delete("primary", id).Do(); err != nil {
		return nil, err
	}
	return mcp.NewToolResultText("deleted " + id), nil
}

func listEvents(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	events, err := srv.Events.List("primary").Do()
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(events.Summary), nil
}

func main() {
	srv, _ = calendar.NewService(context.Background())
	s := server.NewMCPServer("gcal", "1.0.0")
	s.AddTool(mcp.NewTool("delete_event", mcp.WithString("event_id")), deleteEvent)
	s.AddTool(mcp.NewTool("list_events"), listEvents)
	server.ServeStdio(s)
}
`,
};

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });

describe("tools that change a service's state through its client library", () => {
  it("reads a discovery client's request by its verb: delete changes the calendar, list does not", async () => {
    const report = await score('calendar-mcp', calendar);
    const del = report.agent!.tools.find((t) => t.name === 'delete_event')!;
    expect(del.reaches).toContain('remote');
    expect(del.gated).toBe(false);
    expect(report.agent!.tools.find((t) => t.name === 'list_events')!.reaches).not.toContain('remote');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it("reads the Go discovery client's request by its verb too (srv.Events.Delete(...).Do())", async () => {
    const report = await score('go-calendar-mcp', goCalendar);
    expect(report.agent!.tools.find((t) => t.name === 'delete_event')!.reaches).toContain('remote');
    expect(report.agent!.tools.find((t) => t.name === 'list_events')!.reaches).not.toContain('remote');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it("reads each elif of a low-level handler as a tool, and the Docker SDK's pull as a change", async () => {
    const report = await score('docker-mcp', docker);
    const run = report.agent!.tools.find((t) => t.name === 'pull_image')!;
    expect(run.construct).toBe('dispatch-branch');
    expect(run.reaches).toContain('remote');
    // (The Docker client reads as a sandbox's; a change it makes in the daemon is not thereby confined.)
    expect(run.status).toBe('ungated');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it.each([
    ['in the call', false],
    ['bound first', true],
  ])("reads a statement SQLAlchemy is handed (text(query), %s) as a change, and the code's own statement as none", async (_how, bound) => {
    const report = await score('alchemy-mcp', alchemy(bound));
    expect(report.agent!.tools.find((t) => t.name === 'execute_sql')).toMatchObject({ reaches: ['remote'], gated: false });
    expect(report.agent!.tools.find((t) => t.name === 'count_rows')?.reaches ?? []).not.toContain('remote');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('reads a tool registered by reference, and a statement run on a cursor as a change', async () => {
    const report = await score('sql-mcp', sql);
    const tool = report.agent!.tools.find((t) => t.name === 'execute_sql')!;
    expect(tool.handler?.name).toBe('execute_sql');
    expect(tool.reaches).toContain('remote');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
