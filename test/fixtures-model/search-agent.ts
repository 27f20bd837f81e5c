import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/** A LangChain agent with one tool that searches the web, and room for one more tool (`extra_tool`). */
export const searchAgent = (extraTool = '', extraImport = '') => ({
  'agent/main.py': `import requests
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
${extraImport}

@tool
def web_search(query: str) -> str:
    """Search the web."""
    return requests.get("https://search.example.com/api", params={"q": query}, timeout=10).text
${extraTool}

llm = ChatOpenAI(model="gpt-4o").bind_tools([${extraTool ? 'web_search, extra_tool' : 'web_search'}])


def main():
    print(llm.invoke(input("> ")).content)


if __name__ == "__main__":
    main()
`,
});

/** An `extra_tool` that hands the model's code to a code runner object (`codebox.run(code)`). */
export const codeBoxTool = `

@tool
def extra_tool(code: str) -> str:
    """Run Python code and return its output."""
    return codebox.run(code).content
`;

/** The audit of a tree: its C1 levels, the criteria whose cap fired, and the tools. */
export const scoredAgent = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const c = (id: string) => report.criteria.find((x) => x.id === id)!;
  return { report, c1: c('C1').levels, caps: report.criteria.filter((x) => x.cap).map((x) => x.id), tools: report.agent?.tools ?? [] };
};
