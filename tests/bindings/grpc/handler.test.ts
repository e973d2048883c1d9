/**
 * The MCPLite service on `server.fetch` (`grpcBinding()` in the server's bindings): Connect and gRPC-Web clients
 * in process (Connect's transports over `server.fetch`, no socket), then over a real `serve()`
 * listener (Deno.serve / Bun.serve) with connect-node's HTTP/1.1 transports.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, createClient, type Transport } from "@connectrpc/connect";
import * as node from "@connectrpc/connect-node";
import { serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { MCPLite, ResponseType } from "../../../src/bindings/grpc/mod.ts";
import { inProcessTransport } from "../../helpers/connect-in-process.ts";
import { BASE, post } from "../../helpers/request.ts";
import { grpcServer, rejection, tickProbe, waitFor } from "./grpc-fixtures.ts";

const server = grpcServer();

const inProcess = (protocol: "connect" | "grpc-web", useBinaryFormat: boolean, useHttpGet = false): Transport =>
  inProcessTransport(server, protocol, useBinaryFormat, useHttpGet);

const transports: [string, Transport][] = [
  ["Connect JSON", inProcess("connect", false)],
  ["Connect binary", inProcess("connect", true)],
  ["gRPC-Web binary", inProcess("grpc-web", true)],
  ["gRPC-Web JSON", inProcess("grpc-web", false)],
];

describe("grpcBinding on server.fetch", () => {
  for (const [label, transport] of transports) {
    it(`serves GetTools, CallTool, CallToolStream and NOT_FOUND over ${label}`, async () => {
      const client = createClient(MCPLite, transport);
      const { tools } = await client.getTools({});
      assert.equal(tools[0].name, "add");
      const { result, meta } = await client.callTool({ name: "add", arguments: { a: 20, b: 22 } });
      assert.deepEqual(result?.structuredContent, { sum: 42 });
      assert.equal(meta?.responseType, ResponseType.ANSWER);
      const parts = [];
      for await (const m of client.callToolStream({ name: "countdown", arguments: { count: 2 } })) parts.push(m);
      assert.deepEqual(parts.map((m) => m.result?.partial ?? m.result?.content), ["2 ", "1 ", "liftoff", [
        { type: "text", text: "2 1 liftoff" },
      ]]);
      const error = await rejection(client.callTool({ name: "nope" }));
      assert.equal(error.code, Code.NotFound);
    });
  }

  it("serves GetTools over a cacheable Connect GET", async () => {
    const client = createClient(MCPLite, inProcess("connect", false, true));
    const { tools } = await client.getTools({});
    assert.ok(tools.length > 0);
  });

  it("passes a Connect deadline to the handler and answers DEADLINE_EXCEEDED", async () => {
    const client = createClient(MCPLite, inProcess("connect", true));
    const error = await rejection(client.callTool({ name: "slow", arguments: { ms: 5000 } }, { timeoutMs: 100 }));
    assert.equal(error.code, Code.DeadlineExceeded);
  });

  it("holds a server stream's call in the request budgets until it ends, as an SSE answer", async () => {
    // One call at a time: while CallToolStream streams, a unary call is refused; once it ended, one is answered.
    const budgeted = grpcServer({ limits: { calls: 1, perCaller: false } });
    const client = createClient(MCPLite, inProcessTransport(budgeted, "connect", true));
    const streaming = client.callToolStream({ name: "ticks", arguments: { count: 20, delayMs: 10 } });
    const messages = streaming[Symbol.asyncIterator]();
    await messages.next(); // its first message: the stream is open
    const refused = await rejection(client.callTool({ name: "echo", arguments: { text: "hi" } }));
    assert.equal(refused.code, Code.ResourceExhausted, refused.message); // limits.calls
    while (!(await messages.next()).done); // to its end
    const { result } = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    assert.deepEqual(result?.content, [{ type: "text", text: "hi" }]);
  });

  it("refuses plain gRPC with 415, since fetch cannot send trailers", async () => {
    const response = await server.fetch(
      new Request(`${BASE}/mcplite.MCPLite/CallTool`, {
        method: "POST",
        headers: { "content-type": "application/grpc" },
        body: new Uint8Array(5),
      }),
    );
    assert.equal(response.status, 415);
  });

  it("answers 404 for a method the service does not have", async () => {
    const response = await server.fetch(post("/mcplite.MCPLite/CallTools", {}));
    assert.equal(response.status, 404);
    assert.equal((await response.json()).code, "unimplemented");
  });

  it("leaves the HTTP wires as they were", async () => {
    const response = await server.fetch(post("/mcp-lite/v1/listtools", {}));
    assert.equal(response.status, 200);
    assert.ok(Array.isArray((await response.json()).tools));
  });

  it("still applies the server's Host check", async () => {
    const response = await server.fetch(
      new Request("http://evil.example/mcplite.MCPLite/GetTools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    assert.equal(response.status, 403);
  });
});

describe("grpcBinding over serve() (HTTP/1.1)", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(server, { port: 0, quiet: true });
  });
  after(async () => {
    await listener.close();
  });

  for (const kind of ["Connect", "gRPC-Web"] as const) {
    it(`serves ${kind} from connect-node over HTTP/1.1, and a cancelled stream aborts ctx.signal`, async () => {
      const options = { baseUrl: listener.url, httpVersion: "1.1" as const };
      const transport = kind === "Connect"
        ? node.createConnectTransport(options)
        : node.createGrpcWebTransport(options);
      const client = createClient(MCPLite, transport);
      const { result } = await client.callTool({ name: "echo", arguments: { text: "hi" } });
      assert.deepEqual(result?.content, [{ type: "text", text: "hi" }]);
      const aborted = tickProbe.aborted;
      const abort = new AbortController();
      const error = await rejection((async () => {
        let n = 0;
        const call = client.callToolStream({ name: "ticks", arguments: { count: 1000, delayMs: 10 } }, {
          signal: abort.signal,
        });
        for await (const _ of call) if (++n === 3) abort.abort();
      })());
      assert.equal(error.code, Code.Canceled);
      await waitFor(() => tickProbe.aborted > aborted);
    });
  }

  it("gives a cancelled server stream's call back to the request budgets", async () => {
    // One call at a time: a stream the client cancels frees it, as a client that leaves an SSE stream does.
    const budgeted = await serve(grpcServer({ limits: { calls: 1, perCaller: false } }), { port: 0, quiet: true });
    try {
      const client = createClient(MCPLite, node.createConnectTransport({ baseUrl: budgeted.url, httpVersion: "1.1" }));
      const abort = new AbortController();
      const call = client.callToolStream({ name: "ticks", arguments: { count: 1000, delayMs: 10 } }, {
        signal: abort.signal,
      });
      const error = await rejection((async () => {
        for await (const _ of call) {
          const refused = await rejection(client.callTool({ name: "echo", arguments: { text: "hi" } }));
          assert.equal(refused.code, Code.ResourceExhausted, refused.message);
          abort.abort();
        }
      })());
      assert.equal(error.code, Code.Canceled);
      let answered: unknown;
      // Calls until one is answered: the cancelled stream's call given back once the server saw it end.
      await waitFor(async () =>
        (answered = await client.callTool({ name: "echo", arguments: { text: "hi" } }).catch(() => undefined)) !==
          undefined
      ).catch(() => {}); // asserted next
      assert.ok(answered !== undefined, "a call is answered once the cancelled stream ended");
    } finally {
      await budgeted.close();
    }
  });
});
