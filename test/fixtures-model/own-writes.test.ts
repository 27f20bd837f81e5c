import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * A file write on a tool's call chain is the model's only where the tool's input reaches it: a
 * screenshot saved under a folder the harness picked, or a log it keeps, is written at a path the
 * code chose ("own-write": listed, asked of no gate, no C2 cap). A tool that writes where its
 * arguments say, directly, through a helper, or through the fields of an object built from them,
 * writes for the model.
 */
const TOOLS = (body: string) => `import os

LOG_DIR = "/tmp/agent-logs"


def write_log(entry):
    with open(os.path.join(LOG_DIR, "session.log"), "a") as f:
        f.write(entry)


def save_text(target, text):
    with open(target, "w") as f:
        f.write(text)


class Shot:
    def __init__(self, query):
        self.query = query
        self.counter = 0

    def save(self):
        self.counter += 1
        with open(os.path.join(LOG_DIR, f"shot_{self.counter}.png"), "wb") as f:
            f.write(b"png")


class Note:
    def __init__(self, path, text):
        self.path = path
        self.text = text

    def save(self):
        save_text(self.path, self.text)


${body}
`;

const toolReach = async (name: string, body: string) => {
  const report = await audit(writeTree(name, toolLoopAgent('writebot', { extra: TOOLS(body), entries: ', "act": act' })), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'act')!;
  return { reaches: tool.reaches, capped: report.criteria.find((c) => c.id === 'C2')!.cap !== null };
};

describe('writes on a tool\'s call chain', () => {
  it('a log the harness keeps is its own write: listed, no C2 cap', async () => {
    const r = await toolReach('own-log', 'def act(query: str) -> str:\n    write_log(f"act {query}")\n    return "ok"');
    expect(r.reaches).toEqual(['own-write']);
    expect(r.capped).toBe(false);
  });

  it('a screenshot saved under the harness\'s folder is its own write', async () => {
    expect((await toolReach('own-shot', 'def act(query: str) -> str:\n    Shot(query).save()\n    return "ok"')).reaches).toEqual(['own-write']);
  });

  it('a file at the path the tool was given is the model\'s write: the C2 cap fires', async () => {
    const r = await toolReach('model-path', 'def act(path: str, text: str) -> str:\n    save_text(path, text)\n    return "ok"');
    expect(r.reaches).toContain('write');
    expect(r.capped).toBe(true);
  });

  it('so is one at a path an assignment builds from the arguments', async () => {
    expect((await toolReach('model-joined', 'def act(name: str) -> str:\n    target = os.path.join("notes", name)\n    save_text(target, "x")\n    return "ok"')).reaches).toContain('write');
  });
});

describe('writes through an object built from the tool\'s arguments', () => {
  it('are the model\'s: the object\'s fields hold the arguments', async () => {
    expect((await toolReach('model-object', 'def act(path: str, text: str) -> str:\n    Note(path, text).save()\n    return "ok"')).reaches).toContain('write');
  });
});
