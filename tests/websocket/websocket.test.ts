/**
 * The WebSocket binding (MCP-lite spec v0.042 §8.2) on this runtime's own server (`serve()`: Deno.serve
 * under `deno test`, Bun.serve under `bun test`), driven by the runtime's plain `WebSocket`: MCP-lite
 * over stdio's messages, one per text frame, with streaming, cancellation, concurrency, bad frames
 * answered on an open socket, and the gate at the upgrade (Origin, and a token in the subprotocol).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import { bearerProtocol, WEBSOCKET_PROTOCOL } from "../../src/websocket/mod.ts";
import type { Listener } from "../../src/server/serve.ts";
import { createClient } from "../../src/client/mod.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { TestSocket } from "./socket.ts";
import { assertBadFramesAnswered, assertUpgradeHeadersSeen, call, fixture } from "./fixture.ts";
import { waitFor } from "../helpers/long-running.ts";

describe("webSocketBinding on this runtime's serve()", () => {
  const open = fixture();
  let listener: Listener;
  let url: string;
  before(async () => {
    listener = await serve(open.server, { port: 0, quiet: true });
    url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
  });
  after(() => listener.close());

  it("lists and calls tools: an answer, an elicitation, a failure, each with _meta.response_type", async () => {
    const socket = await TestSocket.open(url, [WEBSOCKET_PROTOCOL]);
    assert.equal(socket.protocol, WEBSOCKET_PROTOCOL);
    socket.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    socket.send(call(2, "add", { a: 2, b: 3 }));
    socket.send(call(3, "ask"));
    socket.send(call(4, "fails"));
    const list = await socket.answer(1);
    assert.deepEqual(list.result.tools.map((t: { name: string }) => t.name), [
      "add",
      "whoami",
      "keyed",
      "count",
      "slow",
      "ask",
      "fails",
    ]);
    const sum = await socket.answer(2);
    assert.deepEqual(sum.result.content, [{ type: "text", text: "5" }]);
    assert.equal(sum.result._meta.response_type, "answer");
    const ask = await socket.answer(3);
    assert.equal(ask.result._meta.response_type, "elicitation");
    assert.equal(ask.result._meta.input_requests.name.params.message, "Your name?");
    // The elicitation round: the answers and the signed state, on the same socket.
    socket.send({
      ...call(5, "ask"),
      params: {
        name: "ask",
        arguments: {},
        inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
        requestState: ask.result._meta.request_state,
      },
    });
    assert.equal((await socket.answer(5)).result.content[0].text, "hello Ada");
    const failed = await socket.answer(4);
    assert.equal(failed.result._meta.response_type, "failure");
    assert.equal(failed.result.isError, true);
    await socket.close();
  });

  it("streams partials and progress in order, tied to the request, before its response", async () => {
    const socket = await TestSocket.open(url);
    socket.send(call("s", "count", {}, { stream: true }));
    const done = await socket.answer("s");
    assert.equal(done.result.content[0].text, "part 1 part 2 part 3 ");
    const before = socket.messages.slice(0, socket.messages.indexOf(done));
    assert.deepEqual(
      before.filter((m) => m.method === "notifications/partial").map((m) => m.params),
      [1, 2, 3].map((i) => ({ requestId: "s", partial: `part ${i} ` })),
    );
    assert.deepEqual(
      before.filter((m) => m.method === "notifications/progress").map((m) => m.params),
      [1, 2, 3].map((i) => ({ requestId: "s", progress: i, total: 3 })),
    );
    await socket.close();
  });

  it("runs requests of one socket concurrently, and cancellation aborts the handler with no answer", async () => {
    const socket = await TestSocket.open(url);
    socket.send(call(1, "slow", { ms: 5000 }));
    socket.send(call(2, "add", { a: 1, b: 1 }));
    await socket.answer(2);
    socket.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "user stop" } });
    await waitFor(() => open.aborted.length > 0);
    assert.deepEqual(open.aborted, ["cancelled by the client: user stop"]);
    socket.send({ jsonrpc: "2.0", id: 3, method: "ping" }); // keep-alive at the JSON-RPC level
    assert.deepEqual((await socket.answer(3)).result, {});
    assert.equal(socket.messages.some((m) => m.id === 1), false);
    await socket.close();
  });

  it("answers bad frames with -32700, -32600, -32601 and a size error, and keeps serving", async () => {
    await assertBadFramesAnswered(url);
  });

  it("aborts a socket's running calls when it closes", async () => {
    const before = open.aborted.length;
    const socket = await TestSocket.open(url);
    socket.send(call(1, "slow", { ms: 30_000 }));
    // In flight once a ping sent after it is answered (the server starts a socket's requests in order), not
    // after a 50 ms sleep that a loaded machine can spend before the server read the call.
    socket.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await socket.answer(2);
    await socket.close();
    await waitFor(() => open.aborted.length > before);
    assert.match(open.aborted.at(-1)!, /WebSocket closed/);
  });

  it("serves our client over ws://: list, call, elicitation, streaming, cancellation, on one socket", async () => {
    const client = createClient(createWebSocketTransport(url), {
      onElicit: () => ({ action: "accept", content: { name: "Grace" } }),
    });
    try {
      assert.deepEqual((await client.listTools()).map((t) => t.name).slice(0, 2), ["add", "whoami"]);
      const [sum, hello] = await Promise.all([client.call("add", { a: 20, b: 22 }), client.call("ask", {})]);
      assert.deepEqual([sum, hello], ["42", "hello Grace"]); // text results, untyped
      const partials: unknown[] = [];
      const stream = client.stream("count", {});
      for await (const partial of stream) partials.push(partial);
      assert.deepEqual(partials, ["part 1 ", "part 2 ", "part 3 "]);
      const before = open.aborted.length;
      const controller = new AbortController();
      const slow = client.call("slow", { ms: 30_000 }, { signal: controller.signal });
      // Stopped once it runs (a call sent after it on the socket was answered), not 50 ms in, which a loaded
      // machine could reach before the call was sent.
      assert.equal(await client.call("add", { a: 2, b: 2 }), "4");
      controller.abort(new Error("the user stopped"));
      await assert.rejects(slow);
      await waitFor(() => open.aborted.length > before);
      assert.match(open.aborted.at(-1)!, /cancelled by the client/);
      assert.equal(await client.call("add", { a: 1, b: 2 }), "3"); // the socket still serves
    } finally {
      await client.close();
    }
  });

  it("runs every message with the upgrade's headers (a header middleware), and names the wire in errors", async () => {
    await assertUpgradeHeadersSeen(Number(new URL(url).port));
  });

  it("refuses a cross-origin upgrade and a plain GET at the gate", async () => {
    const upgrade = { upgrade: "websocket", connection: "Upgrade", "sec-websocket-version": "13" };
    const evil = await open.server.fetch(
      new Request("http://127.0.0.1/mcp-lite/v1/ws", { headers: { ...upgrade, origin: "https://evil.example" } }),
    );
    assert.equal(evil.status, 403);
    const plain = await fetch(url.replace("ws:", "http:"));
    assert.equal(plain.status, 426);
    assert.equal(plain.headers.get("upgrade"), "websocket");
    await plain.body?.cancel();
  });
});

describe("webSocketBinding behind auth", () => {
  const { server } = fixture(true);
  let listener: Listener;
  let url: string;
  before(async () => {
    listener = await serve(server, { port: 0, quiet: true });
    url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
  });
  after(() => listener.close());

  it("refuses the upgrade without a token, with the bearer challenge", async () => {
    await assert.rejects(TestSocket.open(url, [WEBSOCKET_PROTOCOL]), /refused/);
    await assert.rejects(TestSocket.open(url, [WEBSOCKET_PROTOCOL, bearerProtocol("bad.token")]), /refused/);
    const response = await server.fetch(
      new Request("http://127.0.0.1/mcp-lite/v1/ws", { headers: { upgrade: "websocket", connection: "Upgrade" } }),
    );
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer resource_metadata=/);
  });

  it("takes the token from the subprotocol (never echoed), and calls run as its caller", async () => {
    const socket = await TestSocket.open(url, [WEBSOCKET_PROTOCOL, bearerProtocol("good.token")]);
    assert.equal(socket.protocol, WEBSOCKET_PROTOCOL);
    socket.send(call(1, "whoami"));
    assert.equal((await socket.answer(1)).result.content[0].text, "ada");
    await socket.close();
    const client = createClient(createWebSocketTransport(url, { token: "good.token" }));
    assert.equal(await client.call("whoami", {}), "ada");
    await client.close();
    const refused = createClient(createWebSocketTransport(url));
    await assert.rejects(refused.call("whoami", {}), /cannot open a WebSocket/);
    await refused.close();
  });
});
