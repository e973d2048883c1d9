/**
 * `serve(server, { httpServer: "node:http" })` on the runtime under test (Deno's and Bun's `node:http`,
 * Node's own): the server's wires work through it as through the native server — a JSON call, a
 * streamed (SSE) call, the WebSocket binding, whose upgrade `node:http` hands to the `ws` package, and an MCP
 * 2026 cancellation by a close, which `Deno.serve` misses (docs/concepts/runtimes.md).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { waitFor } from "../helpers/long-running.ts";
import { fixtureServer } from "../helpers/fixtures.ts";
import { toolsCall } from "../helpers/request.ts";
import { readSse } from "../helpers/sse.ts";
import { call, fixture } from "../websocket/fixture.ts";
import { TestSocket } from "../websocket/socket.ts";

const OPTIONS = { port: 0, hostname: "127.0.0.1", quiet: true, httpServer: "node:http" } as const;

describe('serve({ httpServer: "node:http" })', () => {
  it("answers a JSON call and streams an SSE call", async () => {
    const listener = await serve(fixtureServer(), OPTIONS);
    try {
      const post = (body: unknown, accept = "application/json") =>
        fetch(`${listener.url}/mcp-lite/v1/calltools`, {
          method: "POST",
          headers: { "content-type": "application/json", accept },
          body: JSON.stringify(body),
        });
      const answer = await (await post(toolsCall("add", { a: 1, b: 2 }))).json();
      assert.deepEqual(answer.result.structuredContent, { sum: 3 });
      const streamed = await post(toolsCall("countdown", { count: 3 }), "text/event-stream");
      assert.match(streamed.headers.get("content-type") ?? "", /^text\/event-stream/);
      const events = await readSse(streamed);
      assert.equal(events.at(-1)?.event, "done");
    } finally {
      await listener.close();
    }
  });

  it("carries the WebSocket binding (the ws package answers the upgrade)", async () => {
    const listener = await serve(fixture().server, OPTIONS);
    try {
      const socket = await TestSocket.open(`${listener.url.replace("http", "ws")}/mcp-lite/v1/ws`, ["mcp-lite.v1"]);
      socket.send(call(1, "add", { a: 2, b: 3 }));
      assert.equal((await socket.answer(1)).result.content[0].text, "5");
      await socket.close();
    } finally {
      await listener.close();
    }
  });

  // MCP 2026-07-28, Cancellation: the client closes its request. Deno.serve (2.9.5) misses that close before the
  // response's head once the request is over ~512 bytes, as a 2026 call is; node:http sees it on every runtime.
  // No keep-alive (`heartbeatMs: 0`): the answer never turns into a stream, whose close Deno.serve would see.
  it("aborts the handler's signal when an MCP 2026 client cancels by closing its request", async () => {
    const seen = { started: 0, aborted: 0 };
    const quiet = defineTool("quiet").describe("Waits, saying nothing, until cancelled").input(v.object({}))
      .handle((_input, ctx) =>
        new Promise<string>((_, reject) => {
          seen.started++;
          ctx.signal.addEventListener("abort", () => {
            seen.aborted++;
            reject(ctx.signal.reason);
          }, { once: true });
        })
      );
    const listener = await serve(
      createServer({ name: "quiet", version: "1.0.0", heartbeatMs: 0 }).tool(quiet),
      OPTIONS,
    );
    try {
      const client = createClient(`${listener.url}/mcp`, { transport: "mcp" });
      const controller = new AbortController();
      const call = client.call("quiet", {}, { signal: controller.signal });
      await waitFor(() => seen.started === 1, 20_000);
      controller.abort();
      await assert.rejects(call);
      await waitFor(() => seen.aborted === 1, 20_000);
    } finally {
      await listener.close();
    }
  });
});
