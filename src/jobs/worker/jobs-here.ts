/**
 * A server's instances that share a store and no queue share a queue kept in the store (`store-queue.ts`), and each
 * takes its jobs: from its first request (or `serve()`) until it drains, so that a job whose instance died is delivered
 * again on a live one, whoever reads it or nobody. A process that only loads the server (`mcplite jobs`) takes none.
 *
 * @module
 */
import type { Registry } from "../../core/definitions/registry.ts";
import { continuationsOf } from "../continuations.ts";
import { takeJobs } from "./run-worker.ts";

/**
 * How many of the queue's jobs an instance runs at once: a queue's bound, where deferred work ran unbounded in its
 * instance before; jobs past it wait for a run here to end, or for another instance.
 */
const JOBS_AT_ONCE = 64;

/**
 * Starts this instance's taker of the queue its server keeps in its shared store, once; nothing for a server with
 * a queue of its own (its workers take its jobs) or a worker already taking them here.
 *
 * @param registry The server's registry.
 */
export function takeJobsHere(registry: Registry): void {
  const engine = continuationsOf(registry.runtime);
  if (!engine.ownsQueue || !engine.claimTaking()) return;
  const taker = takeJobs(registry, engine.queue!, { concurrency: JOBS_AT_ONCE });
  // Draining (`server.drain()`, a listener's `close()`), the instance stops taking jobs at once; those it runs go on
  // (given back to the queue past the worker's drain time), and a taker started after the drain stops as it starts.
  registry.runtime.hold(() => void taker.close());
}
