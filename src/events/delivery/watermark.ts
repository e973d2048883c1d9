/**
 * The cursor a webhook delivery carries on SEP-3415's profile ("Webhook event delivery"): a safe-to-persist
 * watermark, "a position such that every event at or before it has been acknowledged by the endpoint or abandoned
 * by the server", not the event's own position, since deliveries are retried independently and arrive out of order.
 * Each subscription's deliveries not yet done with are kept in the shared store by their place in the log (a set,
 * across instances and workers), so the watermark is the place just before the earliest of them.
 *
 * @module
 */
import type { SharedStore } from "../../store/shared-store.ts";
import { storeSpace } from "../../store/store-space.ts";

/** An occurrence's place in its event's log: an order key, and the cursors just before and just past it. */
export interface Place {
  /** `<life>.<n>`, `n` in base 36 padded to 11 digits: one log's places order as their keys. */
  readonly key: string;
  /** The cursor just before it: reading from it gives it again. */
  readonly before: string;
  /** The cursor just past it. */
  readonly after: string;
  /** Until when its delivery is pending at most, ms since the epoch (set as it is handed over for delivery). */
  readonly until?: number;
}

/** The deliveries of each subscription not yet done with, by subscription id (`evpnd:<id>`), as set members. */
const pending = (store: SharedStore) => storeSpace<never>(store, "evpnd");

/**
 * A pending delivery's member: its place's key, until when it is pending at most (one lost with its process, in
 * process without a queue, holds the watermark back no longer), then the cursor before it.
 */
const memberOf = (place: Place) => `${place.key}|${place.until ?? 0}|${place.before}`;

/**
 * Notes a delivery as pending, until {@link deliveryDone} or its `until`.
 *
 * @param store The server's shared store.
 * @param subscriptionId The subscription.
 * @param place The occurrence's place, with its `until`.
 * @param now The clock's time, ms since the epoch.
 */
export async function deliveryPending(
  store: SharedStore,
  subscriptionId: string,
  place: Place & { readonly until: number },
  now: number,
): Promise<void> {
  await pending(store).addMember(subscriptionId, memberOf(place), Math.max(1, place.until - now));
}

/**
 * Notes a delivery as done with: acknowledged, abandoned, or its subscription ended.
 *
 * @param store The server's shared store.
 * @param subscriptionId The subscription.
 * @param place The occurrence's place.
 */
export async function deliveryDone(store: SharedStore, subscriptionId: string, place: Place): Promise<void> {
  await pending(store).removeMember(subscriptionId, memberOf(place));
}

/**
 * Clears a subscription's pending deliveries, as it ends: one made again under the same key (the same id) starts with
 * none holding its watermark back.
 *
 * @param store The server's shared store.
 * @param subscriptionId The subscription.
 */
export async function clearPending(store: SharedStore, subscriptionId: string): Promise<void> {
  await pending(store).clearMembers(subscriptionId);
}

/**
 * The watermark of a subscription: just before its earliest delivery still pending (one before `own`, when given),
 * else just past `own`; `undefined` with neither (nothing pending: the caller's own position stands).
 *
 * @param store The server's shared store.
 * @param subscriptionId The subscription.
 * @param now The clock's time, ms since the epoch (a note past its `until` is no longer pending).
 * @param own The place of the occurrence being delivered, if one is.
 * @returns The cursor to carry, or `undefined`.
 */
export async function watermark(
  store: SharedStore,
  subscriptionId: string,
  now: number,
  own?: Place,
): Promise<string | undefined> {
  let earliest: { key: string; before: string } | undefined;
  for (const member of await pending(store).members(subscriptionId)) {
    const [key, until, ...rest] = member.split("|");
    if (Number(until) <= now || (own !== undefined && key >= own.key)) continue;
    if (earliest === undefined || key < earliest.key) earliest = { key, before: rest.join("|") };
  }
  return earliest === undefined ? own?.after : earliest.before;
}
