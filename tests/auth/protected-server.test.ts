/**
 * A server behind `jwtAuth()` (MCP 2025-11-25, Authorization; RFC 9728; RFC 6750; RFC 8707): its
 * metadata, the challenges on each wire, every way a token can be wrong, scopes per tool with step-up,
 * lists per scope set, `ctx.auth`, and promise tokens bound to their caller.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { base64url, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { createServer, defineTool } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { BASE, modernRequest, post, toolsCall } from "../helpers/request.ts";

const ISSUER = "https://auth.example.com";
const RESOURCE = BASE; // http://localhost: the origin covers every endpoint
const METADATA = `${BASE}/.well-known/oauth-protected-resource`;

const { publicKey, privateKey } = await generateKeyPair("ES256");
const other = await generateKeyPair("ES256");
const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };

interface Claims {
  iss?: string;
  aud?: string | string[];
  sub?: string;
  scope?: string;
  client_id?: string;
  exp?: number;
  nbf?: number;
}

/** Mints an access token; each field can be changed to make it wrong. */
async function mint(claims: Claims = {}, header: Record<string, unknown> = {}, key = privateKey): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const body = {
    iss: ISSUER,
    aud: RESOURCE,
    sub: "ada",
    client_id: "app",
    scope: "docs:read",
    exp: now + 300,
    ...claims,
  };
  return await new SignJWT(body as Record<string, unknown>)
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1", ...header })
    .setIssuedAt(now)
    .sign(key);
}

const seen: unknown[] = [];
const server = createServer({
  name: "docs",
  version: "1.0.0",
  auth: jwtAuth({
    issuer: ISSUER,
    resource: RESOURCE,
    jwks: { keys: [jwk] },
    scopesSupported: ["docs:read", "docs:write"],
  }),
  bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding()],
  logger: false, // another client's promise token on purpose: no error line
})
  .tool(
    defineTool("read_doc").input(v.object({ id: v.string() })).handle(({ id }, ctx) => {
      seen.push(ctx.auth);
      return `doc ${id}`;
    }),
  )
  .tool(
    defineTool("delete_doc").scopes("docs:write").input(v.object({ id: v.string() })).handle(({ id }) =>
      `deleted ${id}`
    ),
  )
  .tool(defineTool("later").longRunning().handle((_args, ctx) => ctx.defer(() => "done")));

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const liteCall = (name: string, args: unknown, headers: Record<string, string> = {}) =>
  server.fetch(post("/mcp-lite/v1/calltools", toolsCall(name, args), headers));

describe("protected resource metadata (RFC 9728)", () => {
  it("is served at the root and at each endpoint's path-suffixed form, publicly and cacheably", async () => {
    for (const path of ["", "/mcp", "/mcp-lite/v1/calltools", "/webtools"]) {
      const response = await server.fetch(new Request(METADATA + path));
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get("cache-control") ?? "", /public/);
      assert.deepEqual(await response.json(), {
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ["header"],
        scopes_supported: ["docs:read", "docs:write"],
      });
    }
    assert.equal((await server.fetch(new Request(METADATA, { method: "POST" }))).status, 405);
  });
});

describe("challenges on every wire", () => {
  const cases: [string, () => Request][] = [
    ["MCP 2026-07-28", () => modernRequest("tools/call", { name: "read_doc", arguments: { id: "1" } })],
    [
      "MCP 2025",
      () =>
        post("/mcp", toolsCall("read_doc", { id: "1" }), {
          "mcp-protocol-version": "2025-06-18",
          accept: "application/json, text/event-stream",
        }),
    ],
    ["MCP-lite", () => post("/mcp-lite/v1/calltools", toolsCall("read_doc", { id: "1" }))],
    ["Webtools", () => post("/webtools/", { action: "read_doc", request: { id: "1" } })],
    ["Connect", () => post("/mcplite.MCPLite/CallTool", { name: "read_doc", arguments: { id: "1" } })],
  ];
  for (const [wire, request] of cases) {
    it(`${wire}: no token → 401 pointing at the metadata, in the wire's own error shape`, async () => {
      const response = await server.fetch(request());
      assert.equal(response.status, 401);
      const path = new URL(request().url).pathname;
      assert.equal(response.headers.get("www-authenticate"), `Bearer resource_metadata="${METADATA}${path}"`);
      const body = await response.json();
      if (wire.startsWith("MCP")) assert.equal(body.error.code, -32001);
      if (wire === "Connect") assert.equal(body.code, "unauthenticated");
    });
  }

  it("a valid token reaches the handler as ctx.auth (subject, client, scopes, claims, token)", async () => {
    const token = await mint();
    seen.length = 0;
    const response = await liteCall("read_doc", { id: "7" }, bearer(token));
    assert.equal(response.status, 200);
    const caller = seen[0] as Record<string, unknown>;
    assert.equal(caller.subject, "ada");
    assert.equal(caller.clientId, "app");
    assert.deepEqual(caller.scopes, ["docs:read"]);
    assert.equal((caller.claims as Record<string, unknown>).iss, ISSUER);
    assert.equal(caller.token, token);
  });
});

