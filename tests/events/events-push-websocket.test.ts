/**
 * SEP-3415's push mode over a WebSocket (issue 88), by a client written from its text and the runtime's own
 * `WebSocket`: `events/stream` as a JSON-RPC message on the socket, its notifications on the same socket, each named by
 * the request's id (`_meta["io.modelcontextprotocol/subscriptionId"]`), heartbeats carrying the cursor, a reconnect
 * from the last cursor that gets only what was emitted meanwhile, and `notifications/cancelled` ending one stream while
 * the other goes on. Against a server served on 127.0.0.1 (Deno's and Bun's `serve()`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore, createServer, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { modernMeta } from "../helpers/request.ts";
import { type Message, TestSocket } from "../websocket/socket.ts";
import { SECRET, shipped } from "./shipped-event.ts";

const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

/** A stream's request on the socket, for the customer's orders. */
const streamRequest = (id: string, customerId: string, cursor: string | null = null) => ({
  jsonrpc: "2.0",
  id,
  method: "events/stream",
  params: { name: "order.shipped", arguments: { customerId }, cursor, _meta: modernMeta() },
});

/** A notification of stream `id`, of kind `kind` (`active`, `event`, `heartbeat`). */
const of = (id: string, kind: string, orderId?: string) => (m: Message) =>
  m.method === `notifications/events/${kind}` && m.params?._meta?.[SUBSCRIPTION] === id &&
  (orderId === undefined || m.params.data?.orderId === orderId);

const order = (orderId: string, customerId = "c1") => ({ orderId, customerId });

describe("events/stream over a WebSocket (MCP 2026-07-28 messages)", () => {
  it("streams each occurrence to its stream, named by the request's id, with heartbeats; a reconnect from the cursor misses none, repeats none", async () => {
    const server = createServer({
      name: "shop",
      version: "1.0.0",
      secret: SECRET,
      resultStore: createMemoryResultStore(),
      events: { heartbeatMs: 300, streamPollMs: 50 },
      bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding()],
    }).event(shipped);
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const url = `${listener.url.replace("http", "ws")}/mcp-lite/v1/ws`;
    let socket = await TestSocket.open(url, ["mcp-lite.v1"]);
    try {
      socket.send(streamRequest("ada", "c1"));
      socket.send(streamRequest("bob", "c2"));
      await socket.next(of("ada", "active"));
      await socket.next(of("bob", "active"));
      await server.emit("order.shipped", order("o1"));
      await server.emit("order.shipped", order("for-bob", "c2"));
      const first = await socket.next(of("ada", "event", "o1"));
      await socket.next(of("bob", "event", "for-bob"));
      assert.equal(typeof first.params.cursor, "string");
      // Each stream hears its own caller's occurrences only, each once.
      const events = (id: string) => socket.messages.filter(of(id, "event")).map((m) => m.params.data.orderId);
      assert.deepEqual(events("ada"), ["o1"]);
      assert.deepEqual(events("bob"), ["for-bob"]);
      // A quiet stream's heartbeat carries the cursor (SEP-3415 "Push": so that a reconnect is exact).
      // (the log's position: past bob's occurrence too, which this stream skipped).
      const beat = await socket.next(of("ada", "heartbeat"));
      assert.equal(typeof beat.params.cursor, "string");

      // `notifications/cancelled` ends one stream; the other goes on.
      socket.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "bob" } });
      // A request after it on the same socket is read after it: once it is answered, the cancellation was heard.
      socket.send({ jsonrpc: "2.0", id: "list", method: "events/list", params: { _meta: modernMeta() } });
      assert.equal((await socket.answer("list")).result.events[0].name, "order.shipped");
      const heard = socket.messages.length;
      await server.emit("order.shipped", order("o2"));
      await server.emit("order.shipped", order("late-bob", "c2"));
      await socket.next(of("ada", "event", "o2"));
      await socket.next((m) => of("ada", "heartbeat")(m) && socket.messages.indexOf(m) > heard);
      assert.ok(!socket.messages.some(of("bob", "event", "late-bob")), "a cancelled stream heard no more");

      // The socket gone, what is emitted meanwhile reaches a new socket's stream from the last cursor, once.
      const cursor = socket.messages.filter((m) => of("ada", "event")(m) || of("ada", "heartbeat")(m)).at(-1)!
        .params.cursor as string;
      await socket.close();
      await server.emit("order.shipped", order("o3"));
      socket = await TestSocket.open(url, ["mcp-lite.v1"]);
      socket.send(streamRequest("ada-again", "c1", cursor));
      await socket.next(of("ada-again", "event", "o3"));
      await server.emit("order.shipped", order("o4"));
      await socket.next(of("ada-again", "event", "o4"));
      const again = socket.messages.filter(of("ada-again", "event")).map((m) => m.params.data.orderId);
      assert.deepEqual(again, ["o3", "o4"]);
      socket.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "ada-again" } });
    } finally {
      await socket.close();
      await listener.close();
    }
  });
});
