/**
 * A webhook subscription and one occurrence of an event, as the events runtime and delivery share them, and how a
 * subscription is kept in the server's `ResultStore`: a running entry `evsub:<id>` with its TTL, and the ids of a
 * named event's subscriptions in the set `evidx:<name>` (the store's optional set methods). Delivery updates the
 * entry (failures, suspension) and ends it (410) through the store alone, so any instance may do either.
 *
 * @module
 */
import type { ResultStore, StoredResult } from "../../jobs/result-store.ts";
import { isObject } from "../../internal/is-object.ts";

/** A webhook subscription (SEP-3415 "Events Extension"; OpenAI's MCP Events guide for the chatgpt profile). */
export interface Subscription {
  /** `sub_` + base64url of an HMAC of its key: the same on every refresh. */
  readonly id: string;
  /** The canonical key (principal, callback URL, event name, canonical JSON of the arguments). */
  readonly key: string;
  /** Who subscribed (the auth subject), or `""` for an anonymous caller. */
  readonly principal: string;
  /** The event's name, as the server that emits it names it (its index: `evidx:<name>`). */
  readonly name: string;
  /**
   * The name the subscriber subscribed by, when another: a group's member's event under the group's namespace
   * (`shop.order.shipped`), or a proxied remote's. Deliveries carry it as `name` (the subscriber checks it).
   */
  readonly servedAs?: string;
  /** The subscription's arguments, valid for the event's input schema. */
  readonly arguments: unknown;
  /** The callback URL. */
  readonly url: string;
  /** The signing secrets (Standard Webhooks `whsec_…`), newest first: the newest always signs. */
  readonly secrets: readonly string[];
  /** Until when the older secrets sign too (ms since the epoch): a rotation's grace. */
  readonly previousUntil?: number;
  /** `"sep"` when the subscriber declared SEP-3415's extension, else `"chatgpt"` (what `webhook-id` carries). */
  readonly profile: "chatgpt" | "sep";
  /** Pending until its callback answered the challenge; suspended after repeated failures, until re-subscribed. */
  readonly status: "pending" | "active" | "suspended";
  /** Deliveries that failed for good in a row. */
  readonly failures: number;
  /** When it expires (ms since the epoch): its `refreshBefore`. */
  readonly expiresAt: number;
  /**
   * Which life of the subscription this is: made when it is created, kept when it is renewed, new when it is created
   * again after it ended (its id is the same). A delivery is for the life it was emitted to, never a later one.
   */
  readonly life?: string;
}

/** One occurrence of an event: what a delivery's body carries. */
export interface Occurrence {
  /** Its id, unique per emit. */
  readonly eventId: string;
  /** The event's name. */
  readonly name: string;
  /** When it was emitted, ISO 8601. */
  readonly timestamp: string;
  /** Its payload, valid for the event's payload schema. */
  readonly data: unknown;
}

/** A `ResultStore` with the optional set methods, which the events' index uses. */
export type SubscriptionStore = ResultStore & {
  addMember?(key: string, member: string, ttlMs: number): Promise<void>;
  removeMember?(key: string, member: string): Promise<void>;
  members?(key: string): Promise<readonly string[]>;
};

/** The store key of a subscription's entry. */
export function subscriptionKey(id: string): string {
  return `evsub:${id}`;
}

/** The store key of the set of a named event's subscription ids. */
export function eventIndexKey(name: string): string {
  return `evidx:${name}`;
}

/**
 * The store key of the set of a subscription's occurrences that failed for good in a row, one member each: instances
 * recording failures at once each add theirs (a store's set adds atomically, where a count read, changed and written
 * lost one), and an occurrence recorded twice counts once.
 */
export function failuresKey(id: string): string {
  return `evfail:${id}`;
}

/**
 * Empties a subscription's set of failures (a delivery succeeded, its subscriber subscribed again, it ended).
 *
 * @param store The server's store.
 * @param id The subscription's id.
 */
export async function clearFailures(store: SubscriptionStore, id: string): Promise<void> {
  const key = failuresKey(id);
  const failed = await store.members?.(key) ?? [];
  await Promise.all(failed.map((member) => store.removeMember!(key, member)));
}

/**
 * The entry a subscription is kept as: a running entry (never ended, so it may be replaced), the record its state.
 *
 * @param sub The subscription.
 * @returns The entry.
 */
export function subscriptionEntry(sub: Subscription): StoredResult {
  return { status: "working", continued: { state: sub } };
}

/**
 * Reads a subscription back from its entry.
 *
 * @param entry The entry, as the store returned it.
 * @returns The subscription, or `undefined` when the entry is none (missing, or not a subscription's).
 */
export function subscriptionOf(entry: StoredResult | undefined): Subscription | undefined {
  if (entry?.status !== "working") return undefined;
  const state = entry.continued?.state;
  return isObject(state) && typeof state.id === "string" && typeof state.url === "string"
    ? state as unknown as Subscription
    : undefined;
}

/**
 * Reads a subscription from the store.
 *
 * @param store The server's store.
 * @param id The subscription's id.
 * @returns It, or `undefined` when it is gone (ended, expired).
 */
export async function readSubscription(store: ResultStore, id: string): Promise<Subscription | undefined> {
  return subscriptionOf(await store.get(subscriptionKey(id)));
}

/**
 * Writes a subscription back, for the rest of its life.
 *
 * @param store The server's store.
 * @param sub The subscription as it is now.
 * @param now The clock's time.
 */
export async function writeSubscription(store: ResultStore, sub: Subscription, now: number): Promise<void> {
  const ttlMs = sub.expiresAt - now;
  if (ttlMs > 0) await store.set(subscriptionKey(sub.id), subscriptionEntry(sub), ttlMs);
}

/**
 * Ends a subscription: its entry deleted, its id taken out of its event's index.
 *
 * @param store The server's store.
 * @param sub The subscription.
 */
export async function endSubscription(store: SubscriptionStore, sub: Subscription): Promise<void> {
  await store.delete(subscriptionKey(sub.id));
  await store.removeMember?.(eventIndexKey(sub.name), sub.id);
  await clearFailures(store, sub.id); // a subscription made again (the same id) starts with none
}
