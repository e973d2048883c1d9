/**
 * `authorizationServer()`: the authorization server of MCP servers that accept enterprise-managed
 * authorization (ID-JAGs, SEP-990) and workload identity federation (SEP-1933): its metadata (RFC 8414),
 * its token endpoint (RFC 6749 §3.2, RFC 7523), its JWK Set, as one fetch handler, and the authorization
 * endpoint its metadata names, which refuses every request (as-metadata.ts says why it is named).
 *
 * @module
 */
import { memoryStart } from "../server/dpop-epoch.ts";
import { configOf } from "./server-config.ts";
import { metadataOf, metadataPaths } from "./as-metadata.ts";
import type { AuthorizationServer, AuthorizationServerOptions } from "./options.ts";
import { checkSigningKeys, loadSigningKeys, type SigningKeys } from "./signing-keys.ts";
import { tokenDpop } from "./token-dpop.ts";
import { tokenEndpoint } from "./token-endpoint.ts";

/** What the authorization endpoint answers: no response type is served (`response_types_supported` is empty). */
const NO_BROWSER_FLOW = "this authorization server has no browser flow: redeem an ID-JAG or a workload's JWT at its " +
  "token endpoint (RFC 7523), or use client credentials";

/** Public documents: cached a while, readable by browser clients on any origin. */
const PUBLIC_JSON = Object.freeze({
  "content-type": "application/json",
  "cache-control": "public, max-age=300",
  "access-control-allow-origin": "*",
});

/**
 * Creates an authorization server: it redeems ID-JAGs from the enterprise IdPs it trusts and workload JWTs
 * from the platforms it trusts for short-lived JWT access tokens (RFC 9068) for its resources, bound to
 * the client's DPoP key when it sends a proof (RFC 9449). Give the resources' `jwtAuth()` its issuer and
 * `jwksUri` (`<issuer>/jwks`), and they take its tokens.
 *
 * @param options The issuer, the resources, the trusted issuers, the clients, the keys, the store.
 * @returns The server: its issuer, its metadata and its `fetch` handler.
 * @throws {TypeError} For a missing or contradictory option.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportJWK, generateKeyPair, SignJWT } from "jose";
 * import { authorizationServer } from "./authorization-server.ts";
 *
 * // The enterprise IdP's key (its JWKS would be at its jwks_uri).
 * const idp = await generateKeyPair("ES256");
 * const as = authorizationServer({
 *   issuer: "https://auth.example.com",
 *   resources: { "https://mcp.example.com/mcp": { scopes: ["docs:read"] } },
 *   trustedIssuers: [{
 *     issuer: "https://idp.example.com",
 *     jwks: { keys: [{ ...(await exportJWK(idp.publicKey)), alg: "ES256" }] },
 *     accepts: ["id-jag"],
 *   }],
 *   clients: { "mcp-desktop": { secret: "s3cret" } },
 * });
 * // The ID-JAG the IdP issued to the client by token exchange (RFC 8693).
 * const idJag = await new SignJWT({ client_id: "mcp-desktop", resource: "https://mcp.example.com/mcp", scope: "docs:read" })
 *   .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt" }).setIssuer("https://idp.example.com")
 *   .setAudience("https://auth.example.com").setSubject("ada").setJti(crypto.randomUUID())
 *   .setIssuedAt().setExpirationTime("5m").sign(idp.privateKey);
 * const redeem = () =>
 *   as.fetch(new Request("https://auth.example.com/token", {
 *     method: "POST",
 *     headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa("mcp-desktop:s3cret")}` },
 *     body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: idJag }),
 *   }));
 * const answer = await redeem();
 * assert.equal(answer.status, 200);
 * const { token_type, scope } = await answer.json();
 * assert.deepEqual([token_type, scope], ["Bearer", "docs:read"]);
 * // An ID-JAG is redeemed once.
 * assert.equal((await (await redeem()).json()).error, "invalid_grant");
 * ```
 */
export function authorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const config = configOf(options);
  checkSigningKeys(options.signingKeys);
  const dpop = tokenDpop(config, options.dpopNonce === true);
  const metadata = metadataOf(config, dpop.algorithms);
  const metadataBody = JSON.stringify(metadata);
  let loading: Promise<SigningKeys> | undefined;
  const keys = (): Promise<SigningKeys> =>
    loading ??= loadSigningKeys(options.signingKeys).catch((error) => {
      loading = undefined; // a later request tries again
      throw error;
    });
  // The store's memory of used assertions begins now (unless it began before): replay.ts.
  memoryStart(config.store).catch(() => {});
  const base = new URL(config.issuer).pathname.replace(/\/$/, "");
  const documents = new Set(metadataPaths(config.issuer));
  const parts = { config, dpop, keys };
  return Object.freeze({
    issuer: config.issuer,
    metadata,
    async fetch(request: Request): Promise<Response> {
      const path = new URL(request.url).pathname;
      if (path === `${base}/token`) return await tokenEndpoint(request, parts);
      if (path === `${base}/authorize`) {
        // RFC 6749 §4.1.2.1: no client has a redirection URI here, so the refusal is answered, not redirected.
        return refusal(400, "unsupported_response_type", NO_BROWSER_FLOW);
      }
      const read = request.method === "GET" || request.method === "HEAD";
      if (documents.has(path) || path === `${base}/jwks`) {
        if (!read) return refusal(405, "method_not_allowed", "use GET");
        const body = documents.has(path) ? metadataBody : JSON.stringify((await keys()).jwks);
        return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: PUBLIC_JSON });
      }
      return refusal(404, "not_found", `no endpoint at ${path}`);
    },
  });
}

function refusal(status: number, error: string, description: string): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      ...(status === 405 ? { allow: "GET, HEAD" } : {}),
    },
  });
}
