/**
 * The bound on what the client reads of one answer (`maxResponseBytes`), against a hostile server on
 * 127.0.0.1: our own server answers discovery and lists, and a tool call of `flood_sse` or `flood_json`
 * is answered by the test instead: an SSE event whose `data:` line never ends, a 50 MB JSON body sent
 * chunked, or many small events that are fine. The streams are pulled as the socket drains, so the bytes
 * they produce are what the client let through before it cancelled. A proxy of that server answers its
 * caller with an error naming the bound, and serves the next call.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineResource, defineTool, mcpBinding } from "../../mod.ts";
import { serve } from "../../src/server/serve.ts";
import { createClient } from "../../src/client/mod.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { gatewayServer, served } from "./gateway.ts";
import { attachListener } from "../../src/server/listener.ts";
import { budgetsOf } from "../../src/core/instance/runtime.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";
import { waitFor } from "../helpers/wait.ts";

const MiB = 1024 * 1024;
const BOUND = 1 * MiB;
/** What a flood would send if nothing stopped it. */
const FLOOD_SSE = 64 * MiB;
const FLOOD_JSON = 50 * 1000 * 1000;
const CHUNK = new TextEncoder().encode("x".repeat(64 * 1024));

/** What the hostile server produced of each flood, and whether the client cancelled it. */
const produced = { sse: 0, json: 0, sseCancelled: false, jsonCancelled: false };

/** A body of `prefix`, then `x`s up to `total` bytes (never `suffix` unless all is pulled), pulled as the socket drains. */
function flood(prefix: string, total: number, kind: "sse" | "json", suffix = ""): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(prefix));
    },
    pull(controller) {
      if (sent >= total) {
        if (suffix !== "") controller.enqueue(encoder.encode(suffix));
        return controller.close();
      }
      controller.enqueue(CHUNK);
      sent += CHUNK.byteLength;
      produced[kind] += CHUNK.byteLength;
    },
    cancel() {
      produced[kind === "sse" ? "sseCancelled" : "jsonCancelled"] = true;
    },
  }, { highWaterMark: 1 });
}

/** Many small events (notifications), then the reply: more than the bound in all, each far below it. */
function smallEvents(id: unknown): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const note = JSON.stringify({
    jsonrpc: "2.0",
    method: "notifications/message",
    params: { level: "info", data: "y".repeat(1000) },
  });
  let left = 2000; // ~2 MB in all
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left-- > 0) return controller.enqueue(encoder.encode(`data: ${note}\n\n`));
      const reply = { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "small" }] } };
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(reply)}\n\n`));
      controller.close();
    },
  });
}

const remote = createServer({ name: "hostile", version: "1.0.0" });
for (const name of ["flood_sse", "flood_json", "small_events", "hold_json"]) {
  remote.tool(defineTool(name).describe("answered by the test").input(v.object({})).handle(() => "never"));
}
remote.resource(defineResource("docs://big").read(() => "r".repeat(2 * MiB)));
remote.tool(defineTool("echo").describe("echoes").input(v.object({ text: v.string() })).handle(({ text }) => text));

/** Holds each `hold_json` answer after its first 800 KB until the test releases it. */
let release: () => void = () => {};
let released = new Promise<void>((resolve) => release = resolve);
const HELD = 800 * 1000;

function heldJson(id: unknown): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        first = false;
        return controller.enqueue(encoder.encode(prefix + "z".repeat(HELD)));
      }
      // The end in the same pull as the wait: Bun does not pull again after a pull that enqueued nothing.
      await released;
      controller.enqueue(encoder.encode(`"}]}}`));
      controller.close();
    },
  });
}

/** Answers `tools/call` of the flood tools itself; anything else goes to the real server. */
async function hostileFetch(request: Request): Promise<Response> {
  if (request.method !== "POST") return await remote.fetch(request);
  const text = await request.clone().text();
  let message: { id?: unknown; method?: string; params?: { name?: string } } = {};
  try {
    message = JSON.parse(text);
  } catch { /* not JSON-RPC: the server answers */ }
  const tool = message.method === "tools/call" ? message.params?.name : undefined;
  if (tool === "flood_sse") {
    return new Response(flood("data: ", FLOOD_SSE, "sse"), { headers: { "content-type": "text/event-stream" } });
  }
  if (tool === "flood_json") {
    const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"`;
    return new Response(flood(prefix, FLOOD_JSON, "json", `"}]}}`), {
      headers: { "content-type": "application/json" },
    });
  }
  if (tool === "hold_json") {
    return new Response(heldJson(message.id), { headers: { "content-type": "application/json" } });
  }
  if (tool === "small_events") {
    return new Response(smallEvents(message.id), { headers: { "content-type": "text/event-stream" } });
  }
  return await remote.fetch(request);
}

