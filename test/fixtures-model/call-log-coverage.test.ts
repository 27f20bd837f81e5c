import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * C9 coverage is about which calls are recorded, not how: an agent whose dispatch loop prints
 * every tool call with its arguments records every call (C9 C L2) though only as console lines
 * (C9 S L1). Printing only the model's answers records no call.
 */
const agent = (line: string) => toolLoopAgent('loopbot', { atDispatch: line });

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
const c9 = async (name: string, line: string) => (await score(name, agent(line))).criteria.find((c) => c.id === 'C9')!.levels;

describe('every tool call printed with its arguments where calls are dispatched', () => {
  it('records every call: C9 C L2 with an unstructured record (S L1)', async () => {
    expect(await c9('call-log-dispatch', '            print(f"Calling {tool_call.function.name} with {tool_call.function.arguments}")')).toMatchObject({ S: 1, C: 2 });
  });

  it('printing nothing of the calls records none of them', async () => {
    expect((await c9('call-log-none', '            pass')).C).toBeLessThan(2);
  });
});
