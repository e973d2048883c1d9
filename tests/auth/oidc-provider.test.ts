/**
 * Our server behind `jwtAuth()` with a real authorization server: npm `oidc-provider` (a certified
 * OpenID provider) on 127.0.0.1, issuing JWT access tokens (RFC 9068) bound to our resource (RFC 8707),
 * by the client-credentials grant and by the authorization-code grant with PKCE S256 driven headlessly
 * through its interaction endpoints. Every wire accepts them over a real socket, and refuses what the
 * token does not grant (MCP 2025-11-25, Authorization).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { base64url, decodeJwt } from "jose";
import { mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import type { AuthInfo } from "../../src/core/call/call-context.ts";
import type { Listener } from "../../src/types.ts";
import {
  APP_CLIENT,
  type AuthorizationServer,
  authorizeHeadlessly,
  clientCredentialsToken,
  SERVICE_CLIENT,
} from "../helpers/authorization-server.ts";
import { startProtectedServer } from "../helpers/protected-server.ts";
import { modernRequest, post, toolsCall } from "../helpers/request.ts";

let listener: Listener;
let as: AuthorizationServer;
let resource: string;
let callers: AuthInfo[];
let stop: () => Promise<void>;

before(async () => {
  const started = await startProtectedServer([mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding()]);
  ({ listener, as, resource, callers, close: stop } = started);
});
after(async () => await stop?.());

/** A token from the client-credentials grant for our resource (or for none). */
const serviceToken = (scope: string, withResource = true) =>
  clientCredentialsToken(as, scope, withResource ? resource : undefined);

/** The same request, sent to the listening server. */
function live(request: Request): Request {
  const url = new URL(request.url);
  return new Request(listener.url + url.pathname + url.search, request);
}

const wires: [string, (tool: string, headers: Record<string, string>) => Request][] = [
  ["MCP 2026-07-28", (tool, h) => modernRequest("tools/call", { name: tool, arguments: { id: "1" } }, 1, h)],
  [
    "MCP 2025",
    (tool, h) =>
      post("/mcp", toolsCall(tool, { id: "1" }), {
        "mcp-protocol-version": "2025-06-18",
        accept: "application/json, text/event-stream",
        ...h,
      }),
  ],
  ["MCP-lite", (tool, h) => post("/mcp-lite/v1/calltools", toolsCall(tool, { id: "1" }), h)],
  ["Webtools", (tool, h) => post("/webtools/", { action: tool, request: { id: "1" } }, h)],
  ["Connect", (tool, h) => post("/mcplite.MCPLite/CallTool", { name: tool, arguments: { id: "1" } }, h)],
];

