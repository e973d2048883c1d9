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

/** When a job's lease was first found missing, and on which attempt: one record per job, in the `lapse` namespace. */
type LapseMark = { readonly attempt: number; readonly since: number };

/**
 * Tells whether the lease of a job's attempt has been missing for a whole lease: right after a store outage it may
 * have expired while its instance, alive, has not yet renewed it (it does within a third of a lease once its
 * connection is back, and then clears the mark: {@link clearLapse}). The first readers to find it missing mark when,
 * for as long as the job lasts, so that a reader who reads less often than every lease still finds the lapse (issue
 * 100: six redeems 12 s apart read "not done yet" each time while the mark lasted two leases).
 *
 * @param leases The store, clock and lease length.
 * @param id The job's id.
 * @param attempt The attempt the job is on.
 * @param markMs How long the mark lasts: the job's remaining lifetime.
 * @returns `true` once the lease has been missing a whole lease.
 */
export async function leaseLapsed(leases: Leases, id: string, attempt: number, markMs: number): Promise<boolean> {
  const { codec: { now }, leaseMs } = leases;
  const lapses = storeSpace<LapseMark>(leases.store, "lapse");
  const mark = await lapses.get(id);
  if (mark?.attempt === attempt) return now() - mark.since >= leaseMs;
  // Marked by the first readers to find it missing (a mark of an earlier attempt replaced): readers that mark at once
  // mark about the same time, so the last of them writes what the first would have.
  await lapses.put(id, { attempt, since: now() }, markMs);
  return false;
}

/**
 * Forgets that a job's lease was found missing: its holder renews it after a renewal that came late (a store outage,
 * a stalled process), so a mark made meanwhile would otherwise count a live job's next short lapse from then.
 *
 * @param leases The store.
 * @param id The job's id.
 * @returns When done.
 */
export function clearLapse(leases: Pick<Leases, "store">, id: string): Promise<void> {
  return storeSpace<LapseMark>(leases.store, "lapse").delete(id);
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
