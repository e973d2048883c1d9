/**
 * BullMQ's own counts of a queue's jobs, read from its backend (Redis or PostgreSQL) the way Bull Board reads them,
 * for the worker tests: what the queue holds, not what our server says of it.
 */
import assert from "node:assert/strict";
import { createPostgresBackend, Queue, withBackend } from "bullmq";

/** BullMQ's states a job of the queue can be in until it is done (a done one is kept a while, completed or failed). */
const UNFINISHED = ["waiting", "active", "delayed", "prioritized"] as const;

/** Reads BullMQ's counts of the queue `name` on `url` until `done` holds them, at most `timeoutMs`. */
export async function countsUntil(
  url: string,
  name: string,
  done: (counts: Record<string, number>) => boolean,
  timeoutMs: number,
): Promise<void> {
  const counts = await openCounts(url, name);
  try {
    await counts.until(done, timeoutMs);
  } finally {
    await counts.close();
  }
}

/**
 * BullMQ's counts of the queue `name` on `url`, on a connection opened (and a first count read) before it resolves:
 * for a test that must see a state soon after it begins (two jobs still waiting while others run), where opening a
 * connection then, slow on a loaded machine (PostgreSQL's above all), would let the state pass before its first read.
 */
export async function openCounts(url: string, name: string): Promise<{
  /** Reads the counts until `done` holds them, at most `timeoutMs`. */
  until(done: (counts: Record<string, number>) => boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}> {
  const { hostname, port } = new URL(url);
  const queue = url.startsWith("redis:")
    ? new Queue(name, { connection: { host: hostname, port: Number(port) } })
    : new (withBackend(createPostgresBackend).Queue)(name, { connection: { connectionString: url } });
  try {
    await queue.getJobCounts(...UNFINISHED, "failed");
  } catch (error) {
    await queue.close();
    throw error;
  }
  return {
    async until(done, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const counts = await queue.getJobCounts(...UNFINISHED, "failed");
        if (done(counts)) return;
        if (Date.now() > deadline) assert.fail(`after ${timeoutMs} ms, BullMQ counts ${JSON.stringify(counts)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => queue.close(),
  };
}

/** Waits until BullMQ holds no unfinished job of the queue (waiting, active, delayed or prioritized). */
export const drained = (url: string, name: string, timeoutMs: number): Promise<void> =>
  countsUntil(url, name, (counts) => UNFINISHED.every((state) => counts[state] === 0), timeoutMs);