describe("tokens that must be refused (401 invalid_token, and the server keeps serving)", () => {
  // The clock read when each token is minted, in the test: a runner may load the file minutes before running it.
  const now = () => Math.floor(Date.now() / 1000);
  const hmacWithPublicKey = async () => {
    // Algorithm confusion: an HS256 signature keyed with the public key's bytes.
    const secret = new TextEncoder().encode(JSON.stringify(jwk));
    return await new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "eve", scope: "docs:write", exp: now() + 300 })
      .setProtectedHeader({ alg: "HS256", kid: "k1" }).sign(secret);
  };
  const algNone = () => {
    const part = (value: unknown) => base64url.encode(JSON.stringify(value));
    return `${part({ alg: "none", typ: "at+jwt" })}.${
      part({ iss: ISSUER, aud: RESOURCE, sub: "eve", exp: now() + 300 })
    }.`;
  };
  const cases: [string, () => Promise<string> | string, RegExp][] = [
    ["expired", () => mint({ exp: now() - 120 }), /expired/],
    ["expired within the 60 s skew is accepted", () => mint({ exp: now() - 30 }), /^ok$/],
    ["not yet valid", () => mint({ nbf: now() + 600 }), /not valid yet/],
    ["for another resource", () => mint({ aud: "https://other.example.com" }), /not issued for this resource/],
    ["from another issuer", () => mint({ iss: "https://evil.example.com" }), /unexpected issuer/],
    ["with a bad signature", () => mint({}, {}, other.privateKey), /signature is invalid/],
    ["with an unknown kid", () => mint({}, { kid: "k9" }), /unknown key/],
    ["signed with alg none", algNone, /malformed|not accepted/],
    ["HMAC-signed with the public key", hmacWithPublicKey, /not accepted/],
    ["not a JWT at all", () => "abc.def", /malformed/],
    ["of the wrong type (an ID token)", () => mint({}, { typ: "JWT+id" }), /not an access token/],
  ];
  for (const [name, token, reason] of cases) {
    it(name, async () => {
      const response = await liteCall("read_doc", { id: "1" }, bearer(await token()));
      if (reason.source === "^ok$") return assert.equal(response.status, 200);
      assert.equal(response.status, 401);
      const challenge = response.headers.get("www-authenticate") ?? "";
      assert.match(challenge, /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/);
      assert.match(challenge, reason);
      const body = await response.json();
      assert.equal(body.error.code, -32001);
      assert.ok(!JSON.stringify(body).includes(await token()), "the token never appears in the answer");
      assert.equal((await liteCall("read_doc", { id: "1" }, bearer(await mint()))).status, 200);
    });
  }

  it("a token in the query string is never read", async () => {
    const token = await mint();
    const response = await server.fetch(
      post(`/mcp-lite/v1/calltools?access_token=${token}`, toolsCall("read_doc", { id: "1" })),
    );
    assert.equal(response.status, 401);
    assert.equal(
      response.headers.get("www-authenticate"),
      `Bearer resource_metadata="${METADATA}/mcp-lite/v1/calltools"`,
    );
  });

  it("an Authorization header that is not Bearer is invalid_token", async () => {
    const response = await liteCall("read_doc", { id: "1" }, { authorization: "Basic YWRhOnNlY3JldA==" });
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
  });
});

describe("scopes per tool", () => {
  it("a call without the tool's scope → 403 insufficient_scope naming it (step-up), on MCP and MCP-lite", async () => {
    const token = await mint({ scope: "docs:read" });
    const expected = `Bearer error="insufficient_scope", scope="docs:write", resource_metadata="${METADATA}`;
    const lite = await liteCall("delete_doc", { id: "1" }, bearer(token));
    assert.equal(lite.status, 403);
    assert.equal(lite.headers.get("www-authenticate"), `${expected}/mcp-lite/v1/calltools"`);
    const mcp = await server.fetch(
      modernRequest("tools/call", { name: "delete_doc", arguments: { id: "1" } }, 1, bearer(token)),
    );
    assert.equal(mcp.status, 403);
    assert.equal(mcp.headers.get("www-authenticate"), `${expected}/mcp"`);
    assert.equal((await mcp.json()).error.code, -32003);
    const granted = await liteCall("delete_doc", { id: "1" }, bearer(await mint({ scope: "docs:read docs:write" })));
    assert.equal(granted.status, 200);
    assert.equal((await granted.json()).result.content[0].text, "deleted 1");
  });

  it("lists show only what the token may call, cached privately per scope set", async () => {
    const names = async (scope: string) => {
      const response = await server.fetch(modernRequest("tools/list", {}, 1, bearer(await mint({ scope }))));
      const body = await response.json();
      assert.equal(body.result.cacheScope, "private");
      return { tools: body.result.tools.map((t: { name: string }) => t.name), etag: response.headers.get("etag") };
    };
    const reader = await names("docs:read");
    const writer = await names("docs:read docs:write");
    assert.deepEqual(reader.tools.includes("delete_doc"), false);
    assert.deepEqual(writer.tools.includes("delete_doc"), true);
    assert.notEqual(reader.etag, writer.etag);
    const lite =
      await (await server.fetch(post("/mcp-lite/v1/listtools", {}, bearer(await mint({ scope: "docs:read" }))))).json();
    assert.equal(lite.tools.some((t: { name: string }) => t.name === "delete_doc"), false);
  });
});

describe("state bound to the caller", () => {
  it("a promise token minted for one client is refused for another client of the same subject", async () => {
    const mine = bearer(await mint({ client_id: "app" }));
    const promised = await (await liteCall("later", {}, mine)).json();
    const token = promised.result._meta.promise_token;
    assert.equal(typeof token, "string");
    const theirs = await (await liteCall("redeem", { promise: token }, bearer(await mint({ client_id: "other" }))))
      .json();
    assert.ok(theirs.error !== undefined, JSON.stringify(theirs));
    const again = await (await liteCall("redeem", { promise: token }, mine)).json();
    assert.equal(again.error, undefined, JSON.stringify(again));
  });
});
