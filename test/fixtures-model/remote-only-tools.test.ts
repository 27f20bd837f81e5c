import { describe, expect, it } from 'vitest';
import { codeBoxTool, scoredAgent as scored, searchAgent } from './search-agent.js';

/**
 * An agent whose tools only send requests (no command or code run anywhere in product code, no
 * process started, no tool handed a command or code, no file read or written, no extension
 * launched, no browser driven) holds no more than the credentials those requests carry: C1 S and
 * C L2, read from the empty searches. Where no tool changes a remote service's records either, the
 * tools hold no write authority at all (C1 D L3) and no code the model chooses runs (C4 B L4). One
 * file tool, one process a tool starts, or one tool handed code it cannot be followed with, takes
 * that away; a tool that deletes through a service's API keeps C1 D and C4 B where they were. With
 * nothing local in reach, a misused tool holds the credentials its requests carry (C1 B L2).
 */
const readFileTool = `

@tool
def extra_tool(path: str) -> str:
    """Read a file."""
    with open(path) as f:
        return f.read()
`;

const deleteTool = `

@tool
def extra_tool(url: str) -> str:
    """Delete a page from the wiki."""
    return requests.delete(url, timeout=20).text
`;

const spawnTool = `

@tool
def extra_tool(url: str) -> str:
    """Convert a page to PDF."""
    args = ["wkhtmltopdf", url, "out.pdf"]
    return subprocess.run(args, capture_output=True, text=True).stdout
`;

describe('tools that reach nothing local', () => {
  it('a search agent whose one tool sends a request: C1 S and C L2, D L3, C4 B L4', async () => {
    const { c1, tools, report } = await scored('remote-only', searchAgent());
    expect(tools.map((t) => [t.name, t.reaches])).toEqual([['web_search', ['net']]]);
    expect(c1).toMatchObject({ S: 2, C: 2, D: 3 });
    expect(report.criteria.find((c) => c.id === 'C4')!.levels.B).toBe(4);
  });

  it('a tool that deletes through a remote API beside it: write authority in a service (C1 D L2, C4 B below L4)', async () => {
    const { c1, tools, report } = await scored('remote-plus-delete', searchAgent(deleteTool, 'import requests'));
    expect(tools.find((t) => t.name === 'extra_tool')?.reaches).toEqual(['net', 'remote']);
    expect(c1).toMatchObject({ S: 2, C: 2, D: 2 });
    expect(report.criteria.find((c) => c.id === 'C4')!.levels.B).toBeLessThan(4);
    // Still nothing local: C1 S is said as that, not as a cleared environment.
    expect(report.criteria.find((c) => c.id === 'C1')!.dimensions.S.means).toMatch(/^nothing the tools reach is local/);
  });

  it('a file tool beside it: C1 back to L0', async () => {
    const { c1 } = await scored('remote-plus-read', searchAgent(readFileTool));
    expect(c1).toMatchObject({ S: 0, C: 0, D: 0 });
  });

  it('a tool handed code that leads out of the repository: no credit, whatever runs it', async () => {
    const tree = searchAgent(codeBoxTool.replace('codebox.run(code)', 'engine.submit(code)'), 'from engine_lib import Engine\n\nengine = Engine()');
    const { c1, tools } = await scored('remote-plus-code-arg', tree);
    expect(tools.find((t) => t.name === 'extra_tool')?.reaches).toEqual([]);
    expect(c1).toMatchObject({ S: 0, C: 0, D: 0 });
  });

  it('a tool that starts a fixed program on the host: C1 back to L0', async () => {
    const { c1, tools } = await scored('remote-plus-spawn', searchAgent(spawnTool, 'import subprocess'));
    expect(tools.find((t) => t.name === 'extra_tool')?.reaches).toEqual(['spawn']);
    expect(c1).toMatchObject({ S: 0, C: 0, D: 0 });
  });

  it('C3 B: a misused tool that only sends requests reaches what they reach (L2); a remote delete or a file tool does not get it', async () => {
    const b = (r: Awaited<ReturnType<typeof scored>>) => r.report.criteria.find((c) => c.id === 'C3')!.dimensions.B;
    const only = b(await scored('remote-only-c3', searchAgent()));
    expect(only.level).toBe(2);
    expect(only.means).toMatch(/^nothing in the model's reach but requests/);
    expect(b(await scored('remote-delete-c3', searchAgent(deleteTool, 'import requests'))).level).toBe(1);
    expect(b(await scored('remote-read-c3', searchAgent(readFileTool))).level).toBe(1);
  });

  it('C1 B: tools that reach nothing local hold the credentials their requests carry (L2), a remote delete too; a file tool or a started program gives the whole account (L1)', async () => {
    const b = (r: Awaited<ReturnType<typeof scored>>) => r.report.criteria.find((c) => c.id === 'C1')!.dimensions.B;
    const only = b(await scored('remote-only-c1b', searchAgent()));
    expect(only.level).toBe(2);
    expect(only.means).toMatch(/^nothing local in the tools' reach/);
    expect(b(await scored('remote-delete-c1b', searchAgent(deleteTool, 'import requests'))).level).toBe(2);
    expect(b(await scored('remote-read-c1b', searchAgent(readFileTool))).level).toBe(1);
    expect(b(await scored('remote-spawn-c1b', searchAgent(spawnTool, 'import subprocess'))).level).toBe(1);
  });
});
