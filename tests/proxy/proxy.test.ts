/**
 * `proxy()` against servers nobody here wrote, each served on 127.0.0.1 by the test: the official SDK v1
 * (Streamable HTTP, MCP 2025), the SDK v2 (2026-07-28) and fiberplane's mcp-lite, grouped into a gateway
 * of ours and called through it by the official clients (v1 and v2), grpc-js, an OpenAPI-style and a
 * Webtools HTTP client, and our own.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { createClient } from "../../src/client/mod.ts";
import { ErrorCode, ProtocolError, ToolError } from "../../src/errors/mod.ts";
import { type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { modernRequest } from "../helpers/request.ts";
import { mcpLitePeer, type Peer, sdkV1Peer, sdkV2Peer } from "./peers.ts";
// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as Any;
import { callGrpcJs, callOpenApi, callWebtools, gatewayServer, served, waitFor } from "./gateway.ts";

function isUnknownTool(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ErrorCode.UnknownTool;
}

describe("proxy() of the official SDK v1 server (Streamable HTTP, MCP 2025)", () => {
  let peer: Peer;
  let gateway: { url: string; close(): Promise<void> };
  before(async () => {
    peer = await sdkV1Peer();
    const server = gatewayServer().group("v1", await proxy(peer.url, { transport: "mcp" }));
    gateway = await served(server);
  });
  after(async () => {
    await gateway.close();
    await peer.close();
  });

  it("serves its tools to the official v1 client with the remote's schemas verbatim", async () => {
    const client = new ClientV1({ name: "v1", version: "1.32.2" });
    await client.connect(new HttpV1(new URL(`${gateway.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const add = tools.find((t) => t.name === "v1.add")!;
      assert.deepEqual(add.inputSchema.required, ["a", "b"]);
      assert.equal((add.outputSchema as Record<string, unknown>).type, "object");
      const result = await client.callTool({ name: "v1.add", arguments: { a: 2, b: 3 } });
      assert.deepEqual(result.structuredContent, { sum: 5 });
      assert.deepEqual(result.content, [{ type: "text", text: "5" }]);
    } finally {
      await client.close();
    }
  });

  it("serves its prompts, resources, templates and completions on MCP", async () => {
    const client = createClient(`${gateway.url}/mcp`, { transport: "mcp" });
    const prompt = await client.getPrompt("v1.greet", { name: "Ada" });
    assert.deepEqual(prompt.messages, [{ role: "user", content: { type: "text", text: "Hello, Ada" } }]);
    const resources = await client.listResources();
    assert.deepEqual(resources.map((r) => [r.uri, r.mimeType]), [["docs://readme", "text/markdown"]]);
    assert.deepEqual((await client.readResource("docs://readme")).contents, [
      { uri: "docs://readme", mimeType: "text/markdown", text: "# Readme" },
    ]);
    const templates = await client.listResourceTemplates();
    assert.deepEqual(templates.map((t) => t.uriTemplate), ["file:///{name}"]);
    assert.deepEqual((await client.readResource("file:///notes")).contents, [
      { uri: "file:///notes", text: "contents of notes" },
    ]);
    const completed = await client.request("completion/complete", {
      ref: { type: "ref/resource", uri: "file:///{name}" },
      argument: { name: "name", value: "al" },
    });
    assert.deepEqual((completed.completion as { values: string[] }).values, ["alpha"]);
  });

  it("carries progress across, and a cancellation by the caller reaches the remote", async () => {
    const client = createClient(gateway.url, { transport: "mcp-lite" });
    const controller = new AbortController();
    const progress: number[] = [];
    const call = client.call("v1.wait", {}, {
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p.progress);
        controller.abort();
      },
    });
    await assert.rejects(call);
    assert.deepEqual(progress, [1]);
    await waitFor("the remote's handler to see the abort", () => peer.aborts() === 1);
  });

  it("carries the remote's log messages to the caller", async () => {
    const client = createClient(gateway.url, { transport: "mcp-lite" });
    const logs: unknown[] = [];
    assert.equal(await client.call("v1.chatty", {}, { onLog: (entry) => logs.push(entry) }), "done");
    assert.deepEqual(logs, [{ level: "warning", logger: "chatty", data: "disk almost full" }]);
  });

  it("keeps the remote's error codes", async () => {
    const client = createClient(`${gateway.url}/mcp`, { transport: "mcp" });
    await assert.rejects(client.call("v1.add", { a: "x", b: 1 }), (e: unknown) => e instanceof Error);
    await assert.rejects(client.call("v1.nope", {}), isUnknownTool);
  });
});

describe("proxy() of the official SDK v2 server (MCP 2026-07-28)", () => {
  let peer: Peer & { extra: { on: boolean } };
  let gateway: { url: string; close(): Promise<void> };
  let grpc: GrpcListener;
  before(async () => {
    peer = await sdkV2Peer();
    const server = gatewayServer().group("v2", await proxy(peer.url));
    gateway = await served(server);
    grpc = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
  });
  after(async () => {
    await grpc.close();
    await gateway.close();
    await peer.close();
  });

  it("serves its tools to the official v2 client", async () => {
    const client = new ClientV2({ name: "v2", version: "2.4.0" });
    await client.connect(new HttpV2(new URL(`${gateway.url}/mcp`)));
    try {
      const result = await client.callTool({ name: "v2.add", arguments: { a: 4, b: 5 } });
      assert.deepEqual(result.structuredContent, { sum: 9 });
      const failed = await client.callTool({ name: "v2.fail", arguments: {} });
      assert.equal(failed.isError, true);
      assert.deepEqual(failed.content, [{ type: "text", text: "it broke" }]);
    } finally {
      await client.close();
    }
  });

  it("serves its tools to grpc-js", async () => {
    const reply = await callGrpcJs(`127.0.0.1:${grpc.port}`, "v2.add", { a: 1, b: 2 });
    assert.deepEqual(reply.result.structuredContent, { sum: 3 });
  });

  it("serves its tools to an OpenAPI client and a Webtools client", async () => {
    const openapi = await callOpenApi(gateway.url, "v2.add", { a: 2, b: 2 });
    assert.equal(openapi.status, 200);
    assert.deepEqual(await openapi.json(), { sum: 4 });
    const webtools = await callWebtools(gateway.url, "v2.add", { a: 3, b: 3 });
    assert.deepEqual(await webtools.json(), { status: "ok", data: { sum: 6 } });
  });

  it("continues the caller's trace on the second hop, and never forwards the caller's Authorization", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const client = createClient(gateway.url, {
      transport: "mcp-lite",
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, authorization: "Bearer the-callers-token" },
    });
    const seen = peer.traceparents.length;
    assert.deepEqual(await client.call("v2.add", { a: 1, b: 1 }), { sum: 2 });
    const sent = peer.traceparents.slice(seen);
    assert.ok(sent.length > 0, "the remote received no traceparent");
    assert.ok(sent.every((tp) => tp.split("-")[1] === traceId), sent.join());
    assert.deepEqual(peer.authorizations, []);
  });

  for (const wire of ["mcp", "mcp-lite"] as const) {
    it(`asks the remote's elicitation of the caller (${wire}), and answers the remote with its answer`, async () => {
      const messages: string[] = [];
      const client = createClient(gateway.url + (wire === "mcp" ? "/mcp" : ""), {
        transport: wire,
        onElicit: (request) => {
          messages.push(request.message);
          return { action: "accept", content: { ok: true } };
        },
      });
      assert.equal(await client.call("v2.deploy", { env: "prod" }), "deployed to prod");
      assert.deepEqual(messages, ["Deploy to prod?"]);
    });
  }

  it("answers the remote's elicitation as declined for a caller that cannot answer", async () => {
    const client = createClient(gateway.url, { transport: "mcp-lite" });
    await assert.rejects(client.call("v2.deploy", { env: "prod" }));
  });

  // MCP 2026-07-28 cancels a stateless request by closing it (Cancellation). The remote here has a peer of its own,
  // served on Deno by `node:http`: Deno.serve (2.9.5) misses a client's disconnect while the handler is pending once
  // the request (head and body) was larger than about 512 bytes (a 2026 call, with its `_meta` envelope), so the
  // remote would never see the close our proxy sends; denoland/deno#21653, docs/guides/composing.md. Bun and Node
  // serve it natively. The 2025 case above sends notifications/cancelled, a message of its own: it needs no close.
  it("passes a cancellation by the caller on to the remote", async () => {
    const remote = await sdkV2Peer(0, "Deno" in globalThis ? "node:http" : undefined);
    const front = await served(gatewayServer().group("v2", await proxy(remote.url)));
    try {
      const client = createClient(front.url, { transport: "mcp-lite" });
      const controller = new AbortController();
      const call = client.call("v2.wait", {}, { signal: controller.signal });
      await waitFor("the call to reach the remote", () => remote.waits() === 1);
      controller.abort();
      await assert.rejects(call);
      await waitFor("the remote's handler to see the abort", () => remote.aborts() === 1);
    } finally {
      await front.close();
      await remote.close();
    }
  });

  it("passes a remote tool failure through as a failure, not an error of ours", async () => {
    const client = createClient(gateway.url, { transport: "mcp-lite" });
    await assert.rejects(
      client.call("v2.fail", {}),
      (e: unknown) => e instanceof ToolError && e.message === "it broke",
    );
  });
});

describe("proxy(): the remote's lists followed", () => {
  it("serves a tool the remote added, and drops one it removed, with a new ETag", async () => {
    const peer = await sdkV2Peer();
    const stop = new AbortController();
    const gateway = gatewayServer().group("v2", await proxy(peer.url, { refreshMs: 50, signal: stop.signal }));
    const etag = async () => (await gateway.fetch(modernRequest("tools/list"))).headers.get("etag");
    try {
      const before = await etag();
      assert.ok(before);
      peer.extra.on = true;
      await waitFor("the new tool", () => gateway.tools.some((t) => t.name === "v2.subtract"));
      assert.notEqual(await etag(), before);
      assert.equal(await createClient(gateway, { transport: "mcp-lite" }).call("v2.subtract", { a: 5, b: 2 }), "3");
      peer.extra.on = false;
      await waitFor("the tool to go", () => !gateway.tools.some((t) => t.name === "v2.subtract"));
      assert.equal(await etag(), before);
    } finally {
      stop.abort();
      await peer.close();
    }
  });

  it("reads the tools again at once when the remote answers a mounted one as unknown", async () => {
    const peer = await sdkV2Peer();
    peer.extra.on = true;
    const stop = new AbortController();
    const gateway = gatewayServer().group("v2", await proxy(peer.url, { refreshMs: 0, signal: stop.signal }));
    try {
      peer.extra.on = false;
      const client = createClient(gateway, { transport: "mcp-lite" });
      await assert.rejects(client.call("v2.subtract", { a: 5, b: 2 }), isUnknownTool);
      await waitFor("the tool to go", () => !gateway.tools.some((t) => t.name === "v2.subtract"));
    } finally {
      stop.abort();
      await peer.close();
    }
  });
});

describe("proxy() of a fiberplane mcp-lite server", () => {
  it("finds its wire and serves its tools on MCP-lite and MCP", async () => {
    const peer = await mcpLitePeer();
    const gateway = await served(gatewayServer().group("lite", await proxy(peer.url)));
    try {
      assert.equal(await createClient(gateway.url, { transport: "mcp-lite" }).call("lite.add", { a: 1, b: 1 }), "2");
      assert.equal(
        await createClient(`${gateway.url}/mcp`, { transport: "mcp" }).call("lite.add", { a: 2, b: 1 }),
        "3",
      );
    } finally {
      await gateway.close();
      await peer.close();
    }
  });
});
