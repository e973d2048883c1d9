/**
 * An MCP extension (SEP-2133) served by `server.extension()`, called by a client nobody here wrote: the
 * official TypeScript SDK's v2 client (`@modelcontextprotocol/client` 2.4) in its default legacy mode
 * (2025-11-25) and pinned to 2026-07-28, over Streamable HTTP on 127.0.0.1. It sends the custom method
 * with `client.request({ method, params }, resultSchema)`, declares the extension in its own
 * `capabilities.extensions`, and reads the server's advertisement with `getServerCapabilities()`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { Client, ProtocolError, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createServer, defineExtension, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";

const LEDGER = "org.example/ledger";

const server = createServer({ name: "bank", version: "1.0.0" }).extension(
  defineExtension(LEDGER)
    .settings({ currencies: ["EUR"] })
    .method(`${LEDGER}/get`, v.object({ id: v.string() }), ({ id }, ctx) => ({
      id,
      balance: 42,
      declared: ctx.client.extensions?.[LEDGER] !== undefined,
    })),
);

let listener: Listener;
before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
after(async () => await listener.close());

const ENTRY = v.object({ id: v.string(), balance: v.number(), declared: v.boolean() });

for (const [mode, revision] of [["legacy", "2025-11-25"], ["pinned", "2026-07-28"]] as const) {
  describe(`the official v2 client, ${mode} (${revision})`, () => {
    let client: Client;
    before(async () => {
      client = new Client({ name: "v2", version: "2.4.0" }, {
        capabilities: { extensions: { [LEDGER]: {} } },
        ...(mode === "pinned" ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${listener.url}/mcp`)));
      assert.equal(client.getNegotiatedProtocolVersion(), revision);
    });
    after(async () => await client.close());

    it("reads the server's advertisement of the extension", () => {
      const extensions = client.getServerCapabilities()?.extensions as Record<string, unknown> | undefined;
      assert.deepEqual(extensions?.[LEDGER], { currencies: ["EUR"] });
    });

    it("calls the custom method, the server seeing the extension the client declared", async () => {
      const entry = await client.request({ method: `${LEDGER}/get`, params: { id: "a1" } }, ENTRY);
      assert.deepEqual(entry, { id: "a1", balance: 42, declared: true });
    });

    it("gets invalid params as -32602 and an unknown method as -32601", async () => {
      const failure = (call: Promise<unknown>) => call.then(() => assert.fail("expected the call to fail"), (e) => e);
      const invalid = await failure(client.request({ method: `${LEDGER}/get`, params: { id: 7 } }, ENTRY));
      assert.ok(invalid instanceof ProtocolError, `expected an MCP error, got ${invalid}`);
      assert.equal(invalid.code, -32602);
      const unknown = await failure(client.request({ method: `${LEDGER}/nope`, params: {} }, ENTRY));
      if (mode === "legacy") {
        assert.ok(unknown instanceof ProtocolError, `expected an MCP error, got ${unknown}`);
        assert.equal(unknown.code, -32601);
      } else {
        // 2026-07-28 answers an unknown method with HTTP 404 (Transports: Streamable HTTP), its body still
        // -32601; this client surfaces any 404 as an HTTP error.
        assert.ok(unknown instanceof SdkHttpError, `expected an HTTP error, got ${unknown}`);
        assert.equal(unknown.status, 404);
        assert.match(unknown.message, /"code":-32601/);
      }
    });
  });
}
