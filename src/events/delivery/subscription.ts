/**
 * A webhook subscription and one occurrence of an event, as the events runtime and delivery share them, and how a
 * subscription is kept in the server's shared store: a record `evsub:<id>` with its lifetime, and the ids of a named
 * event's subscriptions in the set `evidx:<name>`. Delivery updates the record (failures, suspension) and ends it
 * (410) through the store alone, so any instance may do either.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import { clearPending, type Place } from "./watermark.ts";
import type { SharedStore } from "../../store/shared-store.ts";
import { type StoreSpace, storeSpace } from "../../store/store-space.ts";
import { recordOf } from "../../store/store-of.ts";

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
  /** `"sep"` when the subscriber declared SEP-3415's extension, else `"chatgpt"` (refusal codes, control ids). */
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
  /** Its place in the log, where its delivery carries a watermark (SEP-3415's profile); never in a body itself. */
  readonly place?: Place;
}

/** The subscriptions, by id (`evsub:<id>`), each a record that expires with it. */
export function subscriptions(store: SharedStore): StoreSpace<Subscription> {
  return storeSpace(store, "evsub");
}

/** The set of a named event's subscription ids, by the event's name (`evidx:<name>`). */
export function eventIndex(store: SharedStore): StoreSpace<never> {
  return storeSpace(store, "evidx");
}

/**
 * The set of a subscription's occurrences that failed for good in a row, by its id (`evfail:<id>`), one member each:
 * instances recording failures at once each add theirs (a store's set adds atomically, where a count read, changed
 * and written lost one), and an occurrence recorded twice counts once.
 */
export function failures(store: SharedStore): StoreSpace<never> {
  return storeSpace(store, "evfail");
}

/**
 * Empties a subscription's set of failures (a delivery succeeded, its subscriber subscribed again, it ended).
 *
 * @param store The server's store.
 * @param id The subscription's id.
 */
export async function clearFailures(store: SharedStore, id: string): Promise<void> {
  await failures(store).clearMembers(id);
}

/**
 * Reads a subscription back from its record.
 *
 * @param value The record, as the store returned it (of before the store contract: a running entry holding it).
 * @returns The subscription, or `undefined` when the record is none (missing, or not a subscription's).
 */
export function subscriptionOf(value: unknown): Subscription | undefined {
  const state = recordOf(value);
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
export async function readSubscription(store: SharedStore, id: string): Promise<Subscription | undefined> {
  return subscriptionOf(await subscriptions(store).get(id));
}

/**
 * Writes a subscription back, for the rest of its life.
 *
 * @param store The server's store.
 * @param sub The subscription as it is now.
 * @param now The clock's time.
 */
export async function writeSubscription(store: SharedStore, sub: Subscription, now: number): Promise<void> {
  const ttlMs = sub.expiresAt - now;
  if (ttlMs > 0) await subscriptions(store).put(sub.id, sub, ttlMs);
}

/**
 * Ends a subscription: its record deleted, its id taken out of its event's index.
 *
 * @param store The server's store.
 * @param sub The subscription.
 */
export async function endSubscription(store: SharedStore, sub: Subscription): Promise<void> {
  await subscriptions(store).delete(sub.id);
  await eventIndex(store).removeMember(sub.name, sub.id);
  await clearFailures(store, sub.id); // a subscription made again (the same id) starts with none
  await clearPending(store, sub.id); // nor with deliveries pending: its watermark is not held back
}
