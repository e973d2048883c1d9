/**
 * The AI SDK's `MCPEventStore` (`@ai-sdk/mcp`'s `experimental_events.store`), the application's to provide: private,
 * in memory, for the interop test and its Node 22 script.
 */
import type { experimental_createMCPEventWebhook } from "@ai-sdk/mcp";

type Stored = Parameters<Parameters<typeof experimental_createMCPEventWebhook>[0]["store"]["set"]>[0];

/** A fresh store, its subscriptions by key. */
export function memoryEventStore() {
  const byKey = new Map<string, Stored>();
  return {
    byKey,
    get: (key: string) => Promise.resolve(byKey.get(key)),
    getById: (id: string) => Promise.resolve([...byKey.values()].find((s) => s.id === id)),
    set: (s: Stored) => Promise.resolve(void byKey.set(s.key, structuredClone(s))),
    update: (key: string, patch: Partial<Stored>) =>
      Promise.resolve(void byKey.set(key, { ...byKey.get(key)!, ...structuredClone(patch) })),
    delete: (key: string) => Promise.resolve(void byKey.delete(key)),
  };
}
