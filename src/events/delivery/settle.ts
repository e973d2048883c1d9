/**
 * What an attempt's end does to the subscription, in the store, wherever it ran (in process or on a worker): a
 * success clears its failures; 410 ends it; a delivery that failed for good (its last attempt, or an answer no retry
 * mends) counts one failure, and `suspendAfter` of them in a row suspend it (SEP-3415 "Events Extension"); a callback
 * refused at delivery time suspends it at once. A retry before the last attempt only says when.
 *
 * @module
 */
import { attempt, type Attempted } from "./attempt.ts";
import { deliveryGivenUp, endOf, subscriptionSuspended } from "./given-up.ts";
import type { Deliveries } from "./deliveries.ts";
import type { DeliveryOutcome } from "./delivery-observer.ts";
import { deliveryDone } from "./watermark.ts";
import {
  clearFailures,
  endSubscription,
  failures,
  type Occurrence,
  type Subscription,
  subscriptionOf,
  subscriptions,
} from "./subscription.ts";

/** What follows an attempt. */
export interface Settled {
  /** How it counts. */
  readonly outcome: DeliveryOutcome;
  /** When it is tried again, in ms from now; absent when the occurrence is done with. */
  readonly delayMs?: number;
  /** Why it was given up, when it was (failed for good, or its callback refused): reported once. */
  readonly givenUp?: string;
}

/**
 * Makes one attempt, observed (a span per attempt where telemetry observes deliveries), and records its end.
 *
 * @param d The server's deliveries.
 * @param sub The subscription, as the store holds it now.
 * @param occ The occurrence.
 * @param n Which attempt, from 1.
 * @param trace The `traceparent` of the emit, and of the span the attempt's is a child of (a worker's job span), and
 *   the worker's job, if one runs it (named when the delivery is given up).
 * @param stop Aborts the attempt as a worker shuts down.
 * @returns How it counts, and the wait before the next attempt, if there is one.
 */
export async function attemptAndSettle(
  d: Deliveries,
  sub: Subscription,
  occ: Occurrence,
  n: number,
  trace: { readonly emit?: string; readonly parent?: string; readonly job?: string },
  stop?: AbortSignal,
): Promise<Settled> {
  const parent = trace.parent ?? trace.emit;
  const end = d.observer()?.attempt({ event: occ.name, subscriptionId: sub.id, attempt: n, parent, emit: trace.emit });
  try {
    const attempted = await attempt(d, sub, occ, stop);
    const settled = await settle(d, sub, attempted, n, occ.eventId);
    // Done with (acknowledged, abandoned, or its subscription ended): no longer holds the watermark back.
    if (settled.delayMs === undefined && settled.outcome !== "skipped" && occ.place !== undefined) {
      await deliveryDone(d.store, sub.id, occ.place);
    }
    const status = "status" in attempted ? attempted.status : undefined;
    end?.({ outcome: settled.outcome, status, error: "error" in attempted ? attempted.error : undefined });
    if (settled.outcome !== "failed" && settled.outcome !== "refused") return settled;
    // Given up: one line of the server's reporter, naming the event, the job and the attempt.
    const error = deliveryGivenUp(occ, sub, n, attempted, trace);
    d.onError(error);
    return { ...settled, givenUp: error.message };
  } catch (error) {
    end?.({ outcome: "failed", error });
    throw error;
  }
}

/**
 * Records an attempt's end and says whether (and when) to try again.
 *
 * @param d The server's deliveries.
 * @param sub The subscription the attempt was made to.
 * @param attempted How the attempt ended.
 * @param n Which attempt it was, from 1.
 * @param eventId The occurrence's id (counted once among the subscription's failures, however often recorded).
 * @returns How it counts, and the wait before the next attempt, if there is one.
 */
