/**
 * Our deliveries as the AI SDK's receiver reads them (`createMCPEventWebhook` from `@ai-sdk/mcp`, its own Standard
 * Webhooks check): the challenge echoed, and a chatgpt-profile event accepted (its `webhook-id` the event id, its
 * `X-MCP-Subscription-Id` the subscription's), a tampered signature refused.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { experimental_createMCPEventWebhook as createMCPEventWebhook } from "@ai-sdk/mcp";
import { createTokenCodec } from "../../src/codec/token.ts";
import { deliver, Deliveries, verifyCallback, writeSubscription } from "../../src/events/delivery/mod.ts";
import { eventually, occurrence, storeWithSets, subscription } from "../helpers/delivery-fixtures.ts";

const ORIGIN = "https://hooks.example.com";

describe("deliveries read by the AI SDK's createMCPEventWebhook", () => {
  it("passes its challenge, and its signature check on an event", async () => {
    const sub = subscription(`${ORIGIN}/in?mcp_event_subscription=k1`, { status: "pending" });
    type Saved = Parameters<Parameters<typeof createMCPEventWebhook>[0]["store"]["set"]>[0];
    const saved: Saved = {
      key: "k1",
      id: sub.id,
      name: sub.name,
      arguments: { customerId: "c1" },
      definition: { name: sub.name, delivery: ["webhook"], inputSchema: {}, payloadSchema: {} },
      delivery: { mode: "webhook", url: sub.url, secret: sub.secrets[0] },
      cursor: null,
      truncated: false,
      status: "pending",
    };
    const events: unknown[] = [];
    const errors: unknown[] = [];
    const handler = createMCPEventWebhook({
      store: {
        get: (key) => Promise.resolve(key === saved.key ? saved : undefined),
        getById: (id) => Promise.resolve(id === saved.id ? saved : undefined),
        set: () => Promise.resolve(),
        update: (_key, patch) => Promise.resolve(void Object.assign(saved, patch)),
        delete: () => Promise.resolve(),
      },
      onEvent: ({ event }) => Promise.resolve(void events.push(event)),
      onError: (error) => void errors.push(error),
    });
    const statuses: number[] = [];
    const store = storeWithSets();
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: "interop tests' token secret, 32+ bytes" }),
      allowCallbacks: [ORIGIN],
      retryDelaysMs: [],
      fetch: async (url, init) => {
        const response = await handler(new Request(url, init));
        statuses.push(response.status);
        return response;
      },
    });
    try {
      await verifyCallback(sub, deliveries);
      saved.status = "active";
      const active = { ...sub, status: "active" as const };
      await writeSubscription(store, active, Date.now());
      const occ = occurrence();
      await deliver(active, occ, deliveries);
      await eventually(() => events.length === 1, "the event received");
      assert.deepEqual(events, [occ]);
      assert.deepEqual(statuses, [200, 204]);
      // Signed with another secret: refused by its check (401, no retry mends it).
      await deliver({ ...active, secrets: [subscription(ORIGIN).secrets[0]] }, occurrence(), deliveries);
      await eventually(() => statuses.length === 3, "the forged one answered");
      assert.equal(statuses[2], 401);
      assert.deepEqual(errors, []);
    } finally {
      deliveries.close();
    }
  });
});
