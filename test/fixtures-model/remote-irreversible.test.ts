import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * C5 B: "can exfiltrate with no human, cannot act irreversibly" (L1) does not hold where a tool
 * changes a remote service's state with nobody asked (a delete through the service's client): a
 * hijacked session can do that irreversibly (L0). A tool that only reads the service stays at L1.
 */
const TRACKER = (call: string) => `from tracker import Client

tracker = Client()


def close_issue(number: int) -> str:
    ${call}
    return "done"
`;

const c5b = async (name: string, call: string) =>
  (await audit(writeTree(name, toolLoopAgent('trackbot', { extra: TRACKER(call), entries: ', "close_issue": close_issue' })), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C5')!.levels.B;

describe('C5 B and a remote service changed unasked', () => {
  it('a tool that deletes through the service client with nobody asked: L0', async () => {
    expect(await c5b('remote-delete', 'tracker.delete_issue(number)')).toBe(0);
  });

  it('a tool that only reads the service: L1', async () => {
    expect(await c5b('remote-read', 'tracker.get_issue(number)')).toBe(1);
  });
});
