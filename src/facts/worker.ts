import { parentPort, workerData } from 'node:worker_threads';
import { extractBatch } from './extract.js';
import type { Plan } from './plan.js';
import type { Reply, Request } from './pool.js';

/** A fact-extraction worker: the plan arrives once; each request is a batch of files, answered under its own id. */
const plan = (workerData as { plan: Plan }).plan;
parentPort!.on('message', (req: Request) => {
  extractBatch(req.files, plan).then(
    (facts) => parentPort!.postMessage({ id: req.id, facts } satisfies Reply),
    (e: unknown) => parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies Reply),
  );
});
