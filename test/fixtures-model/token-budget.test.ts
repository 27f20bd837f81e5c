import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A tool loop with no step cap that stops once the tokens it has spent reach a budget set by
 * default: the budget bounds the loop as a step cap does (C10 S, C, D and B at L2). Without the
 * check, nothing bounds it.
 */
const agent = (check: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "looper"\nversion = "0.1.0"\n[project.scripts]\nlooper = "looper.main:main"\n',
  'looper/__init__.py': '',
  'looper/config.py': 'class Config:\n    MAX_CONVERSATION_TOKENS = 200000\n',
  'looper/main.py': `import sys

import requests
from anthropic import Anthropic
from langchain_core.tools import tool

from looper.config import Config


@tool
def lookup(word: str) -> str:
    \"\"\"Look a word up.\"\"\"
    return requests.get(f"https://api.dictionaryapi.dev/api/v2/entries/en/{word}", timeout=10).text


TOOLS = [lookup]


class Assistant:
    def __init__(self):
        self.client = Anthropic()
        self.total_tokens_used = 0
        self.history = []

    def chat(self, text):
        self.history.append({"role": "user", "content": text})
        while True:
            response = self.client.messages.create(model="claude-sonnet-4-5", max_tokens=4000, tools=TOOLS, messages=self.history)
            self.total_tokens_used += response.usage.input_tokens + response.usage.output_tokens
${check}
            if response.stop_reason != "tool_use":
                return response.content[0].text
            self.history.append({"role": "assistant", "content": response.content})


def main():
    print(Assistant().chat(sys.argv[1]))
`,
});

const CHECK = '            if self.total_tokens_used >= Config.MAX_CONVERSATION_TOKENS:\n                return "Token limit reached"';

const c10 = async (name: string, check: string) => {
  const report = await audit(writeTree(name, agent(check)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C10')!.levels;
};

describe('a default token budget the loop checks', () => {
  it('bounds the loop as a step cap does', async () => {
    expect(await c10('token-budget', CHECK)).toMatchObject({ S: 2, C: 3, D: 2, B: 2 });
  });

  it('bounds nothing where the loop never compares its spend with it', async () => {
    const levels = await c10('token-budget-unchecked', '            pass');
    expect(levels.S).toBeLessThan(2);
    expect(levels.B).toBeLessThan(2);
  });
});
