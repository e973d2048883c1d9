/**
 * A remote's extensions (SEP-2133) cross `proxy()`: advertised by the gateway in `capabilities.extensions` as the
 * remote advertises them, their requests answered by the remote (its errors kept), what it notifies on a request's
 * stream passed back, and its client notifications delivered; `excludeExtensions` leaves one out (-32601). The
 * remote is a server of ours with an extension, over HTTP, spoken to on MCP 2026-07-28, on a pinned MCP 2025
 * session (whose callers each go through a session of their own) and on MCP-lite.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineExtension } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy, type ProxyOptions } from "../../src/proxy/mod.ts";
import { serve } from "../../src/server/serve.ts";
import { waitFor } from "./gateway.ts";

const LEDGER = "org.example/ledger";

describe("proxy(): a remote's extensions", () => {
  const touched: string[] = [];
  const ledger = defineExtension(LEDGER)
    .settings({ currencies: ["EUR"] })
    .method(`${LEDGER}/get`, v.object({ id: v.string() }), async ({ id }, ctx) => {
      await ctx.notify(`${LEDGER}/changed`, { id });
      return { id, balance: 42 };
    })
    .notification(`${LEDGER}/touched`, v.object({ id: v.string() }), ({ id }) => void touched.push(id));
  const remote = createServer({ name: "bank", version: "1.0.0" }).extension(ledger);
  let listener: Awaited<ReturnType<typeof serve>>;
  const closed = new AbortController();
  before(async () => {
    listener = await serve(remote, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    closed.abort();
    await listener.close();
  });

  const gatewayOf = async (options: ProxyOptions = {}, path = "/mcp") =>
    createServer({ name: "gateway", version: "1.0.0" })
      .group("bank", await proxy(`${listener.url}${path}`, { refreshMs: 0, signal: closed.signal, ...options }));

  const remotes = [
    ["MCP 2026-07-28", {}, "/mcp"],
    ["a pinned MCP 2025 session", { protocolVersion: "2025-11-25" }, "/mcp"],
    ["MCP-lite (its /rpc answer an SSE stream once the method notifies, E5)", {}, ""],
  ] as const;
  for (const [revision, options, path] of remotes) {
    it(`advertises it and passes its messages on (the remote on ${revision})`, async () => {
      const gateway = await gatewayOf(options, path);
      for (const version of ["2026-07-28", "2025-11-25"]) {
        const client = createClient(gateway, { transport: "mcp", protocolVersion: version });
        try {
          const described = await client.discover();
          const extensions = (described?.capabilities as Record<string, any>).extensions;
          assert.deepEqual(extensions?.[LEDGER], { currencies: ["EUR"] }, version);
          const changed: unknown[] = [];
          const stop = client.onNotification(`${LEDGER}/changed`, (params) => changed.push(params.id));
          const entry = await client.request(`${LEDGER}/get`, { id: "a1" }).finally(stop);
          assert.deepEqual([entry.id, entry.balance], ["a1", 42]);
          if (version === "2025-11-25") assert.equal(entry.resultType, undefined, "no 2026 field of the second hop");
          assert.deepEqual(changed, ["a1"], `the remote's notification on the request's stream (${version})`);
          await assert.rejects(client.request(`${LEDGER}/get`, {}), { code: "invalid_params" }, "the remote's error");
          await assert.rejects(client.request(`${LEDGER}/nope`, {}), { code: "method_not_found" });
          await client.notify(`${LEDGER}/touched`, { id: version });
          await waitFor("the remote to hear the notification", () => touched.includes(version));
        } finally {
          await client.close();
        }
      }
    });
  }

  it("leaves out one named in excludeExtensions", async () => {
    const gateway = await gatewayOf({ excludeExtensions: [LEDGER] });
    const client = createClient(gateway, { transport: "mcp" });
    try {
      const extensions = ((await client.discover())?.capabilities as Record<string, any>).extensions;
      assert.equal(extensions?.[LEDGER], undefined);
      await assert.rejects(client.request(`${LEDGER}/get`, { id: "a1" }), { code: "method_not_found" });
    } finally {
      await client.close();
    }
  });
});
