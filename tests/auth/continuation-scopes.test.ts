/**
 * A tool's scopes hold for the whole life of its call (MCP 2025-11-25, Authorization, Scope Challenge
 * Handling): a token of the same subject that lacks the scope — down-scoped, or re-issued after the
 * scope was revoked — cannot collect, continue or cancel a call the scoped token started, on any wire
 * that has continuations (the `redeem` tool on MCP-lite JSON, SSE and WebSocket, MCP 2025 and 2026,
 * gRPC and Webtools; MCP tasks; the OpenAPI promise URL). It gets the first call's refusal: 403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` (RFC 6750 §3.1) where HTTP carries
 * it, `permission_denied` with the needed scopes elsewhere. The continuation does not run, and the
 * scoped token still gets the result afterwards.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { protectedResource } from "../../src/auth/mod.ts";
import { Code, createClient } from "@connectrpc/connect";
import { grpcBinding, MCPLite } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { openapiBinding } from "../../src/bindings/openapi/mod.ts";
import { bearerProtocol, WEBSOCKET_PROTOCOL, webSocketBinding } from "../../src/websocket/mod.ts";
import type { Listener } from "../../src/server/serve.ts";
import { BASE, legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { readSse } from "../helpers/sse.ts";
import { TestSocket } from "../websocket/socket.ts";
import { inProcessTransport } from "../helpers/connect-in-process.ts";
import { readUntil } from "../helpers/wait.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const RESOURCE = "http://localhost";
const METADATA = `${RESOURCE}/.well-known/oauth-protected-resource`;
/** The scoped token and a token of the same subject and client without the scope. */
const ADMIN = "ada-admin";
const DOWNSCOPED = "ada";
const CONTENTS = "the vault's contents";
const TASKS = {
  _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } },
};

const auth = protectedResource({
  resource: RESOURCE,
  authorizationServers: ["https://auth.example.com"],
  scopesSupported: ["t:admin"],
  verify: (token) =>
    token === ADMIN
      ? { subject: "ada", clientId: "app", scopes: ["t:admin"] }
      : token === DOWNSCOPED
      ? { subject: "ada", clientId: "app", scopes: [] }
      : undefined,
});

const counts = { started: 0, redeemed: 0, cancelled: 0 };
const vault = defineTool("vault").describe("Opens the vault, later").scopes("t:admin")
  .handle((_args, ctx) => {
    counts.started++;
    return ctx.promise({ state: { door: 1 }, retryAfterMs: 5 });
  })
  .redeem(() => {
    counts.redeemed++;
    return CONTENTS;
  })
  .cancel(() => {
    counts.cancelled++;
  });
const vaultJob = defineTool("vault_job").describe("Opens the vault in the background").scopes("t:admin")
  .longRunning({ retryAfterMs: 5 })
  .handle((_args, ctx) => ctx.defer(() => Promise.resolve(CONTENTS)));

