/**
 * `proxy()` of FastMCP (Python) over stdio and over HTTP: its tools, prompts and resources served on our
 * wires; killed, it answers 503 with `Retry-After` (gRPC `UNAVAILABLE`), never a tool error, and the
 * gateway recovers when it is started again.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { FastMcpHttp, fastmcpStdio, missing } from "./fastmcp-peer.ts";
import { callGrpcJs, gatewayServer } from "./gateway.ts";

/** A server serving an untyped remote: any tool name. */
type Gateway = Awaited<ReturnType<typeof proxy>>;

// Python starts FastMCP in seconds on a quiet machine and in tens of them on a busy one (its first run compiles its
// modules): each test starts its peer under its own timeout, as Bun's --timeout bounds a before hook whatever it says.
const STARTS = { timeout: 150_000 };

describe("proxy() of FastMCP over stdio", { skip: missing }, () => {
  const stop = new AbortController();
  after(() => stop.abort());

  it("serves its tools, prompts and resources on MCP and MCP-lite", STARTS, async () => {
    const gateway: Gateway = gatewayServer().group("py", await proxy(fastmcpStdio, { signal: stop.signal }));
    assert.deepEqual(await createClient(gateway, { transport: "mcp-lite" }).call("py.multiply", { a: 6, b: 7 }), {
      result: 42,
    }); // FastMCP wraps a number
    const mcp = createClient(gateway, { transport: "mcp" });
    assert.deepEqual(await mcp.call("py.multiply", { a: 2, b: 3 }), { result: 6 }); // FastMCP wraps a number
    const prompt = await mcp.getPrompt("py.review", { code: "x = 1" });
    assert.deepEqual((prompt.messages as { content: unknown }[])[0].content, {
      type: "text",
      text: "Review this: x = 1",
    });
    const read = await mcp.readResource("data://greeting");
    assert.equal((read.contents as { text: string }[])[0].text, "hello from FastMCP");
  });
});

describe("proxy() of FastMCP over HTTP, killed and started again", { skip: missing }, () => {
  let peer: FastMcpHttp | undefined;
  let grpc: GrpcListener | undefined;
  after(async () => {
    await grpc?.close();
    await peer?.kill();
  });

  it("answers 503 with Retry-After while it is down, and recovers when it returns", STARTS, async () => {
    peer = new FastMcpHttp();
    await peer.start();
    const gateway: Gateway = gatewayServer().group("py", await proxy(peer.url));
    grpc = await serveGrpc(gateway, { port: 0, closeGraceMs: 200 });
    const call = createClient(gateway, { transport: "mcp-lite" });
    assert.deepEqual(await call.call("py.multiply", { a: 3, b: 3 }), { result: 9 }); // FastMCP wraps a number
    await peer.kill();

    const lite = await gateway.fetch(post("/mcp-lite/v1/calltools", toolsCall("py.multiply", { a: 1, b: 2 })));
    assert.equal(lite.status, 503);
    assert.equal(lite.headers.get("retry-after"), "1");
    assert.equal((await lite.json()).error.data.code, "unavailable");
    const modern = await gateway.fetch(modernRequest("tools/call", { name: "py.multiply", arguments: { a: 1, b: 2 } }));
    assert.equal(modern.status, 503);
    assert.equal(modern.headers.get("retry-after"), "1");
    const legacy = await gateway.fetch(legacyRequest("tools/call", { name: "py.multiply", arguments: { a: 1, b: 2 } }));
    assert.equal(legacy.status, 503);
    const rpc = await callGrpcJs(`127.0.0.1:${grpc.port}`, "py.multiply", { a: 1, b: 2 });
    assert.equal(rpc.code, "UNAVAILABLE");

    await peer.start();
    assert.deepEqual(await call.call("py.multiply", { a: 4, b: 5 }), { result: 20 }); // FastMCP wraps a number
    const back = await callGrpcJs(`127.0.0.1:${grpc.port}`, "py.multiply", { a: 2, b: 5 });
    assert.equal(back.result.structuredContent.result, 10);
  });
});
