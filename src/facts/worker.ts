import { parentPort, workerData } from 'node:worker_threads';
import { extractFacts } from './extract.js';
import type { Plan } from './plan.js';
import type { Reply, Request } from './pool.js';

/** A fact-extraction worker: the plan arrives once; each request is a batch of files, answered under its own id. */
const plan = (workerData as { plan: Plan }).plan;
parentPort!.on('message', (req: Request) => {
  let reply: Reply;
  try {
    reply = { id: req.id, facts: req.files.map((f) => extractFacts(f, plan)) };
  } catch (e) {
    reply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(reply);
});
