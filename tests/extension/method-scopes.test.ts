/**
 * An extension method's own scopes and its caller (SEP-2133 methods; MCP 2025-11-25, Authorization, Scope Challenge
 * Handling; RFC 6750 §3.1): `.method(name, schema, handler, { scopes })` refuses a caller without them with the
 * refusal a tool's `.scopes()` gets — 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` on
 * every HTTP wire that serves extension methods (MCP 2026-07-28 and 2025-11-25, MCP-lite's JSON-RPC endpoint,
 * Connect's `CallMethod` on fetch), `PERMISSION_DENIED` with the challenge on `serveGrpc()`, -32003 on a WebSocket —
 * before its params are read; and the handler sees the caller as `ctx.auth`, as a tool's handler does.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code } from "@connectrpc/connect";
import * as v from "valibot";
import { createServer, defineExtension, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { bearer, METADATA, opaqueAuth } from "../helpers/opaque-auth.ts";
import { legacyRequest, modernRequest, post } from "../helpers/request.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";
import { errorCodeOf } from "../helpers/error-code.ts";
import { createClient } from "../../src/client/mod.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";

const LEDGER = "org.example/ledger";
const PURGE = `${LEDGER}/purge`;

const ledger = defineExtension(LEDGER)
  .method(
    PURGE,
    v.object({ account: v.string() }),
    ({ account }, ctx) => ({ account, by: ctx.auth?.subject ?? null }),
    { scopes: ["docs:admin"] },
  )
  .method(`${LEDGER}/whoami`, v.object({}), (_params, ctx) => ({ subject: ctx.auth?.subject ?? null }));

const server = createServer({
  name: "bank",
  version: "1.0.0",
  auth: opaqueAuth(),
  bindings: [mcpBinding(), mcpLiteBinding(), grpcBinding(), webSocketBinding()],
}).extension(ledger);

const stepUp = (path: string) =>
  `Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="${METADATA}${path}"`;

const rpc = (method: string, params: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method, params });

describe("an extension method's scopes, on every HTTP wire that serves it", () => {
  const wires: [string, (token: string, params: Record<string, unknown>) => Request, string][] = [
    ["MCP 2026-07-28", (t, p) => modernRequest(PURGE, p, 1, bearer(t)), "/mcp"],
    ["MCP 2025-11-25", (t, p) => legacyRequest(PURGE, p, 1, "2025-11-25", bearer(t)), "/mcp"],
    ["MCP-lite /rpc", (t, p) => post("/mcp-lite/v1/rpc", rpc(PURGE, p), bearer(t)), "/mcp-lite/v1/rpc"],
    [
      "Connect CallMethod",
      (t, p) => post("/mcplite.MCPLite/CallMethod", { method: PURGE, params: p }, bearer(t)),
      "/mcplite.MCPLite/CallMethod",
    ],
  ];
  for (const [wire, request, path] of wires) {
    it(`${wire}: 403 with the step-up challenge, before the params are read; the admin's call runs as the admin`, async () => {
      for (const params of [{ account: "a1" }, {}]) { // bad params too: the scope is checked first
        const refused = await server.fetch(request("reader", params));
        assert.equal(refused.status, 403);
        assert.equal(refused.headers.get("www-authenticate"), stepUp(path));
        assert.match(
          await refused.text(),
          /Insufficient scope: extension method \W+org\.example\/ledger\/purge\W+ needs docs:admin/,
        );
      }
      const granted = await server.fetch(request("admin", { account: "a1" }));
      assert.equal(granted.status, 200);
      assert.equal(granted.headers.get("www-authenticate"), null);
      assert.match(await granted.text(), /"account":\s*"a1",\s*"by":\s*"admin"/);
    });
  }

  it("a method without scopes is open to any caller, and sees it", async () => {
    const answer = await server.fetch(post("/mcp-lite/v1/rpc", rpc(`${LEDGER}/whoami`, {}), bearer("stranger")));
    assert.deepEqual((await answer.json()).result, { subject: "stranger" });
  });
});

describe("an extension method's scopes on serveGrpc()", () => {
  const served = grpcListener(server);
  for (const kind of ["gRPC", "Connect"] as const) {
    it(`${kind}: PERMISSION_DENIED with the challenge; the admin's call runs as the admin`, async () => {
      const client = served.client(kind);
      const refused = await rejection(
        client.callMethod({ method: PURGE, params: { account: "a1" } }, { headers: bearer("reader") }),
      );
      assert.equal(refused.code, Code.PermissionDenied);
      assert.equal(refused.metadata.get("www-authenticate"), stepUp("/mcplite.MCPLite/CallMethod"));
      const granted = await client.callMethod({ method: PURGE, params: { account: "a1" } }, {
        headers: bearer("admin"),
      });
      assert.deepEqual(granted.result, { account: "a1", by: "admin" });
    });
  }
});

describe("an extension method's scopes on a WebSocket", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(() => listener.close());

  it("refuses the reader (permission_denied) and runs the admin's call as the admin", async () => {
    const url = `${listener.url.replace(/^http/, "ws")}/mcp-lite/v1/ws`;
    for (const [token, expected] of [["reader", "permission_denied"], ["admin", "admin"]] as const) {
      const client = createClient(createWebSocketTransport(url, { token }));
      try {
        const answer = client.request<{ by: string }>(PURGE, { account: "a1" });
        if (expected === "admin") assert.equal((await answer).by, "admin");
        else assert.equal(await errorCodeOf(answer), expected);
      } finally {
        await client.close();
      }
    }
  });
});

describe("an extension method's caller set by request middleware", () => {
  it("is ctx.auth, and what its scopes are checked against, on MCP and MCP-lite", async () => {
    let as: { subject: string; scopes: string[] } | undefined;
    const open = createServer({ name: "bank", version: "1.0.0", bindings: [mcpBinding(), mcpLiteBinding()] })
      .use(async (call, next) => {
        call.ctx.auth = as;
        return await next();
      })
      .extension(ledger);
    for (
      const [wire, request] of [
        ["MCP", () => modernRequest(PURGE, { account: "a1" })],
        ["MCP-lite", () => post("/mcp-lite/v1/rpc", rpc(PURGE, { account: "a1" }))],
      ] as const
    ) {
      as = { subject: "teller", scopes: [] };
      assert.equal((await open.fetch(request())).status, 403, wire);
      as = { subject: "auditor", scopes: ["docs:admin"] };
      assert.match(await (await open.fetch(request())).text(), /"by":\s*"auditor"/, wire);
    }
  });
});
