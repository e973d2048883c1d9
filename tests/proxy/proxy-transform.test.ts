/**
 * `group(prefix, await proxy(url), { transform })`: a transform over a remote's tools, run again for each tool the
 * remote changes, so the tool the gateway serves follows the remote's schema; a tool the transform leaves out is
 * neither listed nor callable. The remote is a server of ours on MCP 2026-07-28 over HTTP, changed while proxied.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createClient } from "../../src/client/mod.ts";
import { type AnyTool, createServer, defineTool, transformTool } from "../../mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { gatewayServer, listenedRemote, waitFor } from "./gateway.ts";

/** Long enough that only the remote's list_changed explains a list read again within the test. */
const NEVER_MS = 3_600_000;

/** The remote's search, as its team ships it: `q`, a `tenant` the model must not choose, then a `limit`. */
function search(withLimit: boolean) {
  const input = v.object({
    q: v.string(),
    tenant: v.string(),
    ...(withLimit ? { limit: v.optional(v.number()) } : {}),
  });
  return defineTool("search").describe("Searches (v2)").input(input).handle((args) => JSON.stringify(args));
}

/** The gateway's transform: `search` as `find` (`query`, the tenant fixed), `admin` left out, the rest as they are. */
function shape(tool: AnyTool): AnyTool | undefined {
  if (tool.name === "admin") return undefined;
  if (tool.name !== "search") return tool;
  return transformTool(tool, {
    name: "find",
    description: "Finds documents by keyword",
    args: { q: { name: "query" }, tenant: { hide: true, value: "acme" } },
  });
}

describe("group(prefix, proxy(url), { transform })", () => {
  it("serves the transformed tool, leaves out what it drops, and follows the remote's new schema", async () => {
    const remote = createServer({ name: "docs", version: "1.0.0" })
      .tool(search(false))
      .tool(defineTool("admin").describe("Deletes everything").handle(() => "deleted"))
      .tool(defineTool("ping").describe("Pings").handle(() => "pong"));
    const listener = await listenedRemote(remote);
    const stop = new AbortController();
    const proxied = await proxy(`${listener.url}/mcp`, { transport: "mcp", refreshMs: NEVER_MS, signal: stop.signal });
    const gateway = gatewayServer().group("docs", proxied, { transform: shape });
    const client = createClient(gateway, { transport: "mcp" });
    try {
      const listed = async () => Object.fromEntries((await client.listTools()).map((t) => [t.name, t.inputSchema]));
      const first = await listed();
      assert.deepEqual(Object.keys(first).sort(), ["docs.find", "docs.ping"]);
      assert.deepEqual(Object.keys((first["docs.find"] as { properties: object }).properties), ["query"]);
      const found = await client.callTool("docs.find", { query: "invoices" });
      assert.deepEqual(JSON.parse((found.content[0] as { text: string }).text), { q: "invoices", tenant: "acme" });
      await assert.rejects(client.callTool("docs.admin", {}), /not found|unknown/i);

      await waitFor("the proxy's listen stream", () => listener.listens() > 0);
      remote.removeTool("search");
      remote.tool(search(true));
      await waitFor("the remote's new schema, transformed", async () => {
        const properties = ((await listed())["docs.find"] as { properties?: object } | undefined)?.properties ?? {};
        return Object.keys(properties).join() === "query,limit";
      });
      const limited = await client.callTool("docs.find", { query: "invoices", limit: 2 });
      assert.deepEqual(JSON.parse((limited.content[0] as { text: string }).text), {
        q: "invoices",
        tenant: "acme",
        limit: 2,
      });
    } finally {
      await client.close();
      stop.abort();
      await listener.close();
    }
  });
});