describe("oidc-provider's tokens from the client-credentials grant", () => {
  it("are JWT access tokens bound to our resource, signed with the issuer's key", async () => {
    const token = await serviceToken("docs:read");
    const claims = decodeJwt(token);
    assert.equal(claims.iss, as.issuer);
    assert.equal(claims.aud, resource);
    assert.equal(claims.client_id, SERVICE_CLIENT.id);
    assert.equal(claims.scope, "docs:read");
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0])));
    assert.deepEqual([header.typ, header.alg], ["at+jwt", "ES256"]);
  });

  for (const [wire, request] of wires) {
    it(`${wire}: are accepted, reach the handler as ctx.auth, and do not grant docs:write`, async () => {
      const token = await serviceToken("docs:read");
      callers.length = 0;
      const ok = await fetch(live(request("read_doc", { authorization: `Bearer ${token}` })));
      const text = await ok.text();
      assert.equal(ok.status, 200, text);
      assert.match(text, /doc 1/);
      assert.equal(callers.length, 1);
      assert.equal(callers[0].subject, SERVICE_CLIENT.id);
      assert.equal(callers[0].clientId, SERVICE_CLIENT.id);
      assert.deepEqual(callers[0].scopes, ["docs:read"]);

      const refused = await fetch(live(request("write_doc", { authorization: `Bearer ${token}` })));
      await refused.body?.cancel();
      assert.equal(refused.status, 403);
      const path = new URL(request("write_doc", {}).url).pathname;
      assert.equal(
        refused.headers.get("www-authenticate"),
        `Bearer error="insufficient_scope", scope="docs:write", resource_metadata="${resource}/.well-known/oauth-protected-resource${path}"`,
      );

      const writer = await serviceToken("docs:read docs:write");
      const wrote = await fetch(live(request("write_doc", { authorization: `Bearer ${writer}` })));
      const wroteText = await wrote.text();
      assert.equal(wrote.status, 200, wroteText);
      assert.match(wroteText, /wrote 1/);
    });
  }

  it("a token issued without a resource indicator (oidc-provider makes it opaque) is refused", async () => {
    const opaque = await serviceToken("docs:read", false);
    assert.equal(opaque.split(".").length, 1, "not a JWT");
    const response = await fetch(live(post("/mcp-lite/v1/calltools", toolsCall("read_doc", { id: "1" }), {
      authorization: `Bearer ${opaque}`,
    })));
    await response.body?.cancel();
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer error="invalid_token"/);
  });

  it("the authorization server refuses to issue a token for another resource (RFC 8707 invalid_target)", async () => {
    const response = await fetch(as.tokenEndpoint, {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`${SERVICE_CLIENT.id}:${SERVICE_CLIENT.secret}`)}` },
      body: new URLSearchParams({ grant_type: "client_credentials", scope: "docs:read", resource: "https://x.test/" }),
    });
    assert.equal(response.status, 400);
    assert.equal((await response.json()).error, "invalid_target");
  });
});

describe("the authorization-code grant with PKCE S256, driven headlessly", () => {
  it("issues a token for the user that our server accepts, with the user as ctx.auth.subject", async () => {
    const verifier = base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
    const challenge = base64url.encode(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
    );
    const url = new URL(as.authorizationEndpoint);
    const state = crypto.randomUUID();
    url.search = new URLSearchParams({
      client_id: APP_CLIENT.id,
      response_type: "code",
      redirect_uri: APP_CLIENT.redirectUri,
      scope: "docs:read",
      resource,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
    }).toString();
    const { code, state: returned } = await authorizeHeadlessly(url, as.user);
    assert.equal(returned, state);

    const exchange = (codeVerifier: string) =>
      fetch(as.tokenEndpoint, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "authorization_code",
          client_id: APP_CLIENT.id,
          code,
          redirect_uri: APP_CLIENT.redirectUri,
          code_verifier: codeVerifier,
          resource,
        }),
        signal: AbortSignal.timeout(5000),
      });
    const wrongVerifier = await exchange(base64url.encode(crypto.getRandomValues(new Uint8Array(32))));
    assert.equal((await wrongVerifier.json()).error, "invalid_grant", "PKCE is enforced");
    // A code is single-use: the failed attempt above consumed it, so start again.
    const second = await authorizeHeadlessly(url, as.user);
    const tokenResponse = await fetch(as.tokenEndpoint, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: APP_CLIENT.id,
        code: second.code,
        redirect_uri: APP_CLIENT.redirectUri,
        code_verifier: verifier,
        resource,
      }),
      signal: AbortSignal.timeout(5000),
    });
    const tokens = await tokenResponse.json();
    assert.equal(tokenResponse.status, 200, JSON.stringify(tokens));
    assert.equal(decodeJwt(tokens.access_token).aud, resource);

    callers.length = 0;
    const response = await fetch(live(modernRequest("tools/call", { name: "read_doc", arguments: { id: "9" } }, 1, {
      authorization: `Bearer ${tokens.access_token}`,
    })));
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.result.content[0].text, "doc 9");
    assert.equal(callers[0].subject, as.user);
    assert.equal(callers[0].clientId, APP_CLIENT.id);
    assert.deepEqual(callers[0].scopes, ["docs:read"]);
  });
});
