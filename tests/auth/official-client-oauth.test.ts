/**
 * The official TypeScript SDK's client (`@modelcontextprotocol/sdk` 1.32) with its OAuth support,
 * against our server behind `jwtAuth()` and a real authorization server (npm `oidc-provider`): discovery
 * from our 401 challenge (RFC 9728 §5.1), Protected Resource Metadata, authorization server metadata,
 * dynamic client registration (RFC 7591), authorization with PKCE S256 and a resource indicator
 * (RFC 8707), the token, the call; then a 403 `insufficient_scope` and the client's step-up (MCP
 * 2025-11-25, Authorization, Scope Challenge Handling). The browser is a headless user agent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { decodeJwt } from "jose";
import { Client } from "@modelcontextprotocol/sdk/client";
import type { AuthInfo } from "../../src/core/call-context.ts";
import type { Listener } from "../../src/types.ts";
import { type AuthorizationServer, authorizeHeadlessly } from "../helpers/authorization-server.ts";
import { startProtectedServer } from "../helpers/protected-server.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load these by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
type Transport = Parameters<Client["connect"]>[0] & { finishAuth(code: string): Promise<void> };
const { StreamableHTTPClientTransport } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (
    url: URL,
    options: { authProvider: HeadlessOAuthProvider; fetch: typeof fetch },
  ) => Transport;
};
const { UnauthorizedError } = await import(`${V1}/client/auth.js`) as {
  UnauthorizedError: new (...args: never[]) => Error;
};

type Json = Record<string, unknown>;

/**
 * The SDK's `OAuthClientProvider`, headless: it keeps what the SDK saves in memory, and "opens" the
 * authorization URL with a user agent that logs in and consents, keeping the code for `finishAuth`.
 */
class HeadlessOAuthProvider {
  readonly redirectUrl = "http://127.0.0.1/callback";
  readonly clientMetadata = {
    client_name: "headless test client",
    redirect_uris: [this.redirectUrl],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  /** The authorization URLs the SDK sent the user to. */
  readonly authorizations: URL[] = [];
  /** The code the last authorization returned. */
  code: string | undefined;
  #state = "";
  #client: Json | undefined;
  #tokens: Json | undefined;
  #verifier = "";

  state(): string {
    return this.#state = crypto.randomUUID();
  }
  clientInformation(): Json | undefined {
    return this.#client;
  }
  saveClientInformation(info: Json): void {
    this.#client = info;
  }
  tokens(): Json | undefined {
    return this.#tokens;
  }
  saveTokens(tokens: Json): void {
    this.#tokens = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    return this.#verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizations.push(url);
    const { code, state } = await authorizeHeadlessly(url);
    assert.equal(state, this.#state, "the state came back unchanged");
    this.code = code;
  }
}

let listener: Listener;
let as: AuthorizationServer;
let callers: AuthInfo[];
let stop: () => Promise<void>;

before(async () => {
  let consentRound = 0;
  // The user first consents to reading only; later, to whatever is asked.
  const consent = (requested: readonly string[]) =>
    consentRound++ === 0 ? requested.filter((scope) => scope === "docs:read") : requested;
  ({ listener, as, callers, close: stop } = await startProtectedServer(undefined, { consent }));
});
after(async () => await stop?.());

describe("the official v1 client's OAuth flow against oidc-provider", () => {
  it("discovers, registers, authorizes, calls, and steps up on insufficient_scope", async () => {
    const oauth = new HeadlessOAuthProvider();
    const requested: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      requested.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    };
    const endpoint = new URL(`${listener.url}/mcp`);
    const transport = () => new StreamableHTTPClientTransport(endpoint, { authProvider: oauth, fetch: recording });

    // 1. No token: our 401 challenge starts the flow; the SDK registers, sends the user to authorize,
    //    and stops (a browser would come back to the redirect URI): UnauthorizedError.
    const first = new Client({ name: "v1", version: "1.32.2" });
    await assert.rejects(first.connect(transport()), UnauthorizedError);
    assert.deepEqual(requested, [
      "POST /mcp", // 401 Bearer resource_metadata=".../.well-known/oauth-protected-resource/mcp"
      "GET /.well-known/oauth-protected-resource/mcp", // our metadata: resource, authorization_servers
      "GET /.well-known/oauth-authorization-server", // oidc-provider's metadata (RFC 8414)
      "POST /reg", // dynamic client registration (RFC 7591)
    ]);
    const authorization = oauth.authorizations[0];
    assert.equal(authorization.origin, as.issuer);
    assert.equal(authorization.searchParams.get("resource"), listener.url);
    assert.equal(authorization.searchParams.get("code_challenge_method"), "S256");
    assert.equal(authorization.searchParams.get("scope"), "docs:read docs:write", "from our metadata");

    // 2. The code comes back: the SDK exchanges it (PKCE verifier, resource) and connects.
    const exchanging = transport();
    await exchanging.finishAuth(oauth.code!);
    const token = decodeJwt(String(oauth.tokens()?.access_token));
    assert.equal(token.aud, listener.url);
    assert.equal(token.scope, "docs:read", "the user consented to reading only");
    const client = new Client({ name: "v1", version: "1.32.2" });
    await client.connect(transport());
    callers.length = 0;
    const read = await client.callTool({ name: "read_doc", arguments: { id: "1" } });
    assert.deepEqual(read.content, [{ type: "text", text: "doc 1" }]);
    assert.equal(callers[0].subject, as.user);
    assert.equal(callers[0].clientId, oauth.clientInformation()?.client_id);
    const listed = await client.listTools();
    assert.deepEqual(listed.tools.map((tool) => tool.name), ["read_doc"], "the list shows what the token may call");

    // 3. A tool that needs docs:write: 403 insufficient_scope with scope="docs:write". The SDK steps up on
    //    its own — it sends the user to authorize exactly that scope — and, as for the first
    //    authorization, stops with UnauthorizedError until the code is handed to finishAuth.
    await assert.rejects(client.callTool({ name: "write_doc", arguments: { id: "2" } }), UnauthorizedError);
    assert.equal(oauth.authorizations.length, 2);
    assert.equal(oauth.authorizations[1].searchParams.get("scope"), "docs:write", "the challenge's scope");
    assert.equal(oauth.authorizations[1].searchParams.get("resource"), listener.url);
    await exchanging.finishAuth(oauth.code!);
    // SDK 1.32 asks for the challenge's scope alone, not the union with what it held (which SEP-2350
    // asks of clients; servers name only what the operation needs, as ours does): reading is lost.
    assert.equal(decodeJwt(String(oauth.tokens()?.access_token)).scope, "docs:write");
    const wrote = await client.callTool({ name: "write_doc", arguments: { id: "2" } });
    assert.deepEqual(wrote.content, [{ type: "text", text: "wrote 2" }]);
    assert.equal(requested.filter((line) => line === "POST /reg").length, 1, "registered once");
    await client.close();
  });
});
