/**
 * A client that goes away aborts the handler's ctx.signal, over a real socket on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { fixtureServer, sleep, slowProbe } from "../helpers/fixtures.ts";
import { modernMeta, toolsCall } from "../helpers/request.ts";

/** Polls `check` every 10 ms until it holds, for at most `ms`. */
async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await sleep(10);
  }
}

describe("cancellation", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(fixtureServer(), { port: 0, hostname: "127.0.0.1" });
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
      const before = { ...slowProbe };
      const controller = new AbortController();
      const pending = fetch(listener.url + path, {
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
      await waitFor(() => slowProbe.aborted > before.aborted);
      assert.equal(slowProbe.aborted, before.aborted + 1);
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
