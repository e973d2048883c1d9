/**
 * Two proxies of one server grouped side by side in one gateway (two credentials, two regions, two tenants of the
 * same MCP server): their tools are namespaced apart, but resource URIs name resources and are served as they are,
 * so the second proxy brings the URIs the first did. `group(prefix, child, { onResourceClash: "skip" })` keeps the
 * one served; without it the grouping fails, naming the URI (server-everything over stdio, twice).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { everythingStdio } from "./everything-peer.ts";

describe("two proxies of one server in one gateway", () => {
  const closed = new AbortController();
  after(() => closed.abort());
  const remote = () => proxy(everythingStdio, { signal: closed.signal });

  it("refuses the second one's resources by default, naming the URI", { timeout: 60_000 }, async () => {
    const gateway = createServer({ name: "gateway", version: "1.0.0" }).group("a", await remote());
    const second = await remote();
    assert.throws(() => gateway.group("b", second), /resource \S+ is served by this server already/);
  });

  it("groups both with onResourceClash: skip: each one's tools under its prefix, each resource once", {
    timeout: 60_000,
  }, async () => {
    const [a, b] = await Promise.all([remote(), remote()]);
    const gateway = createServer({ name: "gateway", version: "1.0.0" })
      .group("a", a, { onResourceClash: "skip" })
      .group("b", b, { onResourceClash: "skip" });
    const client = createClient(gateway, { transport: "mcp" });
    try {
      const names = (await client.listTools()).map((tool) => tool.name);
      assert.ok(names.includes("a.echo") && names.includes("b.echo"), names.join());
      assert.equal(String(await client.call("b.echo", { message: "hi" })), "Echo: hi");
      const uris = (await client.listResources()).map((resource) => String(resource.uri));
      assert.ok(uris.length > 0);
      assert.equal(new Set(uris).size, uris.length, "each resource listed once");
      const read = await client.readResource(uris[0]);
      assert.ok((read.contents as unknown[]).length > 0);
    } finally {
      await client.close();
    }
  });
});
