import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileFacts, FileInput } from './extract.js';
import type { Plan } from './plan.js';

/** A request to a worker and its answer carry the same id: a reply is never taken for another request's. */
export interface Request {
  id: number;
  files: FileInput[];
}
export type Reply = { id: number; facts: FileFacts[] } | { id: number; error: string };

const here = fileURLToPath(import.meta.url);
// Under the test runner this module is TypeScript source; the worker always runs the built JavaScript.
const WORKER_FILE = here.endsWith('.ts') ? join(dirname(here), '..', '..', 'dist', 'facts', 'worker.js') : join(dirname(here), 'worker.js');

/**
 * Contiguous runs of files of about equal size, one per worker: each run is one multi-file scan,
 * whose rules compile once (a quarter to half a second per language), so fewer, larger runs win.
 */
export function batchesOf(files: FileInput[], count: number): FileInput[][] {
  const total = files.reduce((n, f) => n + f.text.length, 0);
  const share = total / Math.max(1, count);
  const out: FileInput[][] = [];
  let cur: FileInput[] = [];
  let bytes = 0;
  for (const f of files) {
    if (cur.length && bytes + f.text.length / 2 > share && out.length < count - 1) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(f);
    bytes += f.text.length;
  }
  if (cur.length) out.push(cur);
  return out;
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(availableParallelism(), 8));
}

/**
 * Extracts facts on worker threads, a batch of files per message. Answers are matched to requests
 * by id and results are put back in input order, so the outcome never depends on which worker
 * finished first or how loaded the machine is. There is no timeout: extraction is linear-time by
 * construction (tree-sitter parses, RE2 patterns), and a worker that fails fails the whole run.
 */
export class FactsPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (f: FileFacts[]) => void; reject: (e: Error) => void }>();
  private failure: Error | null = null;

  constructor(plan: Plan, size = defaultPoolSize(), workerFile = WORKER_FILE) {
    for (let i = 0; i < size; i++) {
      const w = new Worker(workerFile, { workerData: { plan } });
      w.on('message', (reply: Reply) => this.answer(w, reply));
      w.on('error', (e) => this.fail(new Error(`fact extraction failed: ${e.message}`)));
      w.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`fact extraction worker stopped (exit code ${code})`));
      });
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  private queue: Array<() => void> = [];

  private answer(w: Worker, reply: Reply): void {
    const pending = this.waiting.get(reply.id);
    // A reply to no open request (a stale or duplicated message) is dropped, never applied elsewhere.
    if (!pending) return;
    this.waiting.delete(reply.id);
    this.idle.push(w);
    if ('error' in reply) pending.reject(new Error(`fact extraction failed: ${reply.error}`));
    else pending.resolve(reply.facts);
    this.queue.shift()?.();
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const p of this.waiting.values()) p.reject(e);
    this.waiting.clear();
  }

  private send(files: FileInput[]): Promise<FileFacts[]> {
    return new Promise((resolve, reject) => {
      const go = () => {
        if (this.failure) return reject(this.failure);
        const w = this.idle.pop()!;
        const id = this.nextId++;
        this.waiting.set(id, { resolve, reject });
        w.postMessage({ id, files } satisfies Request);
      };
      if (this.idle.length) go();
      else this.queue.push(go);
    });
  }

  /** Facts of every file, in the order given. */
  async extract(files: FileInput[]): Promise<FileFacts[]> {
    const parts = await Promise.all(batchesOf(files, this.workers.length).map((b) => this.send(b)));
    return parts.flat();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