describe("maxResponseBytes: the client reads at most the bound of one answer", () => {
  let hostile: { url: string; close(): Promise<void> };
  before(async () => {
    const listener = await serve({ fetch: hostileFetch }, { port: 0, hostname: "127.0.0.1", quiet: true });
    hostile = { url: listener.url, close: () => listener.close() };
  });
  after(async () => await hostile.close());

  it("fails an SSE event whose data line never ends, naming the bound, and cancels the stream", async () => {
    const client = createClient(`${hostile.url}/mcp`, { transport: "mcp", maxResponseBytes: BOUND });
    try {
      const error = await client.callTool("flood_sse", {}).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof McpliteError, String(error));
      assert.equal(error.code, "payload_too_large");
      assert.match(error.message, /SSE event exceeds the client's limit of 1048576 bytes \(maxResponseBytes\)/);
      assert.deepEqual(error.data, { maxResponseBytes: BOUND });
      await waitUntil(() => produced.sseCancelled);
      // What got through before the cancel: the bound, and what the socket buffers held; far below the flood.
      assert.ok(produced.sse < FLOOD_SSE / 4, `the server produced ${produced.sse} bytes`);
    } finally {
      await client.close();
    }
  });

  it("fails a 50 MB JSON body sent chunked after about the bound, and cancels it", async () => {
    const client = createClient(`${hostile.url}/mcp`, { transport: "mcp", maxResponseBytes: BOUND });
    try {
      const error = await client.callTool("flood_json", {}).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof McpliteError, String(error));
      assert.equal(error.code, "payload_too_large");
      assert.match(error.message, /response body exceeds the client's limit of 1048576 bytes \(maxResponseBytes\)/);
      await waitUntil(() => produced.jsonCancelled);
      assert.ok(produced.json < FLOOD_JSON / 4, `the server produced ${produced.json} bytes`);
    } finally {
      await client.close();
    }
  });

  it("reads many small events, more than the bound in all", async () => {
    const client = createClient(`${hostile.url}/mcp`, { transport: "mcp", maxResponseBytes: BOUND });
    try {
      const result = await client.callTool("small_events", {});
      assert.deepEqual(result.content, [{ type: "text", text: "small" }]);
    } finally {
      await client.close();
    }
  });

  it("refuses a bound that is not a positive number", () => {
    assert.throws(() => createClient(`${hostile.url}/mcp`, { maxResponseBytes: 0 }), /maxResponseBytes must be/);
  });

  describe("through proxy()", () => {
    let gateway: { url: string; close(): Promise<void> };
    before(async () => {
      produced.sse = produced.json = 0;
      produced.sseCancelled = produced.jsonCancelled = false;
      const server = gatewayServer().group(
        "h",
        await proxy(`${hostile.url}/mcp`, { transport: "mcp", maxResponseBytes: BOUND, refreshMs: 0 }),
      );
      gateway = await served(server);
    });
    after(async () => await gateway.close());

    it("answers its caller with a tool error naming the bound, and serves the next call", async () => {
      const caller = createClient(`${gateway.url}/mcp`, { transport: "mcp" });
      try {
        for (const tool of ["h.flood_sse", "h.flood_json"]) {
          const result = await caller.callTool(tool, {}, { failure: "value" } as never);
          assert.equal(result.isError, true, tool);
          const text = (result.content as { text: string }[])[0].text;
          assert.match(text, /exceeds the client's limit of 1048576 bytes \(maxResponseBytes\)/, tool);
          assert.deepEqual(result.structuredContent, { maxResponseBytes: BOUND }, tool);
          const echoed = await caller.callTool("h.echo", { text: "still here" });
          assert.deepEqual(echoed.content, [{ type: "text", text: "still here" }], tool);
        }
        // A resource past the bound: `internal` naming it (the remote's fault: neither 413 nor a 503 to retry).
        const error = await caller.readResource("docs://big").then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof McpliteError, String(error));
        assert.equal(error.code, "internal");
        assert.match(error.message, /exceeds the client's limit of 1048576 bytes \(maxResponseBytes\)/);
        await waitUntil(() => produced.sseCancelled && produced.jsonCancelled);
        assert.ok(produced.sse < FLOOD_SSE / 4, `the remote produced ${produced.sse} bytes of SSE`);
        assert.ok(produced.json < FLOOD_JSON / 4, `the remote produced ${produced.json} bytes of JSON`);
      } finally {
        await caller.close();
      }
    });
  });

  it("counts what a proxy holds of its remote's answers against the server's bodyBytes budget", async () => {
    const server = createServer({
      name: "gateway",
      version: "1.0.0",
      bindings: [mcpBinding()],
      limits: { bodyBytes: 1.5 * MiB, perCaller: false },
    }).group("h", await proxy(`${hostile.url}/mcp`, { transport: "mcp", maxResponseBytes: BOUND, refreshMs: 0 }));
    const budgets = budgetsOf(registryOf(attachListener(server).core).runtime);
    const gateway = await served(server);
    const caller = createClient(`${gateway.url}/mcp`, { transport: "mcp", retry: false });
    try {
      // The first answer is held half read: its 800 KB count until it is read whole.
      const first = caller.callTool("h.hold_json", {});
      first.catch(() => {}); // awaited below; a failure before then is not unhandled
      await waitUntil(() => budgets.inUse.bodyBytes >= HELD);
      // A second would hold as much again, past the budget: refused (503, Retry-After), not buffered.
      const error = await caller.callTool("h.hold_json", {}).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof McpliteError, String(error));
      assert.equal(error.code, "rate_limited");
      assert.match(error.message, /limits\.bodyBytes/);
      release();
      const result = await first;
      assert.equal((result.content as { text: string }[])[0].text.length, HELD);
      await waitUntil(() => budgets.inUse.bodyBytes === 0);
    } finally {
      release();
      released = Promise.resolve();
      await caller.close();
      await gateway.close();
    }
  });
});

/** Waits (bounded: 10 s) until a condition on the budgets holds: they announce no change. */
async function waitUntil(holds: () => boolean): Promise<void> {
  await waitFor(holds, 10_000).catch(() => {});
  assert.ok(holds(), "the condition did not hold within 10 s");
}
