/**
 * examples/extension (the guide "Writing an extension"): the `org.example/ledger` extension served by
 * examples/extension/server.ts, spoken by examples/extension/client.ts, imported and run as a process of the
 * runtime running the tests: the server's ad read, a balance, a posting heard as `changed` on its own stream,
 * the client's `audited` notification recorded; a client that does not declare the extension is refused the
 * posting with -32021 and the capability it needs, and reads balances still; the posting's own scope
 * (`ledger:write`) is required with the step-up challenge, and only the account's owner (`ctx.auth.subject`) posts.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { createClient } from "../../src/client/mod.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import { accounts, audits, server } from "../../examples/extension/server.ts";
import { runLedgerClient } from "../../examples/extension/client.ts";
import { LEDGER } from "../../examples/extension/ledger.ts";
import { ROOT, run } from "../helpers/process.ts";

describe("examples/extension: the ledger extension, both sides", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(() => listener.close());

  it("declares, reads the ad, posts and hears the change, and tells the server it audited", async () => {
    accounts.set("alice", 100);
    const seen = await runLedgerClient(`${listener.url}/mcp`);
    assert.deepEqual(seen, {
      advertised: { currencies: ["EUR"] },
      before: 100,
      after: 105,
      changed: [{ account: "alice", balance: 105 }],
    });
    assert.equal(audits.at(-1), "alice");
  });

  for (const protocolVersion of ["2026-07-28", "2025-11-25"]) {
    it(`MCP ${protocolVersion}: refuses the posting to a client that did not declare the extension`, async () => {
      const client = createClient(`${listener.url}/mcp`, {
        transport: "mcp",
        protocolVersion,
        headers: { authorization: "Bearer bob-token" },
      });
      try {
        // The result as the server sent it: the handler's fields (and on 2026-07-28 MCP's own `_meta`, `resultType`).
        const { account, balance, currency } = await client.request(`${LEDGER}/balance`, { account: "bob" });
        assert.deepEqual({ account, balance, currency }, { account: "bob", balance: 20, currency: "EUR" });
        const refused = await client.request(`${LEDGER}/post`, { account: "bob", amount: 1 }).then(
          () => assert.fail("posted"),
          (error: unknown) => error,
        );
        assert.ok(refused instanceof McpliteError, String(refused));
        assert.equal(refused.code, "missing_capability");
        assert.equal(refused.rpcCode, -32021);
        assert.equal(accounts.get("bob"), 20, "nothing posted");
      } finally {
        await client.close();
      }
    });
  }

  it("posts for the account's owner only, holding the posting's scope", async () => {
    const as = (token: string) =>
      createClient(`${listener.url}/mcp`, {
        transport: "mcp",
        headers: { authorization: `Bearer ${token}` },
        extensions: { [LEDGER]: {} },
      });
    const bob = as("bob-token");
    const auditor = as("auditor-token");
    try {
      const before = accounts.get("alice");
      const posting = { account: "alice", amount: 1_000 };
      const notOwner = await bob.request(`${LEDGER}/post`, posting).catch((error: McpliteError) => error);
      assert.equal((notOwner as McpliteError).code, "permission_denied");
      assert.match((notOwner as McpliteError).message, /Only the owner of alice posts to it/);
      const unscoped = await auditor.request(`${LEDGER}/post`, posting).catch((error: McpliteError) => error);
      assert.equal((unscoped as McpliteError).code, "permission_denied");
      assert.match((unscoped as McpliteError).message, /needs ledger:write/);
      assert.equal(accounts.get("alice"), before, "nothing posted");
      assert.equal(
        (await auditor.request<{ balance: number }>(`${LEDGER}/balance`, { account: "alice" })).balance,
        before,
      );
      // Over HTTP the missing scope is the step-up challenge a tool's `.scopes()` gives.
      const refused = await fetch(`${listener.url}/mcp-lite/v1/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer auditor-token" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: `${LEDGER}/post`, params: posting }),
      });
      assert.equal(refused.status, 403);
      assert.match(refused.headers.get("www-authenticate") ?? "", /error="insufficient_scope", scope="ledger:write"/);
      await refused.body?.cancel();
    } finally {
      await Promise.all([bob.close(), auditor.close()]);
    }
  });

  it("runs as written, a process of this runtime", async () => {
    const runtime = "Deno" in globalThis ? ["deno", ["run", "-A"]] : ["bun", ["run"]];
    const [name, args] = runtime as [string, string[]];
    const ran = await run(
      `${ROOT}node_modules/.bin/${name}`,
      [...args, "examples/extension/client.ts", `${listener.url}/mcp`],
      60_000,
      ROOT,
      { ...process.env },
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /after: 1\d\d/);
    assert.match(ran.stdout, /changed: \[/);
  });
});
