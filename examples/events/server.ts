/**
 * MCP Events, the server: an event, `order.shipped`, that clients subscribe to per customer, and a tool,
 * `ship_order`, that emits it. Subscriptions are taken with `events/subscribe` (MCP, or MCP-lite's JSON-RPC
 * endpoint) and each occurrence is POSTed to the subscriber's webhook, signed per Standard Webhooks.
 *
 *   PORT=8787 deno run -A --unstable-no-legacy-abort examples/events/server.ts      PORT=8787 bun examples/events/server.ts
 *
 * Reads PORT, HOSTNAME, MCPLITE_SECRET (the key subscription ids are made with) and EVENTS_ALLOW_CALLBACKS (origins,
 * comma-separated, whose callbacks are taken although they are http on loopback: development only).
 */
import * as v from "valibot";
import { createServer, defineTool, env, serve } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";

/** The event: a subscription names a customer, and gets the orders shipped to that customer. */
export const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string(), carrier: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);

const shop = createServer({
  name: "shop",
  version: "1.0.0",
  secret: env("MCPLITE_SECRET"),
  events: { allowCallbacks: (env("EVENTS_ALLOW_CALLBACKS") ?? "").split(",").filter(Boolean) },
}).event(shipped);

/** The tool that ships an order, and tells the customer's subscribers. */
const shipOrder = defineTool("ship_order")
  .describe("Ships an order to its customer")
  .input(v.object({ orderId: v.string(), customerId: v.string() }))
  .handle(async ({ orderId, customerId }) => {
    const { eventId, deliveries } = await shop.emit("order.shipped", { orderId, customerId, carrier: "parcelco" });
    return { orderId, status: "shipped", eventId, deliveries };
  });

export const server = shop.tool(shipOrder);

if (import.meta.main) {
  await serve(server); // PORT, HOSTNAME; prints "Listening on http://…"
}
