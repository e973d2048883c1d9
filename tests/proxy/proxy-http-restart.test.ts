/**
 * `proxy()` of a remote over Streamable HTTP that is killed and started again on the same port, with no
 * restart of the proxy: while it is down, callers are told `unavailable` with when to retry (503 with
 * `Retry-After`); once it is back, calls succeed, although the remote answers the proxy's old session with
 * 400 rather than the 404 MCP 2025-11-25 (Transports, Session Management) names. The remote is
 * server-everything, whose Streamable HTTP answers a session it does not know so.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { modernRequest, post, toolsCall } from "../helpers/request.ts";
import { everythingHttp } from "./everything-peer.ts";
import { gatewayServer } from "./gateway.ts";
import type { RemoteProcess } from "./remote-process.ts";

/** A server serving an untyped remote: any tool name. */
type Gateway = Awaited<ReturnType<typeof proxy>>;

describe("proxy() of server-everything over HTTP, killed and started again", () => {
  let remote: RemoteProcess | undefined;
  const stop = new AbortController();
  after(async () => {
    stop.abort();
    await remote?.kill();
  });

  it("answers unavailable with Retry-After while it is down, and recovers once it is back", async () => {
    remote = everythingHttp();
    await remote.start();
    const gateway: Gateway = gatewayServer().group(
      "everything",
      await proxy(remote.url, { transport: "mcp", refreshMs: 0, signal: stop.signal }),
    );
    const lite = createClient(gateway, { transport: "mcp-lite", retry: false });
    const sum = async () => await lite.callTool("everything.get-sum", { a: 2, b: 3 });
    assert.match(JSON.stringify((await sum()).content), /5/);
    await remote.kill();

    const down = await gateway.fetch(post("/mcp-lite/v1/calltools", toolsCall("everything.get-sum", { a: 1, b: 2 })));
    assert.equal(down.status, 503);
    assert.equal(down.headers.get("retry-after"), "1");
    assert.equal((await down.json()).error.data.code, "unavailable");
    const modern = await gateway.fetch(
      modernRequest("tools/call", { name: "everything.get-sum", arguments: { a: 1, b: 2 } }),
    );
    assert.equal(modern.status, 503);
    assert.equal(modern.headers.get("retry-after"), "1");
    const told = (await modern.json()).error.data;
    assert.equal(told.code, "unavailable");
    assert.equal(told.retryAfterMs, 1_000);

    await remote.start();
    // Back, at the same URL: the proxy's session there is gone, and the next call opens another.
    assert.match(JSON.stringify((await sum()).content), /5/);
  });
});
