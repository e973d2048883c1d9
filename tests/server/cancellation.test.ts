/**
 * A client that goes away aborts the handler's ctx.signal, over a real socket on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { fixtureServer, slowProbe } from "../helpers/fixtures.ts";
import { modernMeta, toolsCall } from "../helpers/request.ts";
import { waitFor } from "../helpers/long-running.ts";

/**
 * Starts a `slow` call and disconnects once its handler runs.
 *
 * @returns How many calls `slowProbe` had seen aborted before this one.
 */
async function disconnectOnceStarted(url: string, headers: Record<string, string>, body: unknown): Promise<number> {
  const before = { ...slowProbe };
  const controller = new AbortController();
  const pending = fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  }).then(async (response) => {
    await response.body?.getReader().read(); // SSE: the stream is open; JSON: waits for the answer
    return response;
  }).catch(() => undefined);
  await waitFor(() => slowProbe.started > before.started);
  controller.abort();
  await pending;
  return before.aborted;
}

describe("cancellation", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(fixtureServer(), { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await listener.close();
  });

  const cases: [string, string, Record<string, string>, unknown][] = [
    ["MCP-lite JSON", "/mcp-lite/v1/calltools", {}, toolsCall("slow", {})],
    ["MCP-lite SSE", "/mcp-lite/v1/calltools", { accept: "text/event-stream" }, toolsCall("slow", {})],
    ["MCP 2026 SSE", "/mcp", {
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "slow",
    }, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "slow", arguments: {}, _meta: modernMeta({ progressToken: 1 }) },
    }],
  ];

  for (const [label, path, headers, body] of cases) {
    it(`${label}: a client abort reaches ctx.signal`, async () => {
      const aborted = await disconnectOnceStarted(listener.url + path, headers, body);
      await waitFor(() => slowProbe.aborted > aborted);
      assert.equal(slowProbe.aborted, aborted + 1);
    });
  }

  it("keeps serving after cancelled calls", async () => {
    const response = await fetch(listener.url + "/mcp-lite/v1/calltools", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(toolsCall("add", { a: 2, b: 3 })),
    });
    assert.deepEqual((await response.json()).result.structuredContent, { sum: 5 });
  });
});

/**
 * Deno 2.9.5 (`Deno.serve`, HTTP/1.1) aborts `request.signal` on a client disconnect only when the
 * request body arrived in the server's first read together with the headers: from about 512 bytes of
 * request (an MCP-lite body over ~250 bytes from `fetch`, nearly every MCP 2026-07-28 call), a client
 * that goes away while the answer is still plain JSON is not noticed. SSE answers notice it on their
 * next write, so an MCP call notices it at its first keep-alive. Bun aborts at once. These cases
 * assert each runtime's actual behaviour, so that they fail when Deno fixes it (then update the README
 * and the JSDoc of `CallContext.signal`).
 */
