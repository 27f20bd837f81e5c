import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { scoredAgent as scored, searchAgent } from './search-agent.js';

/**
 * A web search or scrape client's call sends requests like `requests.get` does, and what it returns
 * is pages anyone can write: a tool that searches through one reaches the network, and the Rule
 * of Two's untrusted-input leg holds. The client is recognised by the class or factory the file
 * builds it from, not by the variable's name.
 */
const pythonClient = (construct: string, call: string) => {
  const tree = searchAgent('', `from tavily import TavilyClient\nfrom langchain_community.utilities import DuckDuckGoSearchAPIWrapper\n\nweb = ${construct}`);
  tree['agent/main.py'] = tree['agent/main.py'].replace('requests.get("https://search.example.com/api", params={"q": query}, timeout=10).text', call);
  return tree;
};

const tsAgent = (construct: string) => ({
  'package.json': '{"name": "researcher", "version": "1.0.0", "dependencies": {"ai": "4.0.0", "@ai-sdk/openai": "1.0.0", "@mendable/firecrawl-js": "1.0.0", "zod": "3.0.0"}}',
  'src/index.ts': `import { streamText, tool } from "ai";
import { openai } from "@ai-sdk/openai";
import FirecrawlApp from "@mendable/firecrawl-js";
import { z } from "zod";

const app = ${construct};

export async function answer(prompt: string) {
  return streamText({
    model: openai("gpt-4o"),
    prompt,
    tools: {
      search: tool({
        description: "Search the web",
        parameters: z.object({ query: z.string() }),
        execute: async ({ query }) => app.search(query),
      }),
    },
  });
}
`,
});

describe('web search and scrape clients', () => {
  it('Python: a Tavily client built in the file, searched by a tool: the tool reaches the network', async () => {
    const { tools, report } = await scored('web-tavily', pythonClient('TavilyClient(api_key="k")', 'str(web.search(query))'));
    expect(tools.find((t) => t.name === 'web_search')?.reaches).toEqual(['net']);
    expect(report.ruleOfTwo.A.holds).toBe(true);
  });

  it('Python: a LangChain search wrapper run by a tool', async () => {
    const { tools } = await scored('web-ddg', pythonClient('DuckDuckGoSearchAPIWrapper()', 'web.run(query)'));
    expect(tools.find((t) => t.name === 'web_search')?.reaches).toEqual(['net']);
  });

  it('Python: the same call on an object the file builds from something else is no request', async () => {
    const { tools } = await scored('web-other', pythonClient('dict()', 'str(web.search(query))'));
    expect(tools.find((t) => t.name === 'web_search')?.reaches).toEqual([]);
  });

  it('TypeScript: a Firecrawl client searched by an AI SDK tool', async () => {
    const report = await audit(writeTree('web-firecrawl', tsAgent('new FirecrawlApp({ apiKey: process.env.FIRECRAWL_API_KEY })')), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent?.tools.find((t) => t.name === 'search')?.reaches).toEqual(['net']);
    const other = await audit(writeTree('web-not-firecrawl', tsAgent('new Map<string, string>()')), { rubricDir: RUBRIC, factsCache: false });
    expect(other.agent?.tools.find((t) => t.name === 'search')?.reaches).toEqual([]);
  });
});
