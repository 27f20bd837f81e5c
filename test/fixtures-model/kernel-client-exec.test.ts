import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Jupyter kernel client handed the model's code by keyword (`kc.execute(code=code)`), whatever
 * the client is called: the code runs, so the function that hands it over is a code runner on the
 * host. The same call given a literal (a warm-up cell) runs nothing the model chose.
 */
const files = (cell: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "cellbot"\nversion = "0.1.0"\n[project.scripts]\ncellbot = "cellbot.main:main"\n',
  'cellbot/__init__.py': '',
  'cellbot/main.py': `from jupyter_client import BlockingKernelClient
from openai import OpenAI


def run_cell(kc: BlockingKernelClient, code: str) -> str:
    return kc.execute(${cell}, silent=False)


def main() -> None:
    kc = BlockingKernelClient(connection_file="kernel.json")
    kc.load_connection_file()
    reply = OpenAI().chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": input("> ")}])
    run_cell(kc, reply.choices[0].message.content)
`,
});

const runners = async (name: string, cell: string) =>
  (await audit(writeTree(name, files(cell)), { rubricDir: RUBRIC, factsCache: false })).agent!.tools.filter((t) => t.construct === 'code runner').map((t) => ({ name: t.name, reaches: t.reaches, sinks: t.paths.map((p) => p.sink.text) }));

describe('a kernel client handed code by keyword', () => {
  it("runs the model's code: a code runner on the host", async () => {
    expect(await runners('cellbot', 'code=code')).toContainEqual({ name: 'run_cell', reaches: ['exec'], sinks: ['kc.execute(code=code, silent=False)'] });
  });

  it('given a literal cell, runs nothing the model chose', async () => {
    expect((await runners('cellbot-literal', 'code="1 + 1"')).map((r) => r.name)).not.toContain('run_cell');
  });
});
