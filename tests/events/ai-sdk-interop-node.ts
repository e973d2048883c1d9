/**
 * Run by Node 22 (tests/events/ai-sdk-interop.test.ts): our server with an event served by `serve()` on node:http,
 * the AI SDK's MCP client subscribing with its own webhook receiver (also served on 127.0.0.1), one matched emit,
 * and what the receiver got, printed as JSON.
 */
import process from "node:process";
import * as v from "valibot";
import { createMCPClient, experimental_createMCPEventWebhook } from "@ai-sdk/mcp";
import { createServer, serve } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { memoryEventStore } from "./ai-sdk-store.ts";

const store = memoryEventStore();

const shipped = defineEvent("order.shipped")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);

const received: { name: string; data: unknown; eventId: string }[] = [];
const arrived = Promise.withResolvers<void>();
const hook = experimental_createMCPEventWebhook({
  store,
  onEvent: ({ event }) => {
    received.push({ name: event.name, data: event.data, eventId: event.eventId });
    arrived.resolve();
    return Promise.resolve();
  },
});
const receiver = await serve({ fetch: hook }, { port: 0, hostname: "127.0.0.1", quiet: true });
const server = createServer({ name: "shop", version: "1.0.0", events: { allowCallbacks: ["http://127.0.0.1"] } })
  .event(shipped);
const served = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
const client = await createMCPClient({
  transport: { type: "http", url: `http://127.0.0.1:${served.port}/mcp` },
  experimental_events: { store },
});
try {
  const listed = (await client.experimental_events.list()).events.map((e) => e.name);
  const { id } = await client.experimental_events.subscribe({
    name: "order.shipped",
    arguments: { customerId: "c1" },
    delivery: { mode: "webhook", url: `http://127.0.0.1:${receiver.port}/hook`, allowInsecureLocalhost: true },
  });
  const emitted = await server.emit("order.shipped", { orderId: "o1", customerId: "c1" });
  let bound: ReturnType<typeof setTimeout> | undefined;
  // The event's arrival, within 10 s (a bound for a loaded machine): none is printed as none, which the test names.
  await Promise.race([arrived.promise, new Promise((resolve) => bound = setTimeout(resolve, 10_000))]);
  clearTimeout(bound);
  process.stdout.write(JSON.stringify({ listed, subscribed: id, emitted, received, runtime: process.version }));
} finally {
  await client.close();
  await served.close();
  await receiver.close();
}
