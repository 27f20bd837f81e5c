import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A browser-agent library: the model's reply goes through an extractor, one of a family of
 * classes in one file that override the same method, and the Python block it finds is evaluated.
 * Nothing in the repository calls the agent's entry point (a UI framework does), so the chain
 * of callers up from the runner ends in a method handed over by reference. With no ask anywhere in the code, that
 * runner runs the model's code unasked; a pause whose answer is thrown away asks nothing; a y/N
 * read before each step, found up through the extractor family, gates it.
 */
const files = (loop: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "webpilot"\nversion = "0.1.0"\n',
  'webpilot/__init__.py': 'from webpilot.agent import WebAgent\n',
  'webpilot/extractors.py': `import json
import re


class BaseExtractor:
    def extract(self, text: str) -> str:
        return text

    def extract_as_object(self, text: str):
        return self.extract(text)


class JsonExtractor(BaseExtractor):
    def extract_as_object(self, text: str):
        return json.loads(self.extract(text))


class PythonBlockExtractor(BaseExtractor):
    def extract(self, text: str) -> str:
        match = re.search(r"\`\`\`python(.*?)\`\`\`", text, re.DOTALL)
        return match.group(1).strip() if match else ""

    def extract_as_object(self, text: str):
        return eval(self.extract(text))
`,
  'webpilot/navigation.py': `from openai import OpenAI

from webpilot.extractors import PythonBlockExtractor


class NavigationEngine:
    def __init__(self):
        self.client = OpenAI()
        self.extractor = PythonBlockExtractor()

    def navigate(self, instruction: str):
        reply = self.client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": instruction}])
        return self.extractor.extract_as_object(reply.choices[0].message.content)
`,
  // The demo hands the entry point to a UI framework that calls it: no call of it is in the code.
  'webpilot/demo.py': `import gradio as gr

from webpilot.agent import WebAgent

agent = WebAgent()
gr.Interface(fn=agent.run, inputs="text", outputs="text").launch()
`,
  'webpilot/agent.py': `from webpilot.navigation import NavigationEngine


class WebAgent:
    def __init__(self, n_steps: int = 10):
        self.n_steps = n_steps
        self.engine = NavigationEngine()

    def run(self, objective: str, step_by_step: bool = False):
        for _ in range(self.n_steps):
${loop}
`,
});

const PAUSE = '            result = self.engine.navigate(objective)\n            if step_by_step:\n                input("Press ENTER to continue")\n            if result:\n                return result';
const ASK = '            if input(f"Next step of {objective}? [y/N] ").strip().lower() != "y":\n                return None\n            result = self.engine.navigate(objective)\n            if result:\n                return result';

const score = (name: string, loop: string) => audit(writeTree(name, files(loop)), { rubricDir: RUBRIC, factsCache: false });
const capped = (report: Awaited<ReturnType<typeof score>>) => report.criteria.filter((c) => c.cap !== null).map((c) => c.id);

describe('a code runner in a library whose entry point nothing in the repository calls', () => {
  it('runs the model\'s code unasked when nothing in the code asks: a thrown-away pause is no ask', async () => {
    const report = await score('library-runner-pause', PAUSE);
    const runner = report.agent!.tools.find((t) => t.construct === 'code runner')!;
    expect(runner).toMatchObject({ name: 'extract_as_object', reaches: ['exec'], gated: false, status: 'ungated' });
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
    // The step loop's cap, a parameter default (`n_steps: int = 10`), bounds the run.
    expect(report.criteria.find((c) => c.id === 'C10')!.levels.S).toBe(2);
  });

  it('is gated by a y/N read before each step, found up through the family of extractors', async () => {
    const report = await score('library-runner-ask', ASK);
    const runner = report.agent!.tools.find((t) => t.construct === 'code runner')!;
    expect(runner).toMatchObject({ reaches: ['exec'], gated: true, status: 'gated' });
    expect(runner.paths[0]!.gate).toMatchObject({ site: { path: 'webpilot/agent.py' } });
    expect(capped(report)).not.toContain('C2');
    expect(capped(report)).not.toContain('C4');
  });
});
