import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * AutoGen/AG2 offers a function to the model with `register_for_llm`, as a decorator or called on
 * the function (`assistant.register_for_llm(description=…)(open_url)`). Both are tools, named by
 * the function and run by it: the one that writes a file shows it, unasked.
 */
const files = {
  'pyproject.toml': '[project]\nname = "webbot"\nversion = "0.1.0"\ndependencies = ["ag2"]\n',
  'webbot/__init__.py': '',
  'webbot/skills.py': `import requests


def open_url(url: str) -> str:
    return requests.get(url, timeout=10).text


def save_page(path: str, text: str) -> str:
    with open(path, "w") as f:
        f.write(text)
    return path
`,
  'webbot/team.py': `import autogen

from webbot.skills import open_url, save_page

assistant = autogen.AssistantAgent(name="assistant", llm_config={"model": "gpt-4o"})
executor = autogen.UserProxyAgent(name="executor", human_input_mode="NEVER", code_execution_config=False)

assistant.register_for_llm(description="Open a web page")(open_url)
executor.register_for_execution()(open_url)


@executor.register_for_execution()
@assistant.register_for_llm(description="Save a page to a file")
def save(path: str, text: str) -> str:
    return save_page(path, text)


def main(task: str) -> None:
    executor.initiate_chat(assistant, message=task)
`,
};

describe('AutoGen tool registration', () => {
  it('lists the called and the decorated registration, each with what it reaches', async () => {
    const report = await audit(writeTree('webbot', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = new Map(report.agent!.tools.map((t) => [t.name, t]));
    expect(tools.get('open_url')?.reaches).toEqual(['net']);
    expect(tools.get('save')?.reaches).toEqual(['write']);
    expect(tools.get('save')?.paths.every((p) => !p.gated)).toBe(true);
  });
});
