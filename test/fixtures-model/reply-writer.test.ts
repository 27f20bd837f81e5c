import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A code generator with no tool: the model plans the files, and the harness writes each one at the
 * path the plan names (a `../` or an absolute name lands anywhere). That write is the model's, so
 * it runs unasked (the C2 cap). The same harness writing the reply to a path of its own (a log) has
 * no such path; asking before each file gates it.
 */
const generator = (loop: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "scaffold"\nversion = "0.1.0"\n[project.scripts]\nscaffold = "scaffold.main:main"\n',
  'scaffold/__init__.py': '',
  'scaffold/llm.py': `import json

from openai import OpenAI

client = OpenAI()


def plan_files(prompt):
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": f"List the files for: {prompt}"}])
    return json.loads(reply.choices[0].message.content)


def write_code(prompt, path):
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": f"Write {path} for: {prompt}"}])
    return reply.choices[0].message.content
`,
  'scaffold/files.py': `import os


def write_file(filename, content):
    os.makedirs(os.path.dirname(filename) or ".", exist_ok=True)
    with open(filename, "w") as f:
        f.write(content)
`,
  'scaffold/main.py': `import os
import sys

from scaffold.files import write_file
from scaffold.llm import plan_files, write_code


def main(folder="generated"):
    prompt = sys.argv[1]
    file_paths = plan_files(prompt)
    for file_path in file_paths:
        code = write_code(prompt, file_path)
${loop}
`,
});

const WRITE = '        write_file(os.path.join(folder, file_path), code)';
const LOG = '        write_file(os.path.join(folder, "generation.log"), code)';
const ASK = '        if input(f"Write {file_path}? [y/N] ").strip().lower() != "y":\n            continue\n' + WRITE;

const score = (name: string, loop: string) => audit(writeTree(name, generator(loop)), { rubricDir: RUBRIC, factsCache: false });
const capped = (report: Awaited<ReturnType<typeof score>>) => report.criteria.filter((c) => c.cap !== null).map((c) => c.id);
const writer = (report: Awaited<ReturnType<typeof score>>) => report.agent!.tools.find((t) => t.construct === 'file writer');

describe('files written at paths the model names', () => {
  it('are the model\'s writes: unasked, they fire the C2 cap, and the site re-verifies', async () => {
    const report = await score('reply-writer', WRITE);
    expect(writer(report)).toMatchObject({ name: 'write_file', reaches: ['write'], status: 'ungated' });
    expect(writer(report)!.site.verified).toBe(true);
    expect(capped(report)).toContain('C2');
  });

  it('are not a reply written to a path the code chose', async () => {
    const report = await score('reply-log', LOG);
    expect(writer(report)).toBeUndefined();
    expect(capped(report)).not.toContain('C2');
  });

  it('are gated by an ask before each file', async () => {
    const report = await score('reply-writer-ask', ASK);
    expect(writer(report)).toMatchObject({ status: 'gated' });
    expect(capped(report)).not.toContain('C2');
  });
});

/**
 * The same generator with an edit manager between the reply and the write: the reply is parsed into
 * edits, and the manager loops over them, writing each at a path it assigns from the edit
 * (`path = edit.new_path or edit.path`). The path is the model's through the loop and the
 * assignment, as it is when handed over directly.
 */
const manager = (ask: boolean): Record<string, string> => ({
  ...generator(''),
  'scaffold/edits.py': `import os

from scaffold.files import write_file


class EditManager:
    def apply_edits(self, edits):
        applied = []
        for edit in edits:
            path = edit.get("new_path") or edit["path"]
            write_file(path, edit["content"])
            applied.append(edit)
        return applied

    def apply_tree(self, tree):
        for name, content in tree.items():
            target = os.path.join("out", name)
            write_file(target, content)
`,
  'scaffold/main.py': `import sys

from scaffold.edits import EditManager
from scaffold.llm import plan_files


def main():
    edits = plan_files(sys.argv[1])
${ask ? '    if input(f"Apply {len(edits)} edits? [y/N] ").strip().lower() != "y":\n        return\n' : ''}    EditManager().apply_edits(edits)
`,
});

describe('files written at paths the model names, through a loop and an assignment in between', () => {
  it('are the model\'s writes, unasked', async () => {
    const report = await audit(writeTree('reply-edits', manager(false)), { rubricDir: RUBRIC, factsCache: false });
    expect(writer(report)).toMatchObject({ name: 'write_file', reaches: ['write'], status: 'ungated' });
    expect(capped(report)).toContain('C2');
  });

  it('are gated by the ask before the edits are applied', async () => {
    const report = await audit(writeTree('reply-edits-ask', manager(true)), { rubricDir: RUBRIC, factsCache: false });
    expect(writer(report)).toMatchObject({ status: 'gated' });
    expect(capped(report)).not.toContain('C2');
  });

  it('are the model\'s writes where the path is the first of two names a loop binds (`for name, content in tree.items()`)', async () => {
    const files = manager(false);
    files['scaffold/main.py'] = files['scaffold/main.py']!.replace('EditManager().apply_edits(edits)', 'EditManager().apply_tree(edits)');
    const report = await audit(writeTree('reply-tree', files), { rubricDir: RUBRIC, factsCache: false });
    expect(writer(report)).toMatchObject({ name: 'write_file', reaches: ['write'], status: 'ungated' });
  });
});

/**
 * A path object's own write (`Path(...).write_text(code)`) writes where the object points: the
 * model names the file only when the object is built from its reply, and not once a file-name
 * sanitizer (`secure_filename`) made a safe name of it.
 */
describe('files written through a path object', () => {
  const loop = (target: string) => `        from pathlib import Path\n        out = Path(${target})\n        out.write_text(code)`;

  it('are the model\'s writes when the reply names the path', async () => {
    expect(writer(await score('reply-path-named', loop('folder, file_path')))).toMatchObject({ name: 'main', status: 'ungated' });
  });

  it('are the model\'s writes when the path object is built in the same expression', async () => {
    const inline = '        from pathlib import Path\n        Path(os.path.join(folder, file_path)).write_text(code)';
    expect(writer(await score('reply-path-inline', inline))).toMatchObject({ name: 'main', status: 'ungated' });
  });

  it('are not when only the content is the reply\'s', async () => {
    expect(writer(await score('reply-path-log', loop('folder, "generation.log"')))).toBeUndefined();
  });

  it('are not when the name went through a file-name sanitizer', async () => {
    expect(writer(await score('reply-path-safe', `        safe = secure_filename(file_path)\n${loop('folder, safe')}`))).toBeUndefined();
  });
});
