/**
 * `maxResponseBytes` on the client's other readers: a declared `Content-Length` refused unread, a gRPC
 * message (Connect's `readMaxBytes`), a WebSocket message, a stdio line. The HTTP bodies and SSE events
 * are run against a hostile server in tests/proxy/answer-bound.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpLiteBinding, serve } from "../../mod.ts";
import type { Listener } from "../../src/server/serve.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { createStdioTransport } from "../../src/client/transports/stdio.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { readBoundedText } from "../../src/client/response-bound.ts";
import { waitFor } from "../helpers/long-running.ts";

const MiB = 1024 * 1024;
const BOUND = MiB;

/** Asserts the error of an answer past the bound. */
function assertTooLarge(error: unknown, what: RegExp): void {
  assert.ok(error instanceof McpliteError, String(error));
  assert.equal(error.code, "payload_too_large");
  assert.match(error.message, what);
  assert.match(error.message, /limit of 1048576 bytes \(maxResponseBytes\)/);
  assert.deepEqual(error.data, { maxResponseBytes: BOUND });
}

const server = createServer({
  name: "big",
  version: "1.0.0",
  bindings: [mcpLiteBinding(), grpcBinding(), webSocketBinding({ maxMessageBytes: 4 * MiB })],
});
server.tool(
  defineTool("big").describe("answers n bytes of text").input(v.object({ n: v.number() })).handle(({ n }) =>
    "b".repeat(n)
  ),
);

describe("maxResponseBytes on the client's other readers", () => {
  it("refuses a body whose declared Content-Length passes it, unread", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new Uint8Array(1024)),
      cancel: () => void (cancelled = true),
    });
    const response = new Response(body, { headers: { "content-length": String(2 * MiB) } });
    assertTooLarge(await readBoundedText(response, BOUND).catch((e) => e), /The response body exceeds/);
    assert.equal(cancelled, true);
  });

  it("counts an encoded body as it arrives, whatever its declared length (fetch decodes it)", async () => {
    const body = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(64 * 1024)) });
    const response = new Response(body, { headers: { "content-length": "100", "content-encoding": "gzip" } });
    assertTooLarge(await readBoundedText(response, BOUND).catch((e) => e), /The response body exceeds/);
  });

  it("bounds a gRPC message with Connect's readMaxBytes", async () => {
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => server.fetch(new Request(input, init));
    const bounded = createClient(grpcTransport("http://localhost", { fetch, maxResponseBytes: BOUND }));
    assertTooLarge(await bounded.call("big", { n: 2 * MiB }).catch((e) => e), /gRPC message/);
    assert.equal((await bounded.call("big", { n: 1000 }) as string).length, 1000);
    const roomy = createClient(grpcTransport("http://localhost", { fetch }));
    assert.equal((await roomy.call("big", { n: 2 * MiB }) as string).length, 2 * MiB); // the default: 16 MiB
  });

  describe("over a WebSocket", () => {
    let listener: Listener;
    before(async () => {
      listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    });
    after(() => listener.close());

    it("fails the call on a message past the bound and closes the socket", async () => {
      const url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
      const client = createClient(createWebSocketTransport(url, { maxResponseBytes: BOUND }));
      try {
        assertTooLarge(await client.call("big", { n: 2 * MiB }).catch((e) => e), /WebSocket message/);
        // Once the socket closed, the next request opens a new one (tried until one answers, bounded).
        let answer: unknown;
        await waitFor(async () =>
          typeof (answer = await client.call("big", { n: 10 }).catch(() => undefined)) === "string"
        )
          .catch(() => {}); // asserted next
        assert.equal(answer, "b".repeat(10));
      } finally {
        await client.close();
      }
    });
  });

  it("fails a stdio server's line past the bound, without reading it whole", async () => {
    // One line that never ends: 64 KiB at a time, for at most 30 s.
    const code = 'const c = "x".repeat(65536); process.stdout.write(c); ' +
      "const t = setInterval(() => process.stdout.write(c), 1); setTimeout(() => clearInterval(t), 30000);";
    const client = createClient(
      createStdioTransport({ command: "node", args: ["-e", code], maxResponseBytes: BOUND, closeGraceMs: 500 }),
      { timeoutMs: 20_000 },
    );
    try {
      assertTooLarge(await client.listTools().catch((e) => e), /A line the server wrote/);
    } finally {
      await client.close();
    }
  });
});
