/**
 * `proxy()` of a remote on MCP's 2024-11-05 HTTP+SSE transport, found at its `/sse` URL as MCP 2025-03-26
 * (Transports, Backwards Compatibility) has a client find it: served on our wires like any remote, and
 * reached again after it restarted. The remote is server-everything (`sse`), on the official SDK's
 * `SSEServerTransport`.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { post, toolsCall } from "../helpers/request.ts";
import { everythingHttp } from "./everything-peer.ts";
import { gatewayServer } from "./gateway.ts";
import type { RemoteProcess } from "./remote-process.ts";

/** A server serving an untyped remote: any tool name. */
type Gateway = Awaited<ReturnType<typeof proxy>>;

describe("proxy() of server-everything on the 2024-11-05 HTTP+SSE transport", () => {
  let remote: RemoteProcess | undefined;
  const stop = new AbortController();
  after(async () => {
    stop.abort();
    await remote?.kill();
  });

  it("serves its tools and prompts, and reaches it again after a restart", async () => {
    remote = everythingHttp("sse");
    await remote.start();
    const gateway: Gateway = gatewayServer().group(
      "everything",
      await proxy(remote.url, { refreshMs: 0, signal: stop.signal }),
    );
    const lite = createClient(gateway, { transport: "mcp-lite", retry: false });
    const sum = async () => JSON.stringify((await lite.callTool("everything.get-sum", { a: 2, b: 3 })).content);
    assert.match(await sum(), /The sum of 2 and 3 is 5/);
    const mcp = createClient(gateway, { transport: "mcp" });
    assert.ok((await mcp.listTools()).some((tool) => tool.name === "everything.echo"));
    const prompt = await mcp.getPrompt("everything.simple-prompt", {});
    assert.ok(Array.isArray(prompt.messages) && prompt.messages.length > 0);

    await remote.kill();
    const down = await gateway.fetch(post("/mcp-lite/v1/calltools", toolsCall("everything.get-sum", { a: 1, b: 2 })));
    assert.equal(down.status, 503);
    assert.equal((await down.json()).error.data.code, "unavailable");
    await remote.start();
    assert.match(await sum(), /The sum of 2 and 3 is 5/);
  });
});
