/**
 * Fixtures of the webhook delivery tests (tests/events/delivery*.test.ts): secrets, subscriptions, occurrences, a
 * shared store in memory, and a bounded wait.
 */
import { createMemoryResultStore } from "../../mod.ts";
import type { Occurrence, Subscription } from "../../src/events/delivery/mod.ts";
import type { SharedStore } from "../../src/store/shared-store.ts";
import { LOADED_MS, waitFor } from "./wait.ts";

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/** The shared store in memory, with the sets the events' index uses: the in-memory result store's. */
export function storeWithSets(): SharedStore {
  return createMemoryResultStore().store!;
}

/** An active subscription to `order.shipped` at `url`. */
export function subscription(url: string, overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: `sub_${crypto.randomUUID()}`,
    key: "k",
    principal: "",
    name: "order.shipped",
    arguments: { customerId: "c1" },
    url,
    secrets: [newSecret()],
    profile: "chatgpt",
    status: "active",
    failures: 0,
    expiresAt: Date.now() + 3_600_000,
    ...overrides,
  };
}

/** An occurrence of `order.shipped`. */
export function occurrence(): Occurrence {
  return {
    eventId: `evt_${crypto.randomUUID()}`,
    name: "order.shipped",
    timestamp: new Date().toISOString(),
    data: { orderId: "o1", customerId: "c1" },
  };
}

/** Polls until `check` holds (at most {@link LOADED_MS}: a bound for a loaded machine), failing with `what`. */
export function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  return waitFor(check, LOADED_MS, what);
}
