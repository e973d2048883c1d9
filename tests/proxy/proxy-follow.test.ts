/**
 * `proxy()` follows a remote that tells of its changes, with `refreshMs` too long to explain a new list:
 * a stdio server (the official SDK v1) that sends `list_changed` for its tools, prompts and resources; an
 * MCP 2025 Streamable HTTP server (SDK v1, sessions) on its GET stream; MCP 2026-07-28 servers of ours
 * over HTTP and stdio through `subscriptions/listen`. Our server serves the new lists, with a new ETag.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { createServer, defineTool } from "../../mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { modernRequest } from "../helpers/request.ts";
import { initializedSession, runtimeCommand } from "../helpers/stdio.ts";
import { gatewayServer, listenedRemote, waitFor } from "./gateway.ts";
import { sdkV1Peer } from "./peers.ts";

/** Long enough that only a notification can explain a list read again within a test. */
const NEVER_MS = 3_600_000;

describe("proxy() of a stdio server that sends list_changed", () => {
  it("serves the remote's new tool, prompt and resource at once, and tells its own clients", async () => {
    const stop = new AbortController();
    const command = runtimeCommand(new URL("./growing-stdio-server.ts", import.meta.url).pathname);
    const gateway = gatewayServer().group("g", await proxy(command, { refreshMs: NEVER_MS, signal: stop.signal }));
    // A client of the gateway's own, on a connection that carries its pushes (MCP 2025 over stdio).
    const watcher = await initializedSession(gateway, "watcher");
    try {
      const etag = async () => (await gateway.fetch(modernRequest("tools/list"))).headers.get("etag");
      const before = await etag();
      assert.ok(before);
      assert.deepEqual(gateway.tools.map((t) => t.name), ["g.grow"]);

      const caller = createClient(gateway, { transport: "mcp-lite" });
      assert.equal(await caller.call("g.grow", {}), "grown");
      await waitFor("the new tool", () => gateway.tools.some((t) => t.name === "g.late"));
      assert.notEqual(await etag(), before);
      assert.equal(await caller.call("g.late", {}), "late answer");
      await watcher.next((m) => m.method === "notifications/tools/list_changed", 20_000);

      const reader = createClient(gateway); // MCP: prompts and resources
      const prompts = async () => (await reader.listPrompts()).map((p) => p.name).sort();
      await waitFor("the new prompt", async () => (await prompts()).includes("g.late"));
      const resources = async () => (await reader.listResources()).map((r) => r.uri).sort();
      await waitFor("the new resource", async () => (await resources()).includes("memo://late"));
      assert.deepEqual(await resources(), ["memo://first", "memo://late"]);
    } finally {
      await watcher.end();
      stop.abort();
    }
  });
});

describe("proxy() of an MCP 2025 Streamable HTTP server that sends list_changed on its GET stream", () => {
  it("serves the remote's new tool at once, with a new ETag", async () => {
    const peer = await sdkV1Peer();
    const stop = new AbortController();
    const remote = await proxy(peer.url, { transport: "mcp", refreshMs: NEVER_MS, signal: stop.signal });
    const gateway = gatewayServer().group("v1", remote);
    try {
      const etag = async () => (await gateway.fetch(modernRequest("tools/list"))).headers.get("etag");
      const before = await etag();
      assert.ok(!gateway.tools.some((t) => t.name === "v1.late"));
      const caller = createClient(gateway, { transport: "mcp-lite" });
      assert.equal(await caller.call("v1.grow", {}), "grown");
      await waitFor("the new tool", () => gateway.tools.some((t) => t.name === "v1.late"));
      assert.notEqual(await etag(), before);
      assert.equal(await caller.call("v1.late", {}), "late answer");
    } finally {
      stop.abort();
      await peer.close();
    }
  });
});

describe("proxy() of an MCP 2026-07-28 server, through subscriptions/listen", () => {
  it("serves the remote's new tool at once, with a new ETag", async () => {
    const remote = createServer({ name: "modern", version: "1.0.0" })
      .tool(defineTool("first").describe("The first").handle(() => "first answer"));
    const listener = await listenedRemote(remote);
    const stop = new AbortController();
    const gateway = gatewayServer().group(
      "m",
      await proxy(`${listener.url}/mcp`, { transport: "mcp", refreshMs: NEVER_MS, signal: stop.signal }),
    );
    try {
      const etag = async () => (await gateway.fetch(modernRequest("tools/list"))).headers.get("etag");
      const before = await etag();
      assert.deepEqual(gateway.tools.map((t) => t.name), ["m.first"]);
      // The listen stream is open before the change, or the change would go unheard.
      await waitFor("the proxy's listen stream", () => listener.listens() > 0);
      remote.tool(defineTool("late").describe("Registered later").handle(() => "late answer"));
      await waitFor("the new tool", () => gateway.tools.some((t) => t.name === "m.late"));
      assert.notEqual(await etag(), before);
      const caller = createClient(gateway, { transport: "mcp-lite" });
      assert.equal(await caller.call("m.late", {}), "late answer");
    } finally {
      stop.abort();
      await listener.close();
    }
  });
});

describe("proxy() of our own stdio server (MCP 2026-07-28), through subscriptions/listen on the pipe", () => {
  it("serves the remote's new tool at once", async () => {
    const stop = new AbortController();
    const command = runtimeCommand(new URL("./growing-own-stdio-server.ts", import.meta.url).pathname);
    const gateway = gatewayServer().group("o", await proxy(command, { refreshMs: NEVER_MS, signal: stop.signal }));
    try {
      const caller = createClient(gateway, { transport: "mcp-lite" });
      assert.deepEqual(gateway.tools.map((t) => t.name), ["o.grow"]);
      // The listen stream opens in the background: a change made before it is open goes unheard, so the
      // remote grows until one is heard (refreshMs never runs, so only a list_changed explains a new tool).
      const late = () => gateway.tools.find((t) => t.name.startsWith("o.late"))?.name;
      await waitFor("a late tool", async () => {
        await caller.call("o.grow", {});
        return late() !== undefined;
      });
      const name = late() as `o.${string}`;
      assert.equal(await caller.call(name, {}), `${name.slice(2)} answer`);
    } finally {
      stop.abort();
    }
  });
});
