import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Python MCP server whose tools wrap the methods of its own client class under the same names
 * (`def delete_page(…): return fetcher.delete_page(…)`), as many servers over a service's API do,
 * the client handed over through the request's context (its class not written at the call). The
 * call on the client object runs the class's method, not the module-level tool of that name:
 * the tool reaches the service change its method makes, which runs with nobody asked (C2's cap).
 */
const files = {
  'pyproject.toml': '[project]\nname = "wiki-mcp"\nversion = "0.1.0"\ndependencies = ["mcp", "wiki-sdk"]\n',
  'wiki_mcp/__init__.py': '',
  'wiki_mcp/wiki/__init__.py': '',
  'wiki_mcp/wiki/pages.py': `import wiki_sdk


class PagesMixin:
    def __init__(self, url: str, token: str):
        self.wiki = wiki_sdk.Wiki(url=url, token=token)

    def get_page(self, page_id: str) -> dict:
        return self.wiki.get_page_by_id(page_id)

    def delete_page(self, page_id: str) -> bool:
        return self.wiki.remove_page(page_id=page_id)
`,
  'wiki_mcp/servers/__init__.py': '',
  'wiki_mcp/servers/wiki.py': `from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("wiki")


def get_fetcher(ctx: Context):
    return ctx.request_context.lifespan_context.fetcher


@mcp.tool()
def get_page(ctx: Context, page_id: str) -> dict:
    """Read a page."""
    fetcher = get_fetcher(ctx)
    return fetcher.get_page(page_id)


@mcp.tool()
def delete_page(ctx: Context, page_id: str) -> str:
    """Delete a page."""
    fetcher = get_fetcher(ctx)
    fetcher.delete_page(page_id)
    return "deleted"
`,
  'wiki_mcp/main.py': `from .servers.wiki import mcp
from .wiki.pages import PagesMixin


def main() -> None:
    mcp.run()
`,
};

describe('a tool named as the client method it wraps', () => {
  it('reaches the change the method makes, not itself: the deletion runs unasked, C2 cap', async () => {
    const report = await audit(writeTree('wiki-mcp', files), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'delete_page')!;
    expect(tool.reaches).toContain('remote');
    expect(tool.paths.find((p) => p.kind === 'remote')!.sink).toMatchObject({ path: 'wiki_mcp/wiki/pages.py', line: 12 });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBe(0.25);
  });
});
