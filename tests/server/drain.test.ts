/**
 * `server.drain()`, and `listener.close()` of `serve()`, which calls it before the runtime's graceful shutdown: a
 * `subscriptions/listen` stream (MCP 2026-07-28) and an `events/stream` push stream (SEP-3415) open on 127.0.0.1, read
 * by raw fetch and an SSE reader, end with their last frame and then the end of the body, and the close resolves
 * (Deno's and Node's graceful shutdowns wait for requests in flight, which these never were by themselves); a stream
 * opened on a draining server ends the same way at once. On Bun and Deno in the test's process, on Node 22 in its own.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, mcpBinding, serve, sessionStreams } from "../../mod.ts";
import { BASE, legacyRequest } from "../helpers/request.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT, run } from "../helpers/process.ts";
import {
  bounded,
  closeWhileListening,
  type DrainReport,
  drainServer,
  type Message,
  openListen,
  openPush,
  type Read,
} from "./drain-scenario.ts";

const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

/** `subscriptions/listen` ended as MCP 2026-07-28 (Subscriptions) says: its result, complete, its id in `_meta`. */
function assertListenEnded(read: Read, id: unknown): void {
  assert.equal(read.messages[0].method, "notifications/subscriptions/acknowledged");
  const last = read.messages.at(-1) as Message;
  assert.equal(last.id, id);
  assert.equal(last.result.resultType, "complete");
  assert.equal(last.result._meta[SUBSCRIPTION], id);
  assert.ok(read.ended, "the body ends after the result");
}

/**
 * `events/stream` ended as SEP-3415 "Push" says a stream ends for its client to reconnect: its final result (the
 * empty `StreamEventsResult`, the subscription id in `_meta`), never `notifications/events/terminated`.
 */
function assertPushEnded(read: Read, id: unknown): void {
  assert.equal(read.messages[0].method, "notifications/events/active");
  assert.equal(typeof read.messages[0].params.cursor, "string"); // where the client reconnects from
  assert.ok(!read.messages.some((m) => m.method === "notifications/events/terminated"));
  const last = read.messages.at(-1) as Message;
  assert.equal(last.id, id);
  assert.equal(last.result.resultType, "complete");
  assert.equal(last.result._meta[SUBSCRIPTION], id);
  assert.ok(read.ended, "the body ends after the result");
}

function assertClosedWhileListening(report: DrainReport): void {
  assert.equal(report.closed, "resolved");
  assertListenEnded(report.listen, "sub-1");
  assertPushEnded(report.push, "push-1");
}

describe("server.drain()", () => {
  it("listener.close() ends the open streams with their last frames, and resolves (the runtime's own server)", async () => {
    assertClosedWhileListening(await closeWhileListening());
  });

  it("the same with httpServer: node:http", async () => {
    assertClosedWhileListening(await closeWhileListening("node:http"));
  });

  it("ends the streams of a server that stays up, and those opened while it drains at once", async () => {
    const server = drainServer();
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const [listen, push] = [await openListen(listener.url), await openPush(listener.url)];
      assert.equal(await bounded(server.drain()), "resolved");
      assertListenEnded(await listen.read(), "sub-1");
      assertPushEnded(await push.read(), "push-1");
      // Opened on the draining server: acknowledged (active), then ended the same way, for the client to go elsewhere.
      const [late, latePush] = [await openListen(listener.url, "sub-2"), await openPush(listener.url, "push-2")];
      assertListenEnded(await late.read(), "sub-2");
      assertPushEnded(await latePush.read(), "push-2");
      assert.equal(await bounded(server.drain()), "resolved"); // again: nothing left open
    } finally {
      await listener.close();
    }
  });

  it("closes a 2025 session's GET stream (sessionStreams()), which the client opens again (MCP 2025-11-25)", async () => {
    const server = createServer({
      name: "sessions",
      version: "1.0.0",
      bindings: [mcpBinding({ sessionStreams: sessionStreams() })],
    });
    const init = await server.fetch(legacyRequest("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "tests", version: "0.0.0" },
    }));
    const session = init.headers.get("mcp-session-id")!;
    const get = await server.fetch(
      new Request(`${BASE}/mcp`, {
        headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      }),
    );
    assert.equal(get.status, 200);
    assert.equal(await bounded(server.drain()), "resolved");
    assert.equal(await bounded(get.text()), "resolved"); // its body ended
  });

  it("on Node 22 too (its node:http server, in a process of its own)", {
    skip: "Deno" in globalThis ? "bun test runs it" : false,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const done = await run(node, [`${ROOT}tests/server/drain-node.ts`], 60_000);
    assert.equal(done.code, 0, done.stderr);
    assertClosedWhileListening(JSON.parse(done.stdout.trim().split("\n").at(-1)!));
  });
});
