import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A research pipeline that offers the model no tool: it searches the web, hands the results to the
 * model and prints the summary. Nothing it runs is local, so its "tools" (there are none) carry no
 * credential but the search key (C1 S L2, as for a tool agent with no local reach), and no code
 * the model chooses runs anywhere. The same pipeline that also saves the summary to a file the
 * caller names writes on the host; with no tool recognised the paths cannot say what reaches that
 * write, so it keeps C1 S L0.
 */
function pipeline(save: boolean, desktop = false) {
  const dir = writeTree('digest', {
    'pyproject.toml': '[project]\nname = "digest"\nversion = "0.1.0"\ndependencies = ["openai", "httpx"]\n\n[project.scripts]\ndigest = "digest.main:main"\n',
    'digest/__init__.py': '',
    'digest/main.py': `import os
import sys

import httpx
from openai import OpenAI
${desktop ? 'from e2b_desktop import Sandbox\n' : ''}
SEARCH_URL = "https://search.example.invalid/v1/search"


def search(query: str) -> list:
    response = httpx.get(SEARCH_URL, params={"q": query}, headers={"x-key": os.environ["SEARCH_KEY"]}, timeout=20)
    return response.json().get("results", [])


def summarize(query: str, results: list) -> str:
    client = OpenAI()
    sources = "\\n".join(f"{r['title']}: {r['snippet']}" for r in results)
    reply = client.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "system", "content": "Summarize the sources."}, {"role": "user", "content": f"{query}\\n\\n{sources}"}],
    )
    return reply.choices[0].message.content


def main():
    query = sys.argv[1]
    summary = summarize(query, search(query))
${desktop ? '    screen = Sandbox()\n    x, y = summary.split(",")[:2]\n    screen.left_click(int(x), int(y))\n' : ''}${save ? '    with open(sys.argv[2], "w", encoding="utf-8") as f:\n        f.write(summary)\n' : '    print(summary)\n'}

if __name__ == "__main__":
    main()
`,
  });
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}
const c1 = (r: Awaited<ReturnType<typeof audit>>) => r.criteria.find((c) => c.id === 'C1')!;
const level = (r: Awaited<ReturnType<typeof audit>>, id: string, d: 'S' | 'C' | 'D' | 'B') => r.criteria.find((c) => c.id === id)!.levels[d];

describe('a pipeline of model calls that offers no tool', () => {
  it('reaches nothing local: its calls carry only the search key (C1 S L2)', async () => {
    const report = await pipeline(false);
    expect(report.agent!.tools).toEqual([]);
    expect(c1(report).levels.S).toBe(2);
    // Shown by the empty searches: no recognised tool, no file write in product code.
    const why = c1(report).dimensions.S.evidence.map((e) => e.probe);
    expect(why).toEqual(expect.arrayContaining(['model.write-sink']));
    // The tools hold no write authority (C1 D L3), and no code the model chooses runs anywhere (C4 B L4).
    expect(c1(report).levels).toMatchObject({ S: 2, C: 2, D: 3 });
    expect(level(report, 'C4', 'B')).toBe(4);
    // …said as what holds: no VM, no disposable workspace, nothing reached.
    expect(report.criteria.find((c) => c.id === 'C4')!.dimensions.B.means).toBe('no code the model chooses runs anywhere, and its tools reach nothing local and change no remote service');
    expect(c1(report).dimensions.D.means).toMatch(/^the tools hold no write authority at all/);
  });

  it('has no tool argument to scope: the model writes only a query (C3 S, C and B L2)', async () => {
    const report = await pipeline(false);
    const c3 = report.criteria.find((c) => c.id === 'C3')!;
    expect(c3.levels).toMatchObject({ S: 2, C: 2, B: 2 });
    expect(c3.dimensions.S.means).toBe('typed tools only, or no tool at all; none runs a command or code, reads or writes a file at a path it is given, or fetches an arbitrary page');
    expect(c3.dimensions.C.means).toBe("no tool at all; the model's replies are read as text, never as a tool's arguments");
    expect(c3.dimensions.B.means).toMatch(/^no shell and no tool/);
  });

  it('is no fixed pipeline once it starts a sandbox its replies act in (C3 S L0)', async () => {
    // The clicks the reply names land in a remote desktop the agent model does not follow.
    const report = await pipeline(false, true);
    const c3 = report.criteria.find((c) => c.id === 'C3')!;
    expect(c3.levels.S).toBe(0);
    expect(c3.levels.C).toBe(0);
    // The desktop is a microVM: B L2 by the ladder's own rule, in the ladder's words.
    expect(c3.dimensions.B.means).toBe('shell confined, fetch reaches any public URL');
  });

  it('is not read as reaching nothing once product code writes a file (C1 S L0)', async () => {
    const report = await pipeline(true);
    expect(report.agent!.tools).toEqual([]);
    expect(c1(report).levels.S).toBe(0);
    expect(c1(report).levels.D).toBeLessThan(3);
    expect(level(report, 'C4', 'B')).toBeLessThan(4);
  });
});
