import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { ROOT, RUBRIC } from '../helpers.js';

/**
 * py-plugin-chat offers the model no tool of its own on a fresh install and runs nothing it
 * wrote: a fixed pipeline, which its own expectations pin at C10 S and B L2. The same client
 * that also starts the MCP servers a user lists offers their tools to the model, so its run is a
 * tool loop, and no step cap bounds it. And where no tool is offered, a transcript of each model
 * call and its output is the whole record a reviewer needs (C9 S and C L2).
 */
function variant(edit: (dir: string, cli: string) => void) {
  const dir = join(mkdtempSync(join(tmpdir(), 'pipeline-')), 'quill');
  cpSync(join(ROOT, 'fixtures', 'py-plugin-chat'), dir, { recursive: true });
  edit(dir, join(dir, 'quill', 'cli.py'));
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}

describe('a fixed pipeline of model calls', () => {
  it('keeps a full record in a transcript of each call and its reply', async () => {
    const report = await variant((_dir, cli) => {
      const text = readFileSync(cli, 'utf8');
      const edited = text
        .replace('import json\n', 'import json\nfrom pathlib import Path\n\nHISTORY = Path.home() / ".quill" / "history.jsonl"\n')
        .replace('    print(message.content or "")', '    with open(HISTORY, "a", encoding="utf-8") as f:\n        f.write(json.dumps({"prompt": messages[0]["content"], "reply": message.content}) + "\\n")\n    print(message.content or "")');
      expect(edited).not.toBe(text);
      writeFileSync(cli, edited);
    });
    expect(report.agent!.tools).toEqual([]);
    const c9 = report.criteria.find((c) => c.id === 'C9')!;
    expect({ S: c9.levels.S, C: c9.levels.C }).toEqual({ S: 2, C: 2 });
  });

  it('is no fixed pipeline once the harness starts MCP servers whose tools it offers', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'pipeline-mcp-')), 'quill');
    cpSync(join(ROOT, 'fixtures', 'py-plugin-chat'), dir, { recursive: true });
    const cli = join(dir, 'quill', 'cli.py');
    const text = readFileSync(cli, 'utf8');
    writeFileSync(join(dir, 'quill', 'servers.py'), 'from mcp import StdioServerParameters\n\n\ndef server_params(command, args):\n    return StdioServerParameters(command=command, args=args)\n');
    writeFileSync(cli, text.replace('from .plugins import load_plugin_tools\n', 'from .plugins import load_plugin_tools\nfrom .servers import server_params\n').replace('    tools = load_plugin_tools()\n', '    tools = load_plugin_tools()\n    params = [server_params(c, []) for c in sys.argv[2:3]]\n'));
    const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
    const c10 = report.criteria.find((c) => c.id === 'C10')!;
    expect(c10.levels.S).toBeLessThan(2);
    expect(c10.levels.B).toBeLessThan(2);
  });
});
