import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Calls named like a service client's changes that change only local values: an HTML tree's
 * `replace_with` and a tokenizer's `apply_chat_template` (Python), and a browser extension's own
 * tabs and storage (`await chrome.tabs.update(…)`). None changes a remote service; a tracker
 * client's `delete_issue` beside them does.
 */
const python = {
  'pyproject.toml': '[project]\nname = "pages-mcp"\nversion = "0.1.0"\ndependencies = ["mcp", "beautifulsoup4", "transformers"]\n',
  'pages_mcp/server.py': `from bs4 import BeautifulSoup
from mcp.server.fastmcp import FastMCP
from transformers import AutoTokenizer

from .tracker import client

mcp = FastMCP("pages")
tokenizer = AutoTokenizer.from_pretrained("gpt2")


@mcp.tool()
def clean_html(html: str) -> str:
    """Replace every script with a placeholder."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all("script"):
        tag.replace_with("[script]")
    return str(soup)


@mcp.tool()
def format_chat(messages: list) -> str:
    """Render messages with the chat template."""
    return tokenizer.apply_chat_template(messages, tokenize=False)


@mcp.tool()
def close_issue(issue_id: str) -> str:
    """Delete an issue."""
    client.delete_issue(issue_id)
    return "deleted"
`,
  'pages_mcp/tracker.py': 'import tracker_sdk\n\nclient = tracker_sdk.Client()\n',
};

const extension = {
  'package.json': '{ "name": "tab-agent", "version": "0.1.0", "dependencies": { "ai": "^4.0.0" } }\n',
  'src/agent.ts': `import { generateText, tool } from 'ai';
import { z } from 'zod';

export async function run(model: any, prompt: string) {
  return generateText({
    model,
    prompt,
    tools: {
      open_tab: tool({
        description: 'Point a tab at a URL',
        parameters: z.object({ tabId: z.number(), url: z.string() }),
        execute: async ({ tabId, url }) => {
          await chrome.tabs.update(tabId, { url });
          return 'ok';
        },
      }),
    },
  });
}
`,
};

const reach = (r: Awaited<ReturnType<typeof audit>>, name: string) => r.agent!.tools.find((t) => t.name === name)!.reaches;

describe('calls named like a client change that change local values', () => {
  it('an HTML tree and a tokenizer change no remote service; a tracker client does', async () => {
    const report = await audit(writeTree('pages-mcp', python), { rubricDir: RUBRIC, factsCache: false });
    expect(reach(report, 'clean_html')).not.toContain('remote');
    expect(reach(report, 'format_chat')).not.toContain('remote');
    expect(reach(report, 'close_issue')).toContain('remote');
  });

  it("a browser extension's own tabs are no remote service", async () => {
    const report = await audit(writeTree('tab-agent', extension), { rubricDir: RUBRIC, factsCache: false });
    expect(reach(report, 'open_tab')).not.toContain('remote');
  });
});
