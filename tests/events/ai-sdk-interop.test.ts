/**
 * The AI SDK's MCP client (`@ai-sdk/mcp`, `experimental_events`) against this server: it lists the events over MCP
 * 2026-07-28 (`server/discover` first), subscribes with its own webhook (`experimental_createMCPEventWebhook`, which
 * answers the challenge), and receives an emitted occurrence whose signature and `webhook-id` its own checks accept
 * (the ChatGPT profile: it declares no events extension). Both servers listen on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import {
  experimental_createMCPClient as createMCPClient,
  experimental_createMCPEventWebhook as createMCPEventWebhook,
  type Experimental_MCPEvent as MCPEvent,
  type Experimental_MCPEventStore as MCPEventStore,
  type Experimental_MCPEventSubscription as MCPEventSubscription,
} from "@ai-sdk/mcp";
import { createServer, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { defineEvent } from "../../src/events/mod.ts";

/** The AI SDK's subscription store, in memory (its contract: get, getById, set, update, delete). */
function memoryEventStore(): MCPEventStore {
  const byKey = new Map<string, MCPEventSubscription>();
  return {
    get: (key) => Promise.resolve(byKey.get(key)),
    getById: (id) => Promise.resolve([...byKey.values()].find((s) => s.id === id)),
    set: (subscription) => Promise.resolve(void byKey.set(subscription.key, subscription)),
    update: (key, patch) => Promise.resolve(void byKey.set(key, { ...byKey.get(key)!, ...patch })),
    delete: (key) => Promise.resolve(void byKey.delete(key)),
  };
}

describe("@ai-sdk/mcp's experimental_events against this server", () => {
  const shipped = defineEvent("order.shipped")
    .describe("An order left the warehouse")
    .input(v.object({ customerId: v.string() }))
    .payload(v.object({ orderId: v.string(), customerId: v.string() }))
    .match((input, payload) => input.customerId === payload.customerId);
  const store = memoryEventStore();
  const received: MCPEvent[] = [];
  const errors: unknown[] = [];
  let hook: Listener;
  let mcp: Listener;
  const server = () =>
    createServer({
      name: "shop",
      version: "1.0.0",
      secret: "an interop test secret of at least 32 bytes",
      events: { allowCallbacks: [hook.url] },
    }).event(shipped);
  let app: ReturnType<typeof server>;

  before(async () => {
    const webhook = createMCPEventWebhook({
      store,
      onEvent: ({ event }) => Promise.resolve(void received.push(event)),
      onError: (error) => errors.push(error),
    });
    hook = await serve({ fetch: webhook }, { port: 0, hostname: "127.0.0.1", quiet: true });
    app = server();
    mcp = await serve(app, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await mcp?.close();
    await hook?.close();
  });

  it("lists, subscribes (its webhook answering the challenge) and receives a typed, verified event", {
    timeout: 30_000,
  }, async () => {
    const client = await createMCPClient({
      transport: { type: "http", url: `${mcp.url}/mcp` },
      experimental_events: { store },
    });
    try {
      const listed = await client.experimental_events.list();
      assert.deepEqual(listed.events.map((e) => e.name), ["order.shipped"]);
      const subscribed = await client.experimental_events.subscribe({
        name: "order.shipped",
        arguments: { customerId: "c1" },
        delivery: { mode: "webhook", url: `${hook.url}/hook`, allowInsecureLocalhost: true },
      });
      assert.match(subscribed.id, /^sub_/);
      const { eventId, deliveries } = await app.emit("order.shipped", { orderId: "o1", customerId: "c1" });
      assert.equal(deliveries, 1);
      assert.deepEqual(errors, []);
      assert.equal(received.length, 1);
      assert.equal(received[0].eventId, eventId);
      assert.deepEqual(received[0].data, { orderId: "o1", customerId: "c1" });
      await client.experimental_events.unsubscribe({ id: subscribed.id });
      assert.equal((await app.emit("order.shipped", { orderId: "o2", customerId: "c1" })).deliveries, 0);
    } finally {
      await client.close();
    }
  });
});
