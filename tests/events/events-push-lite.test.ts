/**
 * SEP-3415's push mode over MCP-lite (issue 88, item 1): `events/stream` at MCP-lite's JSON-RPC endpoint
 * (`POST {base}/rpc`, this SDK's MCP-lite extension E5) answered as SSE to a client that accepts it, each event one
 * JSON-RPC message as MCP's Streamable HTTP sends them, tried by a client written from the two texts with `fetch` and
 * an SSE parser: `active`, each emitted occurrence with its cursor and the request's id as its stream's, a heartbeat;
 * leaving ends the stream on the server (its place free again); a resume from the cursor gets what was emitted
 * meanwhile, once; the stream leaves the request budgets; `server.drain()` ends it with its final result; a client that
 * accepts only JSON is refused Unsupported. Then `client.events.stream()` over our MCP-lite transport.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventSourceMessage } from "eventsource-parser";
import { createMemoryResultStore, createServer, defineTool } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { readSse } from "../helpers/sse.ts";
import { waitFor } from "../helpers/long-running.ts";
import { SECRET, shipped } from "./shipped-event.ts";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

function serverOf(events: Record<string, unknown> = {}, limits?: Record<string, unknown>) {
  return createServer({
    name: "shop",
    version: "1.0.0",
    secret: SECRET,
    resultStore: createMemoryResultStore(),
    events: { heartbeatMs: 300, streamPollMs: 50, ...events },
    ...(limits === undefined ? {} : { limits: limits as never }),
  }).event(shipped).tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));
}
type Shop = ReturnType<typeof serverOf>;
const order = (orderId: string, customerId = "c1") => ({ orderId, customerId });

/** `events/stream` as a client written from SEP-3415 and E5 sends it: a JSON-RPC POST to `/rpc` accepting SSE. */
function streamRequest(id: number, cursor: string | null, signal?: AbortSignal, accept = "text/event-stream") {
  return new Request("http://localhost/mcp-lite/v1/rpc", {
    method: "POST",
    headers: { "content-type": "application/json", accept: `application/json, ${accept}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "events/stream",
      params: { name: "order.shipped", arguments: { customerId: "c1" }, cursor },
    }),
    ...(signal === undefined ? {} : { signal }),
  });
}

type Message = { method?: string; params?: Record<string, any>; id?: number; result?: Record<string, any> };

/** Reads a stream's messages until `stop` says so (it then leaves), or the stream ends. */
async function read(response: Response, leave: AbortController, stop: (m: Message) => boolean): Promise<Message[]> {
  const messages: Message[] = [];
  await readSse(response, 10_000, (event: EventSourceMessage) => {
    const message = JSON.parse(event.data) as Message;
    messages.push(message);
    if (stop(message)) leave.abort();
  }).catch(() => {}); // leaving cancels the read
  return messages;
}

describe("events/stream over MCP-lite (SSE at /rpc)", () => {
  it("streams active, occurrences with cursors and heartbeats; leaving frees its place; a resume misses nothing", async () => {
    const server = serverOf({ maxStreams: 1 });
    const leave = new AbortController();
    const response = await server.fetch(streamRequest(7, null, leave.signal));
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    let emitted: { eventId: string } | undefined;
    let heardEvent = false;
    const messages = await read(response, leave, (m) => {
      if (m.method === "notifications/events/active") {
        void server.emit("order.shipped", order("x", "c2")) // not this stream's
          .then(() => server.emit("order.shipped", order("o1")))
          .then((e) => emitted = e);
      }
      if (m.method === "notifications/events/event") heardEvent = true;
      return m.method === "notifications/events/heartbeat" && heardEvent; // then it leaves
    });
    const methods = messages.map((m) => m.method);
    assert.equal(methods[0], "notifications/events/active");
    const events = messages.filter((m) => m.method === "notifications/events/event").map((m) => m.params!);
    assert.deepEqual(events.map((e) => [e.eventId, e.data.orderId]), [[emitted?.eventId, "o1"]]);
    assert.equal(typeof events[0].cursor, "string");
    // Each names its stream by the request's id, the final result too (the client left after it was sent).
    for (const m of messages) assert.equal((m.params ?? m.result)?._meta[SUBSCRIPTION_ID], 7, JSON.stringify(m));

    // Its place is free again (maxStreams: 1): a resume from its last cursor gets what was emitted meanwhile, once.
    const meanwhile = await server.emit("order.shipped", order("o2"));
    const cursor = messages.findLast((m) => m.method === "notifications/events/heartbeat")!.params!.cursor as string;
    const again = new AbortController();
    // Refused ResourceExhausted (-32013) until the server has seen the first stream's client leave, as a client retries.
    let reopened: Response | undefined;
    await waitFor(async () => {
      reopened = await server.fetch(streamRequest(8, cursor, again.signal));
      if (reopened.headers.get("content-type")?.startsWith("text/event-stream")) return true;
      assert.equal((await reopened.json()).error.code, -32013);
      return false;
    }, 10_000);
    const resumed = await read(reopened!, again, (m) => m.method === "notifications/events/event");
    assert.deepEqual(
      resumed.filter((m) => m.method === "notifications/events/event").map((m) => m.params!.eventId),
      [meanwhile.eventId],
    );
  });

  it("a held stream leaves the request budgets; drain ends it with its final result; JSON only is Unsupported", async () => {
    const server = serverOf({}, { calls: 1 });
    let drained: Promise<void> | undefined;
    const response = await server.fetch(streamRequest(3, null));
    const ended = readSse(response, 10_000, (event) => {
      if (!event.data.includes("notifications/events/active")) return;
      // Beside the held stream, under `limits.calls: 1`, a call is answered; then the server drains.
      const call = new Request("http://localhost/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ping", arguments: {} } }),
      });
      drained = server.fetch(call).then(async (answered) => {
        assert.equal(answered.status, 200);
        assert.equal((await answered.json()).result.content[0].text, "pong");
        await server.drain();
      });
    });
    const last = (await ended).at(-1)!;
    await drained;
    const result = JSON.parse(last.data);
    assert.equal(result.id, 3);
    assert.deepEqual(result.result._meta?.[SUBSCRIPTION_ID], 3); // SEP-3415's final result: the client reconnects

    const json = await serverOf().fetch(streamRequest(4, null, undefined, "application/json"));
    assert.equal(json.headers.get("content-type")?.startsWith("application/json"), true);
    assert.equal((await json.json()).error.code, -32014);
  });

  it("client.events.stream() over our MCP-lite transport yields the occurrences, typed", async () => {
    const server = serverOf();
    const client = createClient<Shop>(server, { transport: "mcp-lite" });
    const done = new AbortController();
    const kept = await server.emit("order.shipped", order("k1")); // replayed: maxAgeMs reaches back to it
    const seen: string[] = [];
    for await (
      const event of client.events.stream("order.shipped", {
        arguments: { customerId: "c1" },
        maxAgeMs: 60_000,
        signal: done.signal,
      })
    ) {
      seen.push(event.data.orderId);
      if (seen.length === 1) await server.emit("order.shipped", order("l1"));
      else done.abort();
    }
    assert.deepEqual(seen, ["k1", "l1"]);
    assert.equal(typeof kept.eventId, "string");
    await client.close();
  });
});
