/**
 * The queue a server's instances keep in their shared store (`store-queue.ts`) when given none: named by the server,
 * its sweeps no rarer than a lease; none where instances cannot keep one, and `queue: "store"` refused there.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import type { ResultStore } from "./result-store.ts";
import { storeQueue } from "./store-queue.ts";
import type { WorkQueue } from "./work-queue.ts";
import { TIMERS_PER_REQUEST } from "../runtime/workers/request-timers.ts";

/**
 * How often an instance's taker of the queue kept in its store looks at it, in ms, at most (a `leaseMs` shorter than
 * this, it looks once a lease): the jobs an instance queues, and a job a signal or a child's end wakes, are woken where
 * that happens, at once; the poll sweeps (a dead instance's jobs) and takes what a busy instance left waiting, for 2
 * store reads a second an idle instance.
 */
const OWN_POLL_MS = 1_000;

/**
 * Refuses `queue: "store"` where instances cannot keep a queue in their store: without a shared one, over a result
 * store of the user's own (no compare-and-set of its own), or where timers end with the request that armed them.
 */
function refuseStoreQueue(given: ResultStore | undefined): void {
  const refused = given === undefined
    ? "needs a resultStore the instances share"
    : given.store === undefined
    ? "needs a result store of this SDK (redisResultStore(), postgresResultStore(), denoKvResultStore()), not one of " +
      "your own"
    : TIMERS_PER_REQUEST
    ? "cannot run on Workers, whose timers end with their requests: leave queue out"
    : undefined;
  if (refused !== undefined) throw new TypeError(`createServer({ queue: "store" }) ${refused}`);
}

/**
 * The queue of a server: the one it was given; else, over a shared result store of this SDK where timers outlive
 * requests, the queue its instances keep in that store, which each of them takes from (`worker/jobs-here.ts`); else
 * none (one process, a result store of the user's own, Workers: a job runs where its call was taken).
 *
 * @param queue The server's `queue` option.
 * @param given The result store the server was given.
 * @param store The shared store it is a view of, as the server guards it.
 * @param server The server's name: instances of one name share the queue.
 * @param leaseMs How long a claim on a job lasts unless renewed.
 * @returns The queue, and whether it is the one kept in the store.
 * @throws {TypeError} `queue: "store"` without a shared result store, over one of the user's own, or on Workers.
 */
export function serverQueue(
  queue: WorkQueue | "store" | undefined,
  given: ResultStore | undefined,
  store: SharedStore,
  server: string | undefined,
  leaseMs: number | undefined,
): { readonly queue?: WorkQueue; readonly inStore: boolean } {
  if (queue === "store") refuseStoreQueue(given);
  else if (queue !== undefined) return { queue, inStore: false };
  else if (given?.store === undefined || TIMERS_PER_REQUEST) return { inStore: false };
  // A sweep no rarer than a lease: a death is found in proportion to it.
  const pollMs = Math.min(OWN_POLL_MS, leaseMs!);
  return { queue: storeQueue(store, { name: `jobs:${server}`, leaseMs, pollMs }), inStore: true };
}
