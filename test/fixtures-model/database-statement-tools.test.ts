import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A database MCP server. In one variant its query tool hands the model's statement to the driver
 * (`cursor.execute(query)`): the model writes whatever SQL it likes, so that tool is as general as a
 * shell, the default tool set is not read-only, and a change to the database runs with nobody
 * asked. In the other, every tool runs a statement the code wrote, with the model's values bound
 * to its placeholders (`cursor.execute(FIND_SQL, (name,))`): typed tools. A tool that runs the
 * model's own statements leaves a local path unnarrowed (what the database's account allows, the
 * model can do: C1 S L0); typed statements reach nothing local (C1 S L2).
 */
const files = (raw: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "dbtools"\nversion = "0.1.0"\ndependencies = ["mcp"]\n\n[project.scripts]\ndbtools = "dbtools.server:main"\n',
  'dbtools/__init__.py': '',
  'dbtools/server.py': `import os
import sqlite3

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("dbtools")
DB_PATH = os.environ.get("DB_PATH", "data.db")
FIND_SQL = "SELECT id, name FROM items WHERE name = ?"
RENAME_SQL = "UPDATE items SET name = ? WHERE id = ?"


@mcp.tool()
def list_tables() -> str:
    """List the tables."""
    with sqlite3.connect(DB_PATH) as conn:
        cursor = conn.cursor()
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return "\\n".join(row[0] for row in cursor.fetchall())


@mcp.tool()
def find_item(name: str) -> str:
    """Find an item by name."""
    with sqlite3.connect(DB_PATH) as conn:
        cursor = conn.cursor()
        cursor.execute(FIND_SQL, (name,))
        return repr(cursor.fetchall())


${raw ? `@mcp.tool()
def execute_query(query: str) -> str:
    """Run any SQL statement against the database."""
    with sqlite3.connect(DB_PATH) as conn:
        cursor = conn.cursor()
        cursor.execute(query)
        conn.commit()
        return repr(cursor.fetchall())` : `@mcp.tool()
def rename_item(item_id: int, name: str) -> str:
    """Rename an item."""
    with sqlite3.connect(DB_PATH) as conn:
        cursor = conn.cursor()
        cursor.execute(RENAME_SQL, (name, item_id))
        conn.commit()
        return "renamed"`}


def main():
    mcp.run()


if __name__ == "__main__":
    main()
`,
});

const levels = (report: Awaited<ReturnType<typeof audit>>, id: string) => report.criteria.find((c) => c.id === id)!.levels;

describe('a database server whose tool runs the statement the model wrote', () => {
  it('has no typed tool set, no read-only default, and changes the database with nobody asked', async () => {
    const report = await audit(writeTree('db-raw-statement', files(true)), { rubricDir: RUBRIC, factsCache: false });
    const query = report.agent!.tools.find((t) => t.name === 'execute_query')!;
    expect(query.reaches).toContain('remote');
    expect(query.status).toBe('ungated');
    expect(levels(report, 'C3').S).toBe(0);
    expect(levels(report, 'C3').D).toBeLessThan(3);
    expect(levels(report, 'C2').B).toBe(0);
    // (The database's credential is the tool's to use: a long-lived key reachable from a tool.)
    expect(levels(report, 'C8').B).toBe(1);
    expect(levels(report, 'C1').S).toBe(0);
  });

  it('keeps typed tools where every statement is the code’s and the model only binds values', async () => {
    const report = await audit(writeTree('db-bound-values', files(false)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.name === 'rename_item')!.reaches).toContain('remote');
    expect(levels(report, 'C3').S).toBeGreaterThanOrEqual(2);
    expect(levels(report, 'C1').S).toBe(2);
  });
});
