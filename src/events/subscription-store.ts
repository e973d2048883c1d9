/**
 * Where a server's event subscriptions live: records of its shared store (`evsub:<id>`, expiring with the
 * subscription), indexed by event (`evidx:<name>`) and by principal (`evprn:<principal>`) in the store's sets; and the
 * shape of the events runtime that the methods and `emit` share.
 *
 * @module
 */
import type { EventDefinition, EventsOptions } from "../core/definitions/event.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { type StoreSpace, storeSpace } from "../store/store-space.ts";
import type { EventsRouter } from "./events-router.ts";
import type { OccurrenceLog } from "./occurrence-log.ts";
import type { OpenStreams } from "./open-streams.ts";
import { type Deliveries, eventIndex, readSubscription, type Subscription, writeSubscription } from "./delivery/mod.ts";

/** What `emit` answers. */
export type Emitted = { readonly eventId: string; readonly deliveries: number };

/** The events runtime of one server. */
export interface EventsRuntime {
  /** The events served, by name. */
  readonly definitions: Map<string, EventDefinition<string, never, never>>;
  /** Where subscriptions live. */
  readonly store: SharedStore;
  /** The events options, with their defaults. */
  readonly options: Required<EventsOptions>;
  /** The occurrence log (poll, replay). */
  readonly log: OccurrenceLog;
  /** The push streams open on this instance (`events/stream`): their budget and their wake-ups. */
  readonly streams: OpenStreams;
  /** The server's deliveries (delivery's state: store, codec, queue, settings). */
  readonly deliveries: Deliveries;
  /** Whether the server authenticates its callers (then no subscription is anonymous). */
  readonly authenticates: boolean;
  /** The key a subscription's id is the HMAC of its key under (the server's first secret). */
  readonly idKey: Promise<CryptoKey>;
  /** What serves the server's events (its own, its grouped members', a proxied remote's). */
  readonly router: EventsRouter;
  /** Raises an occurrence. */
  emit(name: string, payload: unknown, options?: { readonly id?: string }): Promise<Emitted>;
}

/**
 * Reads a subscription's entry, `undefined` when it is missing or has expired.
 *
 * @param store The store.
 * @param id The subscription's id.
 * @param now The time, ms since the epoch.
 * @returns The subscription.
 */
export async function readLiveSubscription(
  store: SharedStore,
  id: string,
  now: number,
): Promise<Subscription | undefined> {
  const sub = await readSubscription(store, id);
  return sub !== undefined && sub.expiresAt > now ? sub : undefined;
}

/** The set of a principal's subscriptions (its budget), by principal (`evprn:<principal>`). */
export const principalIndex = (store: SharedStore): StoreSpace<never> => storeSpace(store, "evprn");

/**
 * Writes a subscription's entry (delivery's format) and its index memberships, to expire with it.
 *
 * @param store The store.
 * @param sub The subscription.
 * @param now The time, ms since the epoch.
 */
export async function storeSubscription(store: SharedStore, sub: Subscription, now: number): Promise<void> {
  const ttlMs = sub.expiresAt - now;
  await writeSubscription(store, sub, now);
  await eventIndex(store).addMember(sub.name, sub.id, ttlMs);
  await principalIndex(store).addMember(sub.principal, sub.id, ttlMs);
}
