import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A code generator that parses the model's reply into files and stores each through a folder
 * object's item setter (`workspace[name] = content`, `DB.__setitem__` writing the file): the
 * assignment is a call of the setter, so the reply reaches the write, and nothing asks first.
 */
const files = (secondSetter: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "gen"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'gen/db.py': `from pathlib import Path


class DB:
    def __init__(self, path):
        self.path = Path(path)

    def __setitem__(self, key, val):
        full_path = self.path / key
        full_path.parent.mkdir(parents=True, exist_ok=True)
        full_path.write_text(val)
${secondSetter ? '\n\nclass Cache:\n    def __setitem__(self, key, val):\n        self.data = {key: val}\n' : ''}`,
  'gen/main.py': `import re
import sys

from openai import OpenAI

from gen.db import DB

client = OpenAI()


def to_files(chat, workspace):
    for name, content in re.findall(r"FILE (\\S+)\\n(.*?)\\nEND", chat, re.S):
        workspace[name] = content


def main():
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": sys.argv[1]}])
    to_files(reply.choices[0].message.content, DB("workspace"))


if __name__ == "__main__":
    main()
`,
});

describe("a file written through an item setter from the model's reply", () => {
  it('is a write the reply reaches, with nobody asked', async () => {
    const report = await audit(writeTree('gen-setitem', files(false)), { rubricDir: RUBRIC, factsCache: false });
    const writer = report.agent!.tools.find((t) => t.reaches.includes('write'));
    expect(writer && { construct: writer.construct, gated: writer.gated, sink: writer.paths[0]!.sink.link }).toEqual({ construct: 'file writer', gated: false, sink: 'gen/db.py#L11' });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('is not followed where two classes define an item setter (the object could be either, or a dict)', async () => {
    const report = await audit(writeTree('gen-setitem-two', files(true)), { rubricDir: RUBRIC, factsCache: false, force: true });
    expect(report.agent!.tools.filter((t) => t.reaches.includes('write'))).toEqual([]);
  });
});