describe("client aborts of larger requests", () => {
  const IS_DENO = "Deno" in globalThis;
  const HEARTBEAT_MS = 600;
  /**
   * How long an abort that comes may take, on a loaded machine; the handler waits longer still, so an
   * abort is what ends it. Whether it came at once or at a keep-alive is told by the server: one that
   * writes no keep-alive during a test (`quiet`) against one that does every `HEARTBEAT_MS`.
   */
  const ABORT_WAIT_MS = 10_000;
  /** How long a disconnect the runtime does not notice is watched (the handler ends soon after). */
  const UNNOTICED_MS = 1_000;
  let quiet: Listener;
  let beating: Listener;
  const options = { port: 0, hostname: "127.0.0.1", quiet: true } as const;
  before(async () => {
    quiet = await serve(fixtureServer({ heartbeatMs: 60_000 }), options);
    beating = await serve(fixtureServer({ heartbeatMs: HEARTBEAT_MS }), options);
  });
  after(async () => {
    await quiet.close();
    await beating.close();
  });

  /**
   * Starts a slow call, disconnects once the handler runs, and says whether ctx.signal aborted: a
   * disconnect that is to be noticed gets `ABORT_WAIT_MS`, one that is not `UNNOTICED_MS`.
   */
  async function aborts(
    listener: Listener,
    path: string,
    headers: Record<string, string>,
    body: (ms: number) => unknown,
    expected: boolean,
  ): Promise<boolean> {
    const waitMs = expected ? ABORT_WAIT_MS : UNNOTICED_MS;
    const aborted = await disconnectOnceStarted(listener.url + path, headers, body(waitMs + 500));
    await waitFor(() => slowProbe.aborted > aborted, waitMs).catch(() => {});
    return slowProbe.aborted > aborted;
  }

  const lite = (pad: string) => (ms: number) => toolsCall("slow", { ms, pad });
  const modernHeaders = {
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "slow",
  };
  const modern = (pad: string) => (ms: number) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "slow", arguments: { ms, pad }, _meta: modernMeta() },
  });

  it("MCP-lite JSON, a small body: aborted at once on every runtime", async () => {
    assert.equal(await aborts(quiet, "/mcp-lite/v1/calltools", {}, lite(""), true), true);
  });

  it("MCP-lite JSON, a 1 KiB body: aborted on Bun; not noticed on Deno 2.9.5", async () => {
    const aborted = await aborts(quiet, "/mcp-lite/v1/calltools", {}, lite("x".repeat(1024)), !IS_DENO);
    assert.equal(
      aborted,
      !IS_DENO,
      IS_DENO ? "Deno now aborts ctx.signal here: update the README and CallContext.signal" : "",
    );
  });

  it("MCP-lite SSE, a 1 KiB body: aborted at once on every runtime", async () => {
    const sse = { accept: "text/event-stream" };
    assert.equal(await aborts(quiet, "/mcp-lite/v1/calltools", sse, lite("x".repeat(1024)), true), true);
  });

  it("MCP 2026-07-28, a 1 KiB body: aborted on Bun; on Deno at the first keep-alive", async () => {
    const call = modern("x".repeat(1024));
    // With no keep-alive written, Deno does not notice; with one every HEARTBEAT_MS, it does.
    assert.equal(await aborts(quiet, "/mcp", modernHeaders, call, !IS_DENO), !IS_DENO, "without a keep-alive");
    assert.equal(await aborts(beating, "/mcp", modernHeaders, call, true), true, "with keep-alives");
  });

  it("a bare fetch handler shows the same: the runtime's doing, not the server's", async () => {
    // The runtime's own server (Deno.serve or Bun.serve) with a handler that only waits on request.signal
    // (`?ms=` long at most).
    const seen = { started: 0, aborted: 0 };
    const bare = await serve({
      fetch: async (request) => {
        await request.text();
        seen.started++;
        const ms = Number(new URL(request.url).searchParams.get("ms"));
        const aborted = await new Promise<boolean>((resolve) => {
          request.signal.addEventListener("abort", () => resolve(true), { once: true });
          setTimeout(() => resolve(false), ms);
        });
        if (aborted) seen.aborted++;
        return Response.json({ aborted });
      },
    }, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const abortedFor = async (bytes: number, expected: boolean) => {
        const waitMs = expected ? ABORT_WAIT_MS : UNNOTICED_MS;
        const before = { ...seen };
        const controller = new AbortController();
        const init = { method: "POST", body: "x".repeat(bytes), signal: controller.signal };
        const pending = fetch(`${bare.url}?ms=${waitMs + 500}`, init).catch(() => undefined);
        await waitFor(() => seen.started > before.started);
        controller.abort();
        await pending;
        await waitFor(() => seen.aborted > before.aborted, waitMs).catch(() => {});
        return seen.aborted > before.aborted;
      };
      assert.equal(await abortedFor(100, true), true, "a small body");
      const kib = await abortedFor(1024, !IS_DENO);
      assert.equal(kib, !IS_DENO, IS_DENO ? "Deno now aborts: update the docs" : "a 1 KiB body");
    } finally {
      await bare.close();
    }
  });
});
