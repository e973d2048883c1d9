/**
 * Fixtures of the webhook delivery tests (tests/events/delivery*.test.ts): secrets, subscriptions, occurrences, a
 * memory store with the set methods the events' index uses, and a bounded wait.
 */
import { createMemoryResultStore } from "../../mod.ts";
import type { Occurrence, Subscription, SubscriptionStore } from "../../src/events/delivery/mod.ts";
import { LOADED_MS, waitFor } from "./wait.ts";

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/** The memory store with the set methods the events' index uses (as the store-sets work adds them). */
export function storeWithSets():
  & SubscriptionStore
  & Required<Pick<SubscriptionStore, "addMember" | "removeMember" | "members">> {
  const sets = new Map<string, Set<string>>();
  return Object.assign(createMemoryResultStore(), {
    addMember: (key: string, member: string) => {
      sets.set(key, (sets.get(key) ?? new Set()).add(member));
      return Promise.resolve();
    },
    removeMember: (key: string, member: string) => {
      sets.get(key)?.delete(member);
      return Promise.resolve();
    },
    members: (key: string) => Promise.resolve([...sets.get(key) ?? []]),
  });
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
