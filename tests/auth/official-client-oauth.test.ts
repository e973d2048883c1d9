/**
 * The official TypeScript clients with their OAuth support (`@modelcontextprotocol/sdk` 1.32 on MCP 2025,
 * `@modelcontextprotocol/client` 2.4 on MCP 2026-07-28) against our server behind `jwtAuth()` and a
 * real authorization server (npm `oidc-provider`): discovery from our 401 challenge (RFC 9728 §5.1),
 * Protected Resource Metadata, authorization server metadata, dynamic client registration (RFC 7591),
 * authorization with PKCE S256 and a resource indicator (RFC 8707), the token, the call; then a 403
 * `insufficient_scope` and the client's step-up (MCP 2025-11-25, Authorization, Scope Challenge
 * Handling). The browser is a headless user agent that logs in and consents.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { decodeJwt } from "jose";
import { Client } from "@modelcontextprotocol/sdk/client";
import {
  Client as ClientV2,
  type OAuthClientProvider,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
} from "@modelcontextprotocol/client";
import type { AuthInfo } from "../../src/core/call/call-context.ts";
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
  /** Every parameter the last authorization sent back to the redirect URI. */
  callback: URLSearchParams | undefined;
  #state = "";
  #client: Json | undefined;
  #tokens: Json | undefined;
  #verifier = "";
  #discovery: Json | undefined;

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
  saveDiscoveryState(state: Json): void {
    this.#discovery = state;
  }
  discoveryState(): Json | undefined {
    return this.#discovery;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizations.push(url);
    const { code, state, params } = await authorizeHeadlessly(url);
    assert.equal(state, this.#state, "the state came back unchanged");
    this.code = code;
    this.callback = params;
  }
}

let listener: Listener;
let as: AuthorizationServer;
let callers: AuthInfo[];
let stop: () => Promise<void>;

/** Starts our server and its authorization server, whose user first consents to reading only. */
async function start(): Promise<void> {
  let consentRound = 0;
  const consent = (requested: readonly string[]) =>
    consentRound++ === 0 ? requested.filter((scope) => scope === "docs:read") : requested;
  ({ listener, as, callers, close: stop } = await startProtectedServer(undefined, { consent }));
}

/** A fetch that records "METHOD /path" of each request (the order of the flow) and the MCP versions sent. */
function recordingFetch(requested: string[], versions = new Set<string>()): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    requested.push(`${request.method} ${new URL(request.url).pathname}`);
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && new URL(request.url).pathname === "/mcp") versions.add(version);
    return fetch(request);
  };
}

describe("the official v1 client's OAuth flow against oidc-provider", () => {
  before(start);
  after(async () => await stop?.());

  it("discovers, registers, authorizes, calls, and steps up on insufficient_scope", async () => {
    const oauth = new HeadlessOAuthProvider();
    const requested: string[] = [];
    const endpoint = new URL(`${listener.url}/mcp`);
    const transport = () =>
      new StreamableHTTPClientTransport(endpoint, { authProvider: oauth, fetch: recordingFetch(requested) });

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

describe("the official v2 client's OAuth flow against oidc-provider (MCP 2026-07-28)", () => {
  before(start);
  after(async () => await stop?.());

  it("discovers, registers, authorizes, calls, and steps up to the union of its scopes", async () => {
    const oauth = new HeadlessOAuthProvider();
    const requested: string[] = [];
    const versions = new Set<string>();
    const endpoint = new URL(`${listener.url}/mcp`);
    const transport = () =>
      new TransportV2(endpoint, {
        authProvider: oauth as unknown as OAuthClientProvider,
        fetch: recordingFetch(requested, versions),
      });
    const modern = () =>
      new ClientV2({ name: "v2", version: "2.4.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });

    const first = modern();
    await assert.rejects(first.connect(transport()), UnauthorizedErrorV2);
    assert.ok(requested.includes("GET /.well-known/oauth-protected-resource/mcp"), requested.join(", "));
    assert.ok(requested.includes("POST /reg"), requested.join(", "));
    const authorization = oauth.authorizations[0];
    assert.equal(authorization.searchParams.get("resource"), listener.url);
    assert.equal(authorization.searchParams.get("code_challenge_method"), "S256");

    // The redirect's parameters, `iss` included (RFC 9207), go to finishAuth.
    const exchanging = transport();
    await exchanging.finishAuth(oauth.callback!);
    assert.equal(decodeJwt(String(oauth.tokens()?.access_token)).scope, "docs:read");
    const client = modern();
    await client.connect(transport());
    callers.length = 0;
    const read = await client.callTool({ name: "read_doc", arguments: { id: "1" } });
    assert.deepEqual(read.content, [{ type: "text", text: "doc 1" }]);
    assert.equal(callers[0].subject, as.user);

    await assert.rejects(client.callTool({ name: "write_doc", arguments: { id: "2" } }), UnauthorizedErrorV2);
    assert.equal(oauth.authorizations.length, 2);
    assert.equal(
      oauth.authorizations[1].searchParams.get("scope"),
      "docs:read docs:write",
      "what it held and what the challenge named (SEP-2350)",
    );
    await exchanging.finishAuth(oauth.callback!);
    const wrote = await client.callTool({ name: "write_doc", arguments: { id: "2" } });
    assert.deepEqual(wrote.content, [{ type: "text", text: "wrote 2" }]);
    const again = await client.callTool({ name: "read_doc", arguments: { id: "3" } });
    assert.deepEqual(again.content, [{ type: "text", text: "doc 3" }], "reading still works");
    assert.deepEqual([...versions], ["2026-07-28"], "every MCP request on the 2026-07-28 wire");
    await client.close();
  });
});