export async function settle(
  d: Deliveries,
  sub: Subscription,
  attempted: Attempted,
  n: number,
  eventId: string,
): Promise<Settled> {
  switch (attempted.kind) {
    case "delivered":
      if (sub.failures > 0) {
        await clearFailures(d.store, sub.id);
        await update(d, sub.id, (now) => ({ ...now, failures: 0 }));
      }
      return { outcome: "delivered" };
    case "gone":
      await endSubscription(d.store, sub);
      d.changed?.(sub, "ended");
      return { outcome: "ended" };
    case "too-large":
      return { outcome: "dropped" };
    case "refused":
      // A callback that now resolves to a refused address is suspended, not ended: DNS may be mended, and the
      // subscriber's next subscribe checks it again (and challenges it) before anything more is sent.
      await update(d, sub.id, (now) => ({ ...now, status: "suspended" }), (updated) => {
        suspended(d, updated, "its callback's host now resolves to an address deliveries refuse");
      });
      return { outcome: "refused" };
    case "stopped":
      return { outcome: "skipped" };
    case "retry":
      if (n < d.attempts) {
        const scheduled = d.retryDelaysMs[n - 1];
        return { outcome: "retried", delayMs: attempted.retryAfterMs ?? scheduled };
      }
  }
  // Failed for good: its last attempt, or an answer no retry mends. Counted in the subscription's set of failures
  // (atomic across instances); the record is then written from the count, and written again while the set holds more
  // than was written (another instance, having read the record before, wrote a smaller count last).
  const record = (count: number) =>
    update(d, sub.id, (now) => {
      return { ...now, failures: count, status: count >= d.suspendAfter ? "suspended" : now.status };
    }, (updated) => {
      const n = updated.failures;
      const what = n === 1 ? "a delivery" : `${n} deliveries in a row`;
      suspended(d, updated, `${what} failed for good, the last: ${endOf(attempted)}`);
    });
  let counted = await countFailure(d, sub, eventId);
  await record(counted);
  for (;;) { // the count only grows, up to the set's size
    const held = (await failures(d.store).members(sub.id)).length;
    if (held <= counted) break;
    await record(counted = held);
  }
  return { outcome: "failed" };
}

/** Adds the occurrence to the subscription's failures, and answers how many there are. */
async function countFailure(d: Deliveries, sub: Subscription, eventId: string): Promise<number> {
  const failed = failures(d.store);
  await failed.addMember(sub.id, eventId, Math.max(1, sub.expiresAt - d.now()));
  return (await failed.members(sub.id)).length;
}

/** A subscription just suspended: told to telemetry and to whoever follows changes, and one line to `onError`. */
function suspended(d: Deliveries, sub: Subscription, why: string): void {
  d.observer()?.suspended(sub.name);
  d.changed?.(sub, "suspended");
  d.onError(subscriptionSuspended(sub, why));
}

/** How many times a subscription's rewrite is tried while other instances rewrite it at once. */
const UPDATE_TRIES = 20;

/**
 * Rewrites a subscription as the store holds it now: read, changed, and written only if it is still what was read
 * (`compareAndSet`), else read again, so that no instance's change is lost to another's written at once.
 */
async function update(
  d: Deliveries,
  id: string,
  change: (now: Subscription) => Subscription,
  then?: (updated: Subscription) => void,
): Promise<void> {
  const subs = subscriptions(d.store);
  for (let tries = 0; tries < UPDATE_TRIES; tries++) {
    const read = await subs.get(id);
    const now = subscriptionOf(read);
    if (now === undefined) return; // ended meanwhile
    const updated = change(now);
    const ttlMs = updated.expiresAt - d.now();
    if (ttlMs <= 0) return; // expired meanwhile
    if (!await subs.compareAndSet(id, read, updated, ttlMs)) continue;
    if (updated.status === "suspended" && now.status !== "suspended") then?.(updated);
    return;
  }
  throw new Error(`the subscription ${id} changed ${UPDATE_TRIES} times while it was rewritten`);
}
