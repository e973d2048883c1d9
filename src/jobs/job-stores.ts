/**
 * The stores of a server's deferred work, opened once from its options: its results (guarded, each write once), the
 * shared store beneath them where its other features keep their records, its journals, the lease of its running jobs
 * and its queue (given, kept in the store, or none: `queue-in-store.ts`).
 *
 * @module
 */
import { guardJournalStore, guardSharedStore, guardStore, storeGuard } from "./guarded-store.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { sharedStoreOf } from "../store/store-of.ts";
import type { JournalStore } from "./journal-store.ts";
import { storeOnce } from "./store-once.ts";
import { journalStoreFromResults } from "./result-store-journals.ts";
import { createMemoryResultStore, type ResultStore } from "./result-store.ts";
import type { WorkQueue } from "./work-queue.ts";
import { serverQueue } from "./queue-in-store.ts";
import type { TokenCodecOptions } from "../codec/token.ts";

/** What {@link openJobStores} opens from: the server's stores, queue, lease and name (and the clock of its own). */
export interface JobStoresOptions extends Pick<TokenCodecOptions, "now"> {
  /** Where deferred results wait (default: an in-memory store of this process). */
  results?: ResultStore;
  /** Where jobs keep their journals (default: the result store's own, else its entries). */
  journals?: JournalStore;
  /**
   * With a shared store, how long a running job's lease lasts, in ms (default 5 000): the instance
   * running it renews it every third of that, and a redeem on any instance that finds it lapsed (and
   * no result) answers that the instance stopped, instead of "not done yet" until the token expires.
   */
  leaseMs?: number;
  /** Receives the store's errors, once per outage (the wires answer "retry later" meanwhile). */
  onError?: (error: unknown) => void;
  /**
   * Where deferred work goes to be run by workers (`runWorker()`); needs a shared `results` store. Without one, over a
   * shared store of this SDK: a queue kept in that store, which every instance takes from (`jobs-here.ts`); `"store"`
   * asks for that one, refused where it cannot be.
   */
  queue?: WorkQueue | "store";
  /**
   * The server's name: without a `queue`, its instances' queue kept in the shared store is named by it, so that
   * servers of other names sharing the store keep their jobs apart.
   */
  server?: string;
}

/** The stores of a server's deferred work, as the engine uses them. */
export interface JobStores {
  /** Where deferred results wait. */
  readonly results: ResultStore;
  /**
   * The shared store the results are a view of, where the server's other features keep their records (each in a
   * namespace of its own: `storeSpace()`), guarded as the results are.
   */
  readonly store: SharedStore;
  /** Where jobs keep their journals. */
  readonly journals: JournalStore;
  /** How long a job's lease lasts unless its holder renews it (every third of it), with a shared store. */
  readonly leaseMs: number | undefined;
  /** Where deferred work goes, when workers run it; the queue then owns its delivery, not the lease. */
  readonly queue: WorkQueue | undefined;
  /**
   * The queue is the one the server's instances keep in their shared store (no `queue` given): each instance takes
   * its jobs itself, from its first request (`jobs-here.ts`).
   */
  readonly ownsQueue: boolean;
}

/**
 * Opens the stores of a server's deferred work.
 *
 * @param options The server's stores, queue, lease and name.
 * @param retryAfterMs What an outage's answers say to wait, in ms.
 * @param seeing The result store as the engine writes it (its final writes shown to the features that listen).
 * @returns The stores.
 * @throws {RangeError} A `leaseMs` that is not positive.
 * @throws {TypeError} A queue without a shared result store; `queue: "store"` where it cannot be.
 */
export function openJobStores(
  options: JobStoresOptions,
  retryAfterMs: number,
  seeing: (results: ResultStore) => ResultStore,
): JobStores {
  const guard = storeGuard(retryAfterMs, options.onError); // one per backend: an outage is told once
  const given = options.results;
  const memory = given === undefined ? createMemoryResultStore({ now: options.now }) : undefined;
  const results = seeing(storeOnce(memory ?? guardStore(given!, guard)));
  const store = memory?.store ?? guardSharedStore(sharedStoreOf(given!), guard);
  const kept = options.journals ?? given?.journalStore;
  const journals = kept === undefined ? journalStoreFromResults(results) : guardJournalStore(kept, guard);
  // Only a store shared with other instances can hold leases (and carry answers given there).
  const leaseMs = given === undefined ? undefined : options.leaseMs ?? 5_000;
  if (leaseMs !== undefined && !(leaseMs > 0)) throw new RangeError("leaseMs must be positive");
  // Instances sharing a store and no queue keep one in the store, and each takes its jobs (`jobs-here.ts`): a job
  // whose instance died is delivered again by the queue, whoever reads it.
  const chosen = serverQueue(options.queue, given, store, options.server, leaseMs);
  if (chosen.queue !== undefined && given === undefined) {
    throw new TypeError("a queue needs a result store its workers share (resultStore)");
  }
  return { results, store, journals, leaseMs, queue: chosen.queue, ownsQueue: chosen.inStore };
}
