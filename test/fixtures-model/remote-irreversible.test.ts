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

/**
 * Only a client library's mutating call is a remote change: the repository's own method of such a
 * name (an approval runtime's `create_request`) is followed like any call, and an event loop's
 * `create_task` or `create_future` is local.
 */
const OWN = (call: string) => `import asyncio

from tracker import Client

tracker = Client()


class Runtime:
    def create_request(self, number):
        return {"issue": number}


runtime = Runtime()


def close_issue(number: int) -> str:
    ${call}
    return "done"
`;

const reaches = async (name: string, call: string) => {
  const report = await audit(writeTree(name, toolLoopAgent('trackbot', { extra: OWN(call), entries: ', "close_issue": close_issue' })), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.find((t) => t.name === 'close_issue')!.reaches;
};

describe('a remote change is a client library\'s call', () => {
  it('the repository\'s own create_request is no remote change', async () => {
    expect(await reaches('remote-own', 'runtime.create_request(number)')).not.toContain('remote');
  });

  it('an event loop\'s create_task and create_future are none', async () => {
    expect(await reaches('remote-loop', 'asyncio.get_running_loop().create_future()\n    asyncio.get_running_loop().create_task(asyncio.sleep(0))')).not.toContain('remote');
  });

  it('the client\'s delete_issue is one', async () => {
    expect(await reaches('remote-client', 'tracker.delete_issue(number)')).toContain('remote');
  });
});

/**
 * An event loop's `create_task` is the runtime's, even where the repository defines a method of
 * that name (a job queue whose `create_task` writes the file a job names): a tool that schedules
 * work on the loop does not reach that write.
 */
const LOOP_TASK = (recv: string) => `import asyncio
import json


class JobQueue:
    def create_task(self, job):
        with open(job["path"], "w") as f:
            json.dump(job, f)


async def flush():
    return None


def note(text: str) -> str:
    loop = asyncio.new_event_loop()
    ${recv}.create_task(${recv === 'loop' ? 'flush()' : '{"path": text}'})
    return "noted"
`;

describe('an event loop\'s create_task', () => {
  const noteReaches = async (name: string, recv: string) => {
    const report = await audit(writeTree(name, toolLoopAgent('notebot', { extra: LOOP_TASK(recv), entries: ', "note": note' })), { rubricDir: RUBRIC, factsCache: false });
    return report.agent!.tools.find((t) => t.name === 'note')!.reaches;
  };

  it('is the runtime\'s, not the repository\'s create_task that writes a file', async () => {
    expect(await noteReaches('loop-task', 'loop')).not.toContain('write');
  });

  it('on a job queue is the repository\'s method, which writes', async () => {
    expect(await noteReaches('queue-task', 'JobQueue()')).toContain('write');
  });
});

/**
 * The harness's own store, repository or cache keeps its own state (a session's status, a saved
 * note): an update through it changes no remote service's records, so it is no irreversible remote
 * action, whatever the method's name. The same update through the tracker's client is one.
 */
const STORE = (call: string) => `from tracker import Client

from trackbot.storage import SessionStore

tracker = Client()
store = SessionStore()


def close_issue(number: int) -> str:
    ${call}
    return "done"
`;

const storeC5b = async (name: string, call: string) => {
  const tree = toolLoopAgent('trackbot', { extra: STORE(call), entries: ', "close_issue": close_issue' });
  tree['trackbot/storage.py'] = 'import sqlite3\n\n\nclass SessionStore:\n    def __init__(self):\n        self.db = sqlite3.connect("sessions.db")\n';
  return (await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C5')!.levels.B;
};

describe("the harness's own store", () => {
  it('an update through it is no remote change (C5 B L1)', async () => {
    expect(await storeC5b('own-store', 'store.update_session(number, status="closed")')).toBe(1);
  });

  it('the same update through the service client is one (C5 B L0)', async () => {
    expect(await storeC5b('client-update', 'tracker.update_issue(number, status="closed")')).toBe(0);
  });
});
