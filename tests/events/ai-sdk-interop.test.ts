/**
 * The AI SDK's MCP client (`@ai-sdk/mcp`, software nobody here wrote) lists, subscribes to and receives our server's
 * events through its `experimental_events` API, its own `experimental_createMCPEventWebhook` receiver checking the
 * Standard Webhooks signature of every delivery (the ChatGPT profile: top-level `capabilities.events`).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createMCPClient, experimental_createMCPEventWebhook } from "@ai-sdk/mcp";
import { createServer, defineTool, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { memoryEventStore } from "./ai-sdk-store.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { waitFor } from "../helpers/long-running.ts";

const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);

describe("the AI SDK's MCP client and webhook receiver, against our server's events", () => {
  const store = memoryEventStore();
  const received: { id: string; name: string; data: unknown; eventId: string }[] = [];
  let receiver: Listener;
  let served: Listener;
  // deno-lint-ignore no-explicit-any
  let server: any;
  before(async () => {
    const hook = experimental_createMCPEventWebhook({
      store,
      onEvent: ({ subscription, event }) => {
        received.push({ id: subscription.id, name: event.name, data: event.data, eventId: event.eventId });
        return Promise.resolve();
      },
    });
    receiver = await serve({ fetch: hook }, { port: 0, hostname: "127.0.0.1", quiet: true });
    server = createServer({
      name: "shop",
      version: "1.0.0",
      events: { allowCallbacks: [`http://127.0.0.1:${receiver.port}`] },
    }).tool(defineTool("ping").handle(() => "pong")).event(shipped);
    served = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await served?.close();
    await receiver?.close();
  });

  for (const discovery of [true, false]) {
    const era = discovery ? "MCP 2026-07-28 (server/discover)" : "MCP 2025-11-25 (initialize)";
    it(`${era}: lists, subscribes, receives the matching occurrence signed, unsubscribes`, async () => {
      const client = await createMCPClient({
        transport: { type: "http", url: `http://127.0.0.1:${served.port}/mcp` },
        protocolVersionDiscovery: discovery,
        experimental_events: { store },
      });
      try {
        const { events } = await client.experimental_events.list();
        const listed = events.find((e) => e.name === "order.shipped");
        assert.ok(listed, "order.shipped is listed");
        assert.ok(listed.delivery.includes("webhook"));
        assert.equal((listed.inputSchema as { type?: string }).type, "object");
        assert.deepEqual(
          Object.keys((listed.payloadSchema as { properties: object }).properties).sort(),
          ["customerId", "orderId"],
        );

        const subscribed = await client.experimental_events.subscribe({
          name: "order.shipped",
          arguments: { customerId: "c1" },
          delivery: { mode: "webhook", url: `http://127.0.0.1:${receiver.port}/hook`, allowInsecureLocalhost: true },
        });
        assert.match(subscribed.id, /^sub_/);
        assert.ok(subscribed.refreshBefore !== null && Date.parse(subscribed.refreshBefore) > Date.now());

        const before = received.length;
        const other = await server.emit("order.shipped", { orderId: "o0", customerId: "c2" });
        assert.equal(other.deliveries, 0, "another customer's order goes to nobody");
        const mine = await server.emit("order.shipped", { orderId: "o1", customerId: "c1" });
        assert.equal(mine.deliveries, 1);
        await waitFor(() => received.length > before);
        const got = received[received.length - 1];
        assert.deepEqual(got, {
          id: subscribed.id,
          name: "order.shipped",
          data: { orderId: "o1", customerId: "c1" },
          eventId: mine.eventId,
        });

        await client.experimental_events.unsubscribe({ id: subscribed.id });
        assert.equal((await server.emit("order.shipped", { orderId: "o2", customerId: "c1" })).deliveries, 0);
      } finally {
        await client.close();
      }
    });
  }
});

describe("the AI SDK's client and receiver against our server on Node 22", { skip: ONCE_PER_RUN }, () => {
  it("lists, subscribes and receives the matched occurrence, its signature checked by the AI SDK", async (t) => {
    const node = await node22();
    if (!node) return t.skip(NODE22_MISSING);
    const done = await run(node, [`${ROOT}tests/events/ai-sdk-interop-node.ts`], 60_000, ROOT);
    assert.equal(done.code, 0, done.stderr);
    const printed = JSON.parse(done.stdout);
    assert.match(printed.runtime, /^v22\./);
    assert.deepEqual(printed.listed, ["order.shipped"]);
    assert.match(printed.subscribed, /^sub_/);
    assert.equal(printed.emitted.deliveries, 1);
    assert.deepEqual(printed.received, [
      { name: "order.shipped", data: { orderId: "o1", customerId: "c1" }, eventId: printed.emitted.eventId },
    ]);
  });
});
