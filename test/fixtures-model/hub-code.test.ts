import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * A model loaded with `trust_remote_code=True` runs the Python its hub repository holds at load
 * time, in the harness's process. With no `revision=` that is whatever the repository holds today:
 * third-party code, enabled by the load itself, from an unpinned source (C7 S L0 and the C7 cap).
 * Pinned to a revision, or with remote code off, it is neither.
 */
const loader = (args: string) => `from transformers import AutoModelForCausalLM


def load_captioner(path: str):
    return AutoModelForCausalLM.from_pretrained(path, ${args})


CAPTIONER = load_captioner("acme/captioner")
`;

// A tool that uses the loaded model: a load nothing uses would be a definition, not a control.
const CAPTION_TOOL = 'from hubbot.caption import CAPTIONER\n\n\ndef caption(image: str) -> str:\n    return CAPTIONER(image)\n';

const c7 = async (name: string, args: string) => {
  const report = await audit(writeTree(name, { ...toolLoopAgent('hubbot', { extra: CAPTION_TOOL, entries: ', "caption": caption' }), 'hubbot/caption.py': loader(args) }), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C7')!;
};

describe('model code run from a hub (trust_remote_code)', () => {
  it('unpinned: third-party code runs automatically from an unpinned source, and the C7 cap fires', async () => {
    const c = await c7('hub-unpinned', 'trust_remote_code=True');
    expect(c.levels.S).toBe(0);
    expect(c.cap).toBe(0.2);
    expect(c.capEvidence.map((e) => (e.kind === 'lines' ? `${e.path}:${e.startLine}` : e.kind))).toContain('hubbot/caption.py:5');
  });

  it('pinned to a revision: no cap', async () => {
    expect((await c7('hub-pinned', 'trust_remote_code=True, revision="3c2a9f1e8b7d6c5a4f3e2d1c0b9a8f7e6d5c4b3a"')).cap).toBeNull();
  });

  it('remote code off: no cap', async () => {
    expect((await c7('hub-off', 'torch_dtype="auto"')).cap).toBeNull();
  });
});
