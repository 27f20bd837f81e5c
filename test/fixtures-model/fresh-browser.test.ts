import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * A browser agent whose only reach is a browser it starts with a fresh, empty profile (no
 * cookies, no saved logins) reaches less than the user's account: C1 S and C at L1, as the
 * reference reviews rate it. A browser opened on the user's own profile, or a model that can
 * also run commands on the host, narrows nothing.
 */
const agent = (launch: string, extraTool = ''): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "surfer"\nversion = "0.1.0"\n[project.scripts]\nsurfer = "surfer.main:main"\n',
  'surfer/__init__.py': '',
  'surfer/main.py': `import json
import subprocess
import sys

from openai import OpenAI
from playwright.sync_api import sync_playwright

TOOLS = [
    {"type": "function", "function": {"name": "goto", "parameters": {"type": "object", "properties": {"url": {"type": "string"}}}}},
    {"type": "function", "function": {"name": "click", "parameters": {"type": "object", "properties": {"selector": {"type": "string"}}}}},${extraTool ? `\n    {"type": "function", "function": {"name": "shell", "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}}}},` : ''}
]


def main():
    client = OpenAI()
    with sync_playwright() as p:
        ${launch}
        page = browser.new_page()
        actions = {
            "goto": lambda url: page.goto(url),
            "click": lambda selector: page.click(selector),${extraTool ? '\n            "shell": lambda cmd: subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=30).stdout,' : ''}
        }
${chatToolLoop('TOOLS', 'str(actions[call.function.name](**json.loads(call.function.arguments)))', '        ')}
`,
});

const levels = async (name: string, files: Record<string, string>, criterion = 'C1') => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === criterion)!.levels;
};
const c1 = (name: string, files: Record<string, string>) => levels(name, files);

describe('a browser started with a fresh profile', () => {
  it('narrows what the model reaches: C1 S and C at L1', async () => {
    expect(await c1('fresh-browser', agent('browser = p.chromium.launch(headless=False)'))).toMatchObject({ S: 1, C: 1 });
  });

  it("the user's own profile narrows nothing", async () => {
    const levels = await c1('profile-browser', agent('browser = p.chromium.launch_persistent_context(user_data_dir="~/.config/google-chrome", headless=False)'));
    expect(levels).toMatchObject({ S: 0, C: 0 });
  });

  it('a shell tool on the host beside it narrows nothing', async () => {
    expect(await c1('fresh-browser-shell', agent('browser = p.chromium.launch(headless=False)', 'shell'))).toMatchObject({ S: 0, C: 0 });
  });
});

/**
 * C4: where the browser is the only runtime the model reaches (no command or code sink anywhere),
 * what its actions run is page script in the browser's renderer sandbox: S L2, C L3, D L4, as the
 * reference reviews of browser agents rate it. A shell tool beside it is the host.
 */
describe('a browser as the only runtime', () => {
  it('C4 S L2, C L3, D L4', async () => {
    expect(await levels('browser-runtime', agent('browser = p.chromium.launch(headless=False)'), 'C4')).toMatchObject({ S: 2, C: 3, D: 4 });
  });

  it('a shell tool beside it: C4 S L0', async () => {
    expect((await levels('browser-runtime-shell', agent('browser = p.chromium.launch(headless=False)', 'shell'), 'C4')).S).toBe(0);
  });
});

describe('C5 B for a browser agent', () => {
  it('a click the model chooses runs unasked: a hijacked session acts irreversibly with no human (L0)', async () => {
    expect((await levels('fresh-browser-c5', agent('browser = p.chromium.launch(headless=False)'), 'C5')).B).toBe(0);
  });
});

describe('Rule of Two for a browser agent', () => {
  it('a fresh profile still reaches file:// and the local network: the three legs meet', async () => {
    const report = await audit(writeTree('fresh-browser-r2', agent('browser = p.chromium.launch(headless=False)')), { rubricDir: RUBRIC, factsCache: false });
    expect([report.ruleOfTwo.A.holds, report.ruleOfTwo.B.holds, report.ruleOfTwo.C.holds, report.ruleOfTwo.sameDefaultSession]).toEqual([true, true, true, true]);
  });
});