const server = createServer({
  name: "vault",
  version: "1.0.0",
  secret: "a test secret of thirty-two bytes or more",
  auth,
  bindings: [
    mcpBinding({ holdMs: 0 }),
    mcpLiteBinding({ holdMs: 0 }),
    webtoolsBinding(),
    grpcBinding(),
    openapiBinding({ base: "/api" }),
    webSocketBinding(),
  ],
}).tool(vault).tool(vaultJob);

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Asserts the step-up refusal of an HTTP answer: 403, the challenge for `t:admin`, nothing of the vault. */
async function assertStepUp(response: Response): Promise<void> {
  const body = await response.text();
  assert.equal(response.status, 403, body);
  assert.match(
    response.headers.get("www-authenticate") ?? "",
    new RegExp(`^Bearer error="insufficient_scope", scope="t:admin", resource_metadata="${METADATA}/`),
  );
  assert.doesNotMatch(body, /vault's contents/);
}

/** Runs a refused attempt and checks that no continuation or cancellation handler ran. */
async function refusedWithoutRunning(attempt: () => Promise<void>): Promise<void> {
  const before = { ...counts };
  await attempt();
  assert.deepEqual(counts, before, "the continuation did not run");
}

/** Polls (bounded) until `read` gives a text holding the vault's contents. */
async function collect(read: () => Promise<string>): Promise<void> {
  await readUntil(read, (text) => text.includes(CONTENTS), "the vault's contents", { timeoutMs: 5_000, everyMs: 10 });
}

const liteCall = (token: string, name: string, args?: unknown, headers: Record<string, string> = {}) =>
  server.fetch(post("/mcp-lite/v1/calltools", toolsCall(name, args), { ...bearer(token), ...headers }));

async function litePromise(name: string): Promise<string> {
  const body = await (await liteCall(ADMIN, name)).json();
  const token = body.result?._meta?.promise_token;
  assert.equal(typeof token, "string", JSON.stringify(body));
  return token;
}

describe("continuations require the scopes of the tool that issued them", () => {
  for (const name of ["vault", "vault_job"]) {
    it(`MCP-lite JSON: redeem of ${name} refused with the step-up challenge; the scoped token collects`, async () => {
      const promise = await litePromise(name);
      await refusedWithoutRunning(async () => await assertStepUp(await liteCall(DOWNSCOPED, "redeem", { promise })));
      await refusedWithoutRunning(async () =>
        await assertStepUp(await liteCall(DOWNSCOPED, "redeem", { promise, cancel: true }))
      );
      await collect(async () => await (await liteCall(ADMIN, "redeem", { promise })).text());
    });
  }

  it("MCP-lite SSE: 403 before the stream opens; the scoped token collects", async () => {
    const promise = await litePromise("vault");
    const sse = { accept: "text/event-stream" };
    await refusedWithoutRunning(async () => await assertStepUp(await liteCall(DOWNSCOPED, "redeem", { promise }, sse)));
    const granted = await liteCall(ADMIN, "redeem", { promise }, sse);
    assert.equal(granted.status, 200);
    assert.ok((await readSse(granted)).some((event) => event.data.includes(CONTENTS)));
  });

  it("MCP 2025-11-25: redeem through tools/call refused; the scoped token collects", async () => {
    const call = (token: string, name: string, args?: unknown) =>
      server.fetch(legacyRequest("tools/call", { name, arguments: args }, 1, "2025-11-25", bearer(token)));
    const started = await (await call(ADMIN, "vault", {})).json();
    const promise = started.result.structuredContent.promise;
    assert.equal(typeof promise, "string", JSON.stringify(started));
    await refusedWithoutRunning(async () => await assertStepUp(await call(DOWNSCOPED, "redeem", { promise })));
    await collect(async () => await (await call(ADMIN, "redeem", { promise })).text());
  });

  for (const name of ["vault", "vault_job"]) {
    it(`MCP 2026-07-28: tasks/get, tasks/update and tasks/cancel of ${name} refused; the scoped token collects`, async () => {
      const rpc = (token: string, method: string, params: Record<string, unknown>) =>
        server.fetch(modernRequest(method, { ...params, ...TASKS }, 1, bearer(token)));
      const started = await (await rpc(ADMIN, "tools/call", { name, arguments: {} })).json();
      const taskId = started.result.taskId;
      assert.equal(typeof taskId, "string", JSON.stringify(started));
      await refusedWithoutRunning(async () => {
        await assertStepUp(await rpc(DOWNSCOPED, "tasks/get", { taskId }));
        await assertStepUp(await rpc(DOWNSCOPED, "tasks/update", { taskId, inputResponses: {} }));
        await assertStepUp(await rpc(DOWNSCOPED, "tasks/cancel", { taskId }));
      });
      await collect(async () => await (await rpc(ADMIN, "tasks/get", { taskId })).text());
      const read = await (await rpc(ADMIN, "tasks/get", { taskId })).json();
      assert.equal(read.result.status, "completed", "the refused cancel cancelled nothing");
    });
  }

  it("MCP 2026-07-28 without tasks: redeem through tools/call refused", async () => {
    const call = (token: string, name: string, args: unknown) =>
      server.fetch(modernRequest("tools/call", { name, arguments: args }, 1, bearer(token)));
    const started = await (await call(ADMIN, "vault", {})).json();
    const promise = started.result.structuredContent.promise;
    assert.equal(typeof promise, "string", JSON.stringify(started));
    await refusedWithoutRunning(async () => await assertStepUp(await call(DOWNSCOPED, "redeem", { promise })));
    await collect(async () => await (await call(ADMIN, "redeem", { promise })).text());
  });

  it("Webtools: the redeem action refused; the scoped token collects", async () => {
    const run = (token: string, body: unknown) => server.fetch(post("/webtools/", body, bearer(token)));
    const started = await run(ADMIN, { action: "vault", request: {} });
    assert.equal(started.status, 202);
    const { promise } = await started.json();
    await refusedWithoutRunning(async () => await assertStepUp(await run(DOWNSCOPED, promise.redeem)));
    await collect(async () => await (await run(ADMIN, promise.redeem)).text());
  });

  it("gRPC (Connect over fetch): redeem refused as permission_denied with the challenge", async () => {
    const call = (token: string, body: unknown) => server.fetch(post("/mcplite.MCPLite/CallTool", body, bearer(token)));
    const started = await (await call(ADMIN, { name: "vault" })).json();
    const promise = started.meta?.promiseToken;
    assert.equal(typeof promise, "string", JSON.stringify(started));
    await refusedWithoutRunning(async () => {
      const refused = await call(DOWNSCOPED, { name: "redeem", arguments: { promise } });
      assert.equal(refused.headers.get("content-type"), "application/json");
      assert.equal((await refused.clone().json()).code, "permission_denied");
      await assertStepUp(refused);
    });
    await collect(async () => await (await call(ADMIN, { name: "redeem", arguments: { promise } })).text());
  });

  for (const [label, protocol, binary] of [["Connect", "connect", false], ["gRPC-Web", "grpc-web", true]] as const) {
    it(`gRPC (${label} client): PERMISSION_DENIED with the challenge in the metadata; the scoped token collects`, async () => {
      const client = createClient(MCPLite, inProcessTransport(server, protocol, binary));
      const started = await client.callTool({ name: "vault" }, { headers: bearer(ADMIN) });
      const promise = started.meta?.promiseToken;
      assert.equal(typeof promise, "string");
      const redeem = { name: "redeem", arguments: { promise: promise! } };
      await refusedWithoutRunning(async () => {
        const refused = await rejection(client.callTool(redeem, { headers: bearer(DOWNSCOPED) }));
        assert.equal(refused.code, Code.PermissionDenied);
        assert.match(
          refused.metadata.get("www-authenticate") ?? "",
          /^Bearer error="insufficient_scope", scope="t:admin", resource_metadata=/,
        );
      });
      const granted = await client.callTool(redeem, { headers: bearer(ADMIN) });
      assert.deepEqual(granted.result?.content, [{ type: "text", text: CONTENTS }]);
    });
  }

  it("OpenAPI: GET on the Location of the 202 refused; the scoped token collects", async () => {
    const started = await server.fetch(post("/api/tools/vault", {}, bearer(ADMIN)));
    assert.equal(started.status, 202);
    await started.body?.cancel();
    const location = started.headers.get("location")!;
    assert.match(location, /^\/api\/promises\//);
    const poll = (token: string) => server.fetch(new Request(BASE + location, { headers: bearer(token) }));
    await refusedWithoutRunning(async () => await assertStepUp(await poll(DOWNSCOPED)));
    await collect(async () => await (await poll(ADMIN)).text());
  });

  describe("MCP-lite over WebSocket (the caller is the upgrade's token)", () => {
    let listener: Listener;
    let url: string;
    before(async () => {
      listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
      url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
    });
    after(() => listener.close());

    it("redeem refused as permission_denied naming the scope; the scoped socket collects", async () => {
      const admin = await TestSocket.open(url, [WEBSOCKET_PROTOCOL, bearerProtocol(ADMIN)]);
      const downscoped = await TestSocket.open(url, [WEBSOCKET_PROTOCOL, bearerProtocol(DOWNSCOPED)]);
      try {
        admin.send(toolsCall("vault", {}, 1));
        const promise = (await admin.answer(1)).result._meta.promise_token;
        assert.equal(typeof promise, "string");
        await refusedWithoutRunning(async () => {
          downscoped.send(toolsCall("redeem", { promise }, 2));
          const refused = await downscoped.answer(2);
          assert.equal(refused.result, undefined, JSON.stringify(refused));
          assert.deepEqual(refused.error.data?.requiredScopes, ["t:admin"], JSON.stringify(refused));
        });
        admin.send(toolsCall("redeem", { promise }, 3));
        assert.match(JSON.stringify((await admin.answer(3)).result), /vault's contents/);
      } finally {
        await admin.close();
        await downscoped.close();
      }
    });
  });
});
