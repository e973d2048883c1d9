/**
 * Two proxies of one server grouped side by side in one gateway (two credentials, two regions, two tenants of the
 * same MCP server): their tools are namespaced apart, but resource URIs name resources and are served as they are,
 * so the second proxy brings the URIs the first did. `group(prefix, child, { onResourceClash: "skip" })` keeps the
 * one served; without it the grouping fails, naming the URI (server-everything over stdio, twice). With
 * `resourcePrefix` (of `group()` or of `proxy()`) each serves its resources under URIs of its own: read
 * and subscribed to at its own remote with the remote's URI; `transformResource` leaves some out.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { initializedSession } from "../helpers/stdio.ts";
import { everythingStdio } from "./everything-peer.ts";

describe("two proxies of one server in one gateway", () => {
  const closed = new AbortController();
  after(() => closed.abort());
  const remote = () => proxy(everythingStdio, { signal: closed.signal });
  // Two proxies, each of a server-everything of its own over stdio, grouped by each test's gateway: started once by
  // the first test that needs them (a start is half a second of Node's CPU), within its timeout.
  let started: Promise<[Awaited<ReturnType<typeof remote>>, Awaited<ReturnType<typeof remote>>]> | undefined;
  const pair = () => started ??= Promise.all([remote(), remote()]);

  it("refuses the second one's resources by default, naming the URI", { timeout: 60_000 }, async () => {
    const [first, second] = await pair();
    const gateway = createServer({ name: "gateway", version: "1.0.0" }).group("a", first);
    assert.throws(() => gateway.group("b", second), /resource \S+ is served by this server already/);
  });

  it("groups both with onResourceClash: skip: each one's tools under its prefix, each resource once", {
    timeout: 60_000,
  }, async () => {
    const [a, b] = await pair();
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

  it("serves each under a resourcePrefix of its own: read and subscribed to with the remote's URI", {
    timeout: 60_000,
  }, async () => {
    const [[a], b] = await Promise.all([
      pair(),
      proxy(everythingStdio, { signal: closed.signal, resourcePrefix: "b+" }),
    ]);
    const gateway = createServer({ name: "gateway", version: "1.0.0" })
      .group("a", a, { resourcePrefix: "a+" })
      .group("b", b);
    const client = createClient(gateway, { transport: "mcp" });
    try {
      const uris = (await client.listResources()).map((resource) => String(resource.uri));
      const own = uris.filter((uri) => uri.startsWith("a+")).map((uri) => uri.slice(2)).sort();
      assert.ok(own.length > 0);
      assert.deepEqual(uris.filter((uri) => uri.startsWith("b+")).map((uri) => uri.slice(2)).sort(), own);
      assert.equal(uris.length, own.length * 2, uris.join());
      const [first] = own;
      const read = await client.readResource(`b+${first}`);
      assert.equal((read.contents as { uri: string }[])[0].uri, first, "the remote's contents, verbatim");
      const templates = (await client.listResourceTemplates()).map((t) => String(t.uriTemplate));
      const template = templates.find((t) => t.startsWith("a+") && t.includes("{"));
      assert.ok(template, templates.join());
      const expanded = template!.replace(/\{[^}]+\}/, "1");
      assert.ok(((await client.readResource(expanded)).contents as unknown[]).length > 0, expanded);

      // A 2025 caller on a connection subscribes to a prefixed URI: the remote's updates reach it under it.
      const session = await initializedSession(gateway);
      const uri = `a+${own.find((u) => u.startsWith("demo://resource/static/"))}`;
      session.send({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri } });
      assert.deepEqual((await session.answer(2)).result, {});
      await client.call("a.toggle-subscriber-updates", {});
      try {
        const heard = await session.next((m: any) => m.method === "notifications/resources/updated", 20_000);
        assert.deepEqual(heard.params, { uri });
      } finally {
        await client.call("a.toggle-subscriber-updates", {});
        await session.end();
      }
    } finally {
      await client.close();
    }
  });

  it("leaves out the resources transformResource drops", { timeout: 60_000 }, async () => {
    const [a, b] = await pair();
    const gateway = createServer({ name: "gateway", version: "1.0.0" })
      .group("a", a)
      .group("b", b, { transformResource: () => undefined });
    const client = createClient(gateway, { transport: "mcp" });
    try {
      const uris = (await client.listResources()).map((resource) => String(resource.uri));
      assert.equal(new Set(uris).size, uris.length, "each resource listed once: a's");
      assert.equal(String(await client.call("b.echo", { message: "hi" })), "Echo: hi", "its tools served still");
    } finally {
      await client.close();
    }
  });
});
