import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { auditTools, RUBRIC, writeTree } from '../helpers.js';

/**
 * Two Go MCP servers written the mcp-go way. One writes the script the model sends to a temporary
 * file and starts the interpreter the model names on it (`exec.CommandContext(ctx, interpreter,
 * tmp.Name())`): the model's code runs on the host, the C2 and C4 caps fire. The other hands the
 * query the model writes to the database (`tx.Queryx(query)`): a statement the model writes, on
 * a remote service, unasked.
 */
const goMod = 'module example.com/tools\n\ngo 1.22\n\nrequire github.com/mark3labs/mcp-go v0.32.0\n';

const scriptServer = `package main

import (
	"context"
	"os"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("scripts", "1.0.0")
	tool := mcp.NewTool("run_script", mcp.WithDescription("Run a script"), mcp.WithString("content", mcp.Required()), mcp.WithString("interpreter"))
	s.AddTool(tool, runScript)
	server.ServeStdio(s)
}

func runScript(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	content := request.GetString("content", "")
	interpreter := request.GetString("interpreter", "/bin/sh")
	tmp, err := os.CreateTemp("", "script-*.sh")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	tmp.WriteString(content)
	tmp.Close()
	cmd := exec.CommandContext(ctx, interpreter, tmp.Name())
	out, _ := cmd.CombinedOutput()
	return mcp.NewToolResultText(string(out)), nil
}
`;

const queryServer = `package main

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type DB struct{ db *sqlx.DB }

func (d *DB) Run(query string) ([]map[string]interface{}, error) {
	tx, err := d.db.Beginx()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.Queryx(query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []map[string]interface{}
	for rows.Next() {
		row := map[string]interface{}{}
		rows.MapScan(row)
		out = append(out, row)
	}
	return out, tx.Commit()
}

var store *DB

func main() {
	conn, _ := sqlx.Connect("postgres", "postgres://localhost/app")
	store = &DB{db: conn}
	s := server.NewMCPServer("pg", "1.0.0")
	tool := mcp.NewTool("query", mcp.WithDescription("Run SQL"), mcp.WithString("sql", mcp.Required()))
	s.AddTool(tool, func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sql := request.GetString("sql", "")
		rows, err := store.Run(sql)
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(fmt.Sprint(rows)), nil
	})
	server.ServeStdio(s)
}
`;


describe('Go tools that run what the model wrote', () => {
  it('reads an interpreter the model names, started on the script it sent, as running code on the host', async () => {
    const { tools, caps } = await auditTools('script-server', { 'go.mod': goMod, 'main.go': scriptServer });
    expect(tools.run_script!.reaches).toContain('exec');
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('reads a query the model wrote, handed to the database, as a statement it writes', async () => {
    const report = await audit(writeTree('query-server', { 'go.mod': goMod, 'main.go': queryServer }), { rubricDir: RUBRIC, factsCache: false });
    const query = report.agent!.tools.find((t) => t.name === 'query')!;
    expect(query.reaches).toContain('remote');
    expect(query.status).toBe('ungated');
    expect(report.criteria.find((c) => c.id === 'C3')!.levels.S).toBe(0);
  });
});
