/**
 * A server on a queue in one process, for the tests of what a queue carries and shows (tests/bullmq/): its results in
 * memory, which its web side and a worker in the same process share, the ids of its jobs as they start, tools that
 * fail (`ledger` throws, `hang` runs past its `timeoutMs` of 300), and a wait on BullMQ's own view of a job.
 */
import type { Job, Queue } from "bullmq";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, type ServerOptions } from "../../mod.ts";
import type { WorkQueue } from "../../src/types.ts";
import { readUntil } from "./wait.ts";

/**
 * A server called `name` on `queue`, with `options`, and the ids of its jobs in the order their calls came.
 *
 * @param name The server's name.
 * @param queue Its queue.
 * @param options More of its options (a logger, `maskErrors`).
 */
export function queuedInProcess(name: string, queue: WorkQueue, options: Partial<ServerOptions> = {}) {
  const ids: string[] = [];
  const memory = createMemoryResultStore();
  const server = createServer({
    name,
    version: "1.0.0",
    secret: `${name}'s secret: thirty-two bytes or more`,
    resultStore: {
      ...memory,
      set(id, entry, ttlMs) {
        if (!id.includes(":") && entry.status === "working" && !ids.includes(id)) ids.push(id);
        return memory.set(id, entry, ttlMs);
      },
    },
    queue,
    ...options,
  });
  return { server, ids };
}

/** `ledger`, whose work throws. */
export const ledger = defineTool("ledger").describe("Writes the ledger").input(v.object({})).longRunning().defer(() => {
  throw new Error("ledger for s1 refused the write");
});

/** `hang`, whose work never ends: it fails at its `timeoutMs` (300). */
export const hang = defineTool("hang").describe("Never ends").input(v.object({})).longRunning({ timeoutMs: 300 })
  .defer(() => new Promise<never>(() => {}));

/** Reads BullMQ's job until `done` holds of it (at most 20 s, a bound for a loaded machine). */
export function jobUntil(
  board: Queue,
  id: string,
  done: (job: Job | undefined) => boolean,
): Promise<Job | undefined> {
  return readUntil(() => board.getJob(id), done, `BullMQ's job ${id}`, { timeoutMs: 20_000, everyMs: 50 });
}
