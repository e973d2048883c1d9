/**
 * A running job's lease on a shared store: a record (`lease:<id>`) the instance running the job renews every third of
 * its length, so an instance that reads the job tells a stopped one (its lease missing for a whole lease, from when that
 * was first found) from a live one; and the claims on a job's later attempts, in its journal, first writer wins.
 *
 * @module
 */
import type { JournalStore } from "./journal-store.ts";
import type { ResultStore } from "./result-store.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { storeSpace } from "../store/store-space.ts";

/** A server's stores, clock and lease length: whoever holds, reads or claims its jobs' leases. */
export interface Leases {
  /** The shared result store, where jobs' entries are kept. */
  readonly results: ResultStore;
  /** The shared store it is a view of, where leases and their lapse marks are kept. */
  readonly store: SharedStore;
  /** The jobs' journals, where the claims on their attempts are kept. */
  readonly journals: JournalStore;
  /** The clock, in ms since the epoch. */
  readonly codec: { readonly now: () => number };
  /** How long a lease lasts unless its holder renews it, in ms. */
  readonly leaseMs: number;
}

/** What the journal entry of a claim on a job's attempt (from the second on) is named by, the attempt after it. */
const ATTEMPT_CLAIM = "~attempt:";

/**
 * Takes (or renews) a job's lease.
 *
 * @param leases The store, clock and lease length.
 * @param id The job's id.
 * @returns When written.
 */
export function holdLease(leases: Leases, id: string): Promise<boolean> {
  return storeSpace<true>(leases.store, "lease").put(id, true, leases.leaseMs);
}

/**
 * Tells whether some instance holds a job's lease.
 *
 * @param leases The store, clock and lease length.
 * @param id The job's id.
 * @returns `true` while its lease lasts.
 */
export async function leaseHeld(leases: Leases, id: string): Promise<boolean> {
  return await storeSpace<true>(leases.store, "lease").get(id) !== undefined;
}

/**
 * Tells whether the lease of a job's attempt has been missing for a whole lease: right after a store outage it may
 * have expired while its instance, alive, has not yet renewed it (it does within a third of a lease once its
 * connection is back). The first reader to find it missing marks when.
 *
 * @param leases The store, clock and lease length.
 * @param id The job's id.
 * @param attempt The attempt the job is on.
 * @returns `true` once the lease has been missing a whole lease.
 */
export async function leaseLapsed(leases: Leases, id: string, attempt: number): Promise<boolean> {
  const { codec: { now }, leaseMs } = leases;
  // When the lease of the job's attempt was first found missing: marked once, by the first reader to find it so.
  const lapses = storeSpace<number>(leases.store, "lapse");
  const key = `${id}:${attempt}`;
  const missingSince = await lapses.get(key);
  if (typeof missingSince === "number") return now() - missingSince >= leaseMs;
  await lapses.putIfAbsent(key, now(), 2 * leaseMs);
  return false;
}

/**
 * Tells the attempt a job is on: the last one claimed (the first needs no claim), from one read of its journal. Claims
 * are made one after another, each only while its start is allowed (`start-rule.ts`): one more attempt than they count.
 *
 * @param leases The stores, clock and lease length.
 * @param id The job's id.
 * @returns The attempt, from 1.
 */
export async function attemptOf(leases: Leases, id: string): Promise<number> {
  return 1 + (await leases.journals.load(id)).filter((entry) => entry.name.startsWith(ATTEMPT_CLAIM)).length;
}

/**
 * Claims a job's attempt, its lease taken first (no reader finds it missing between the claim and the run). The
 * claim is an entry of the job's journal, which the store writes only where none of its name is (first writer wins,
 * atomically on a shared store), so two instances that find the same lease lapsed never both take the same attempt.
 *
 * @param leases The stores, clock and lease length.
 * @param id The job's id.
 * @param attempt The attempt.
 * @param ttlMs How long the claim lasts.
 * @returns Whether this instance won it.
 */
export async function claimAttempt(leases: Leases, id: string, attempt: number, ttlMs: number): Promise<boolean> {
  await holdLease(leases, id);
  const mine = crypto.randomUUID(); // what tells this claim from another instance's
  const claim = { name: ATTEMPT_CLAIM + attempt, position: 0, value: mine, at: leases.codec.now() };
  return (await leases.journals.append(id, claim, ttlMs)).value === mine;
}
