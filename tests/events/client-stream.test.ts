/**
 * `client.events.stream()` (issue 88, SEP-3415 "Push"): an async iterator of a server's occurrences, typed by the
 * server; after a drop (a relay cuts the SSE answer, as a network would) it reconnects from the last cursor it received
 * and yields what was emitted meanwhile, none twice; a refusal that will not change is thrown from the loop; leaving
 * the loop ends the request. The server's side: ./events-push.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { waitFor } from "../helpers/long-running.ts";

const shipped = defineEvent("order.shipped")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);
const serverOf = () =>
  createServer({ name: "shop", version: "1.0.0", secret: "an events test secret of at least 32 bytes!" }).event(
    shipped,
  );
const order = (orderId: string, customerId = "c1") => ({ orderId, customerId });

describe("client.events.stream()", () => {
  /** The server behind a relay that can cut the stream it is carrying, as a network drop would. */
  function relayed(server: { fetch(request: Request): Promise<Response> }) {
    const relay = {
      streams: [] as Record<string, unknown>[],
      /** How many streams the client ended (their bodies cancelled). */
      ended: 0,
      /** How many streams carried their `active` (the server's stream is open, its start in the log fixed). */
      actives: 0,
      cut: () => {},
      async fetch(request: Request): Promise<Response> {
        const sent = await request.clone().json().catch(() => ({}));
        if (sent.method === "events/stream") relay.streams.push(sent.params);
        const response = await server.fetch(request);
        if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return response;
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let carried = "";
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            relay.cut = () => {
              controller.error(new TypeError("connection reset"));
              void reader.cancel();
            };
          },
          async pull(controller) {
            const read = await reader.read().catch(() => ({ done: true as const, value: undefined }));
            if (read.done) return controller.close();
            if (!carried.includes("notifications/events/active")) {
              carried += decoder.decode(read.value, { stream: true });
              if (carried.includes("notifications/events/active")) relay.actives++;
            }
            controller.enqueue(read.value);
          },
          cancel: () => {
            relay.ended++;
            return reader.cancel();
          },
        });
        return new Response(body, response);
      },
    };
    return relay;
  }

  it("yields each occurrence, typed; reconnects from its last cursor after a drop: none missed, none twice", async () => {
    const server = serverOf();
    const relay = relayed(server);
    const client = createClient<typeof server>("http://localhost/mcp", {
      transport: "mcp",
      fetch: (request: Request) => relay.fetch(request),
    });
    const done = new AbortController();
    const events = client.events.stream("order.shipped", { arguments: { customerId: "c1" }, signal: done.signal });
    const seen: string[] = [];
    const emitWhenStreaming = async (orderId: string, streams: number) => {
      await waitFor(() => relay.actives >= streams, 10_000); // its stream open: what is emitted now reaches it
      await server.emit("order.shipped", order(orderId));
    };
    void emitWhenStreaming("o1", 1);
    for await (const event of events) {
      const orderId: string = event.data.orderId; // typed by the server's payload
      seen.push(orderId);
      assert.equal(typeof event.cursor, "string");
      if (orderId === "o1") {
        relay.cut(); // the network drops the stream; o2 is emitted while it is down
        await server.emit("order.shipped", order("o2"));
        void emitWhenStreaming("o3", 2);
      }
      if (orderId === "o3") done.abort(); // ends the iteration, without an error
    }
    assert.deepEqual(seen, ["o1", "o2", "o3"]);
    assert.equal(relay.streams.length, 2);
    assert.equal(relay.streams[0].cursor, null);
    assert.equal(typeof relay.streams[1].cursor, "string"); // the last it received
  });

  it("throws a refusal that will not change (an unknown event), and leaving the loop ends the request", async () => {
    const server = serverOf();
    const relay = relayed(server);
    const client = createClient<typeof server>("http://localhost/mcp", {
      transport: "mcp",
      fetch: (request: Request) => relay.fetch(request),
    });
    await assert.rejects(
      async () => {
        for await (const _ of client.events.stream("no.such" as never)) break;
      },
      (error: { rpcCode?: number }) => error.rpcCode === -32011,
    );
    for (const [i, orderId] of ["a", "b"].entries()) {
      const events = client.events.stream("order.shipped", { arguments: { customerId: "c1" } });
      const emitted = (async () => {
        await waitFor(() => relay.actives > i, 10_000); // its stream open: what is emitted now reaches it
        await server.emit("order.shipped", order(orderId));
      })();
      for await (const event of events) {
        assert.equal(event.data.orderId, orderId);
        break;
      }
      await emitted;
      await waitFor(() => relay.ended >= i + 1, 10_000).catch(() => {}); // asserted next
      assert.equal(relay.ended, i + 1); // the loop left: its request ended (the server's side with it)
    }
  });
});
