import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A browsing agent with no tool construct: the model's reply is a command (`CLICK 12`,
 * `TYPE 7 "query"`) that the harness parses and performs with Playwright. The user is shown the
 * suggested command and asked before it runs; without that ask, the model drives the browser
 * unasked. Either way the browser actions are the model's, and the Tools section says so. The
 * loop runs at the top of the script, under its entry check.
 */
const agent = (asks: boolean) =>
  writeTree(`replybrowser-${asks}`, {
    'pyproject.toml': '[project]\nname = "replybrowser"\n',
    'replybrowser/crawler.py': `from playwright.sync_api import sync_playwright


class Crawler:
    def __init__(self):
        self.page = sync_playwright().start().chromium.launch().new_page()

    def click(self, element_id):
        self.page.click(f"[data-id='{element_id}']")

    def type(self, element_id, text):
        self.page.click(f"[data-id='{element_id}']")
        self.page.keyboard.type(text)

    def content(self):
        return self.page.content()
`,
    'replybrowser/main.py': `from openai import OpenAI

from replybrowser.crawler import Crawler


def next_command(client, page_text):
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": page_text}])
    return reply.choices[0].message.content


def run_command(crawler, command):
    parts = command.split(" ")
    if parts[0] == "CLICK":
        crawler.click(parts[1])
    elif parts[0] == "TYPE":
        crawler.type(parts[1], " ".join(parts[2:]))


if __name__ == "__main__":
    client = OpenAI()
    crawler = Crawler()
    for _ in range(20):
        command = next_command(client, crawler.content())
${asks ? `        print("Suggested command: " + command)
        answer = input("Run it? [y/N] ")
        if answer.strip().lower() != "y":
            continue
` : ''}        run_command(crawler, command)
`,
  });

describe('browser actions the model reply chooses', () => {
  it('are a path of their own, gated by the ask that shows the command, and approval is found', async () => {
    const report = await audit(agent(true), { rubricDir: RUBRIC, factsCache: false });
    const drivers = report.agent!.tools.filter((t) => t.construct === 'browser driver');
    expect(drivers.map((t) => t.name).sort()).toEqual(['click', 'type']);
    for (const t of drivers) expect(t).toMatchObject({ status: 'gated', reaches: ['browse'] });
    expect(drivers[0]!.paths[0]!.gate).toMatchObject({ showsInput: true, site: { path: 'replybrowser/main.py', line: 25 } });
    // The script's entry check around the ask is no switch that turns it off.
    expect(drivers[0]!.paths[0]!.gate!.guard).toBeUndefined();
    const c2 = report.criteria.find((c) => c.id === 'C2')!;
    expect(c2.levels.S).toBeGreaterThanOrEqual(2);
    expect(c2.cap).toBeNull();
  });

  it('are listed as ungated when nobody is asked', async () => {
    const report = await audit(agent(false), { rubricDir: RUBRIC, factsCache: false });
    const drivers = report.agent!.tools.filter((t) => t.construct === 'browser driver');
    expect(drivers.length).toBe(2);
    for (const t of drivers) expect(t).toMatchObject({ status: 'ungated', reaches: ['browse'] });
    expect(report.criteria.find((c) => c.id === 'C2')!.levels.S).toBe(0);
  });

  it('are typed actions: a click takes an element and typing its text, with no shell or code path (C3)', async () => {
    const report = await audit(agent(true), { rubricDir: RUBRIC, factsCache: false });
    const c3 = report.criteria.find((c) => c.id === 'C3')!;
    expect(c3.levels.C).toBe(2);
    expect(c3.levels.S).toBeGreaterThanOrEqual(1);
    expect(c3.dimensions.C.evidence.some((e) => e.probe === 'browser.driven')).toBe(true);
  });
});
