/**
 * An MCP extension (SEP-2133) served by `server.extension()`, seen from our own client over HTTP on
 * 127.0.0.1: its method answers on 2026-07-28 and on 2025-11-25, its params are checked (-32602 with the
 * issues), an unknown method stays -32601, the server advertises `capabilities.extensions[id]` in
 * `server/discover` and in `initialize`, and handlers (the extension's and a tool's) read what the client
 * declared as `ctx.client.extensions`. The definition's own rules (identifier, method names, duplicates)
 * are checked without a wire.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineExtension, defineTool, serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { ProtocolError } from "../../src/errors/mod.ts";
import type { Listener } from "../../src/types.ts";
import { modernRequest } from "../helpers/request.ts";

const LEDGER = "org.example/ledger";
const DECLARED = { extensions: { [LEDGER]: { currencies: ["EUR"] } } };

const ledger = defineExtension(LEDGER)
  .settings({ currencies: ["EUR", "USD"] })
  .method(`${LEDGER}/get`, v.object({ id: v.string() }), ({ id }) => ({ id, balance: 42 }))
  .method(`${LEDGER}/whoami`, v.object({}), (_params, ctx) => {
    assert.ok(ctx.client.extensions === undefined || Object.isFrozen(ctx.client.extensions), "read-only");
    return { declared: ctx.client.extensions ?? null, aborted: ctx.signal.aborted };
  });

const server = createServer({ name: "bank", version: "1.0.0" })
  .extension(ledger)
  .tool(
    defineTool("declared").describe("The extensions the client declared").handle((_args, ctx) =>
      JSON.stringify(ctx.client.extensions ?? null)
    ),
  );

let listener: Listener;
let url: string;
before(async () => {
  listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  url = `${listener.url}/mcp`;
});
after(async () => await listener.close());

/** The error a call failed with, failing the test for anything but a `ProtocolError`. */
async function errorOf(call: Promise<unknown>): Promise<ProtocolError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${error}`);
    return error;
  }
  assert.fail("expected the call to fail");
}

for (const protocolVersion of ["2026-07-28", "2025-11-25"]) {
  describe(`our client on ${protocolVersion}`, () => {
    const open = (capabilities?: Record<string, unknown>) =>
      createClient(url, { transport: "mcp", protocolVersion, ...(capabilities ? { capabilities } : {}) });

    it("calls the extension's method and gets its result", async () => {
      const client = open();
      try {
        const result = await client.request(`${LEDGER}/get`, { id: "a1" });
        assert.equal(result.id, "a1");
        assert.equal(result.balance, 42);
      } finally {
        await client.close();
      }
    });

    it("gets invalid params as invalid_params, with the issues, and an unknown method as method_not_found", async () => {
      const client = open();
      try {
        const invalid = await errorOf(client.request(`${LEDGER}/get`, { id: 7 }));
        assert.equal(invalid.code, "invalid_params");
        const issues = (invalid.data as { issues?: { path: string }[] } | undefined)?.issues;
        assert.deepEqual(issues?.map((issue) => issue.path), ["id"]);
        const unknown = await errorOf(client.request(`${LEDGER}/nope`, {}));
        assert.equal(unknown.code, "method_not_found");
      } finally {
        await client.close();
      }
    });

    it("lets the method and a tool read the extensions the client declared", async () => {
      const client = open(DECLARED);
      try {
        // Our client also declares the tasks extension on 2026-07-28: only the ledger's entry is checked.
        const seen = await client.request(`${LEDGER}/whoami`, {}) as { declared: Record<string, unknown> | null };
        assert.deepEqual(seen.declared?.[LEDGER], DECLARED.extensions[LEDGER]);
        const answered = await client.request("tools/call", { name: "declared", arguments: {} });
        const [block] = answered.content as { text: string }[];
        assert.deepEqual(JSON.parse(block.text)?.[LEDGER], DECLARED.extensions[LEDGER]);
      } finally {
        await client.close();
      }
    });

    it("gives handlers no ledger entry when the client did not declare it", async () => {
      const client = open();
      try {
        const seen = await client.request(`${LEDGER}/whoami`, {}) as { declared: Record<string, unknown> | null };
        // 2025-11-25: nothing declared at all; 2026-07-28: our client's tasks extension alone.
        if (protocolVersion === "2025-11-25") assert.equal(seen.declared, null);
        else assert.deepEqual(Object.keys(seen.declared ?? {}), ["io.modelcontextprotocol/tasks"]);
      } finally {
        await client.close();
      }
    });
  });
}

describe("the server's advertisement", () => {
  it("is in server/discover (2026-07-28)", async () => {
    const client = createClient(url, { transport: "mcp", protocolVersion: "2026-07-28" });
    try {
      const discovered = await client.request("server/discover", {});
      const capabilities = discovered.capabilities as { extensions?: Record<string, unknown> };
      assert.deepEqual(capabilities.extensions?.[LEDGER], { currencies: ["EUR", "USD"] });
    } finally {
      await client.close();
    }
  });

  it("is in initialize (2025-11-25)", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    const text = await response.text();
    const body = JSON.parse(
      text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data:"))!.slice(5),
    );
    assert.deepEqual(body.result.capabilities.extensions?.[LEDGER], { currencies: ["EUR", "USD"] });
  });
});

describe("defineExtension()", () => {
  it("checks the identifier (SEP-2133) and refuses MCP's reserved prefixes", () => {
    for (const good of ["org.example/ledger", "acme/search", "com.example.mcp/x", "a-b.c1/n_1.v2"]) {
      assert.equal(defineExtension(good).id, good);
    }
    for (const bad of ["ledger", "org.example/", "/ledger", "1org/x", "org-/x", "org.example/-x", "a/b/c"]) {
      assert.throws(() => defineExtension(bad), /vendor-prefix/, bad);
    }
    for (const reserved of ["io.modelcontextprotocol/x", "dev.mcp/x", "io.MCP/x"]) {
      assert.throws(() => defineExtension(reserved), /reserved/, reserved);
    }
  });

  it("keeps method names under the identifier and away from MCP's own", () => {
    const ext = defineExtension("org.example/ledger");
    const schema = v.object({});
    assert.throws(() => ext.method("org.example/other/get" as `org.example/ledger/${string}`, schema, () => ({})));
    assert.throws(() => ext.method("org.example/ledger/", schema, () => ({})), /a verb/);
    assert.throws(() => defineExtension("resources/templates").method("resources/templates/list", schema, () => ({})));
    const once = ext.method("org.example/ledger/get", schema, () => ({}));
    assert.throws(() => once.method("org.example/ledger/get", schema, () => ({})), /defined already/);
  });

  it("is immutable: each builder method returns a new value", () => {
    const bare = defineExtension("org.example/ledger");
    const set = bare.settings({ a: 1 });
    assert.deepEqual(bare.advertised, {});
    assert.deepEqual(set.advertised, { a: 1 });
    assert.ok(Object.isFrozen(set) && Object.isFrozen(set.advertised));
    assert.equal(bare.methods.size, 0);
  });

  it("without an identifier is anonymous: middleware only, never advertised, claiming nothing", async () => {
    const seen: string[] = [];
    const mw = (who: string) =>
      defineExtension().intercept(async (_message, info, next) => {
        seen.push(`${who} ${info.direction} ${info.method}`);
        await next();
      });
    const anonymous = defineExtension();
    assert.equal(anonymous.id, "");
    assert.throws(() => anonymous.settings({ a: 1 }), /without an identifier.*\.settings\(\)/);
    assert.throws(() => anonymous.method("/get", v.object({}), () => ({})), /without an identifier.*\.method\(\)/);
    assert.throws(() => anonymous.notification("/hey", v.object({}), () => {}), /\.notification\(\) needs one/);
    const first = mw("first");
    const server = createServer({ name: "anon", version: "1" }).extension(first).extension(mw("second"));
    assert.throws(() => server.extension(first), /served already/);
    const response = await server.fetch(modernRequest("server/discover", {}));
    assert.equal((await response.json()).result.capabilities.extensions, undefined);
    assert.deepEqual(seen, [
      "first in server/discover",
      "second in server/discover",
      "first out server/discover",
      "second out server/discover",
    ]);
  });

  it("is refused by a server that serves its identifier or one of its methods already", () => {
    const bank = createServer({ name: "b", version: "1" }).extension(ledger);
    assert.throws(() => bank.extension(defineExtension(LEDGER)), /served already/);
    const schema = v.object({});
    const other = defineExtension("org.example/other").method("org.example/other/x", schema, () => ({}));
    const again = defineExtension("org.example/other2").method("org.example/other2/x", schema, () => ({}));
    bank.extension(other).extension(again);
  });
});
