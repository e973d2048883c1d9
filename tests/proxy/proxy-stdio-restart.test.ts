/**
 * `proxy()` of a stdio server that exits: the call in flight answers 503 with `Retry-After` (never a tool
 * error), and the next call starts the server again.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { post, toolsCall } from "../helpers/request.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { gatewayServer } from "./gateway.ts";

describe("proxy() of a stdio server that exits", () => {
  const stop = new AbortController();
  after(() => stop.abort());

  it("answers 503 while it is gone, and starts it again for the next call", async () => {
    const command = runtimeCommand(new URL("./crashing-stdio-server.ts", import.meta.url).pathname);
    const gateway = gatewayServer().group("local", await proxy(command, { signal: stop.signal, refreshMs: 0 }));
    const client = createClient(gateway, { transport: "mcp-lite" });
    const first = await client.call("local.pid", {});
    const crashed = await gateway.fetch(post("/mcp-lite/v1/calltools", toolsCall("local.crash", {})));
    assert.equal(crashed.status, 503);
    assert.equal(crashed.headers.get("retry-after"), "1");
    assert.equal((await crashed.json()).error.data.code, "unavailable");
    const second = await client.call("local.pid", {});
    assert.notEqual(second, first);
  });
});
