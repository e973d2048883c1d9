/**
 * `jwtAuth()`: verifies JWT access tokens (RFC 9068) for a server that is an OAuth 2.1 protected
 * resource (MCP 2025-11-25, Authorization, Token Validation), with `jose`.
 *
 * @module
 */
// jose documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import type { JSONWebKeySet } from "jose";
import { createLocalJWKSet, errors, jwtVerify } from "jose";
import type { AuthInfo } from "../core/call/call-context.ts";
import { ProtocolError } from "../errors/error.ts";
import type { ServerAuth } from "../server/auth.ts";
import { protectedResource } from "../server/auth-edge.ts";
import { issuerKeys, remoteKeys } from "./remote-keys.ts";
import { dpopPolicy } from "./dpop-proof.ts";

/** The asymmetric algorithms accepted by default: never `none`, never an HMAC (a public key is no secret). */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = Object.freeze([
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
]);

/** Options of {@link jwtAuth}. */
export interface JwtAuthOptions {
  /** The issuer: must equal the token's `iss` exactly; listed as the authorization server. */
  readonly issuer: string;
  /** This server's canonical URI (RFC 8707): the token's `aud` must contain it. */
  readonly resource: string;
  /**
   * Where the issuer publishes its keys (default: the `jwks_uri` of the issuer's metadata, RFC 8414 §3,
   * else its OpenID configuration, read at the first token): fetched (within 3 s), fresh for 10 minutes, refetched (at most
   * every 30 s; 503 with `Retry-After` until then) for an unknown `kid`; while the issuer is down the
   * last good keys keep verifying for an hour more, and without usable keys a request gets 503 with
   * `Retry-After` (never 401).
   */
  readonly jwksUri?: string;
  /** The keys themselves, instead of `jwksUri` (a static key set). */
  readonly jwks?: JSONWebKeySet;
  /** The scopes the server understands (RFC 9728 `scopes_supported`). */
  readonly scopesSupported?: readonly string[];
  /** Scopes every request needs. */
  readonly requiredScopes?: readonly string[];
  /** The authorization servers to list (default: `[issuer]`). */
  readonly authorizationServers?: readonly string[];
  /** The accepted signature algorithms (default: {@link ASYMMETRIC_ALGORITHMS}); HMAC and `none` are refused always. */
  readonly algorithms?: readonly string[];
  /** Clock skew tolerated for `exp` and `nbf`, in seconds (default 60, at most 60). */
  readonly clockToleranceSec?: number;
  /** A human-readable name for the metadata. */
  readonly resourceName?: string;
  /** A documentation URL for the metadata. */
  readonly resourceDocumentation?: string;
  /**
   * DPoP-bound access tokens (RFC 9449). `"required"`: every request presents its token with
   * `Authorization: DPoP <token>` and a `DPoP` proof header, and the token's `cnf.jkt` is the proof
   * key's thumbprint; `"allowed"`: unbound bearer tokens are taken too (a bound one presented as
   * `Bearer` never is, §7.2). The proof is checked for this request (`htm`, `htu` without query, `iat`
   * within 60 s, `ath` of the token) and used once: its `jti` is remembered in the server's
   * `resultStore`, so instances sharing one (Redis, Deno KV) refuse a proof replayed on another.
   * Refusals carry `WWW-Authenticate: DPoP error="invalid_dpop_proof"` (or `invalid_token`) with
   * `algs` (§7.1) on every wire, and the metadata says `dpop_bound_access_tokens_required` and
   * `dpop_signing_alg_values_supported`. Default: no DPoP (the `DPoP` scheme is refused).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
   * import { createServer, defineTool } from "../../mod.ts";
   * import { jwtAuth } from "./jwt-auth.ts";
   *
   * const issuerKeys = await generateKeyPair("ES256");
   * const server = createServer({
   *   name: "docs", version: "1.0.0",
   *   auth: jwtAuth({
   *     issuer: "https://auth.example.com", resource: "http://localhost", dpop: "required",
   *     jwks: { keys: [{ ...(await exportJWK(issuerKeys.publicKey)), alg: "ES256" }] },
   *   }),
   * }).tool(defineTool("hello").describe("Says hi").handle(() => "hi"));
   *
   * // The client's key, the token bound to it (cnf.jkt), and a proof of this request signed with it.
   * const client = await generateKeyPair("ES256");
   * const jwk = await exportJWK(client.publicKey);
   * const token = await new SignJWT({ cnf: { jkt: await calculateJwkThumbprint(jwk) } })
   *   .setProtectedHeader({ alg: "ES256", typ: "at+jwt" }).setIssuer("https://auth.example.com")
   *   .setAudience("http://localhost").setSubject("ada").setExpirationTime("5m").sign(issuerKeys.privateKey);
   * const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
   * const proofOf = (nonce?: string) =>
   *   new SignJWT({ htm: "POST", htu: "http://localhost/mcp-lite/v1/calltools", ath, ...(nonce ? { nonce } : {}) })
   *     .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk }).setJti(crypto.randomUUID()).setIssuedAt()
   *     .sign(client.privateKey);
   * const call = (proof: string) =>
   *   server.fetch(new Request("http://localhost/mcp-lite/v1/calltools", {
   *     method: "POST",
   *     headers: { "content-type": "application/json", authorization: `DPoP ${token}`, dpop: proof },
   *     body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello" } }),
   *   }));
   * // A new server's memory of proofs is new: for its first minute a proof carries a nonce it gave (RFC 9449 §8).
   * const asked = await call(await proofOf());
   * assert.equal(asked.status, 401);
   * const proof = await proofOf(asked.headers.get("dpop-nonce")!);
   * assert.equal((await call(proof)).status, 200);
   * const replayed = await call(proof); // the same proof again
   * assert.equal(replayed.status, 401);
   * assert.match(replayed.headers.get("www-authenticate")!, /^DPoP error="invalid_dpop_proof"/);
   * ```
   */
  readonly dpop?: "required" | "allowed";
  /** The accepted DPoP proof algorithms (default {@link ASYMMETRIC_ALGORITHMS}); asymmetric only. */
  readonly dpopAlgorithms?: readonly string[];
  /**
   * Require server-issued nonces in DPoP proofs (RFC 9449 §8; default `false`): a proof without one, or
   * with one unknown or older than two minutes, is refused with 401 `DPoP error="use_dpop_nonce"` and a
   * fresh nonce in the `DPoP-Nonce` header (gRPC: metadata), which the client puts in its next proof.
   * Nonces live in the server's `resultStore`, so one issued by an instance is taken by every instance
   * sharing it. It bounds how long a proof made ahead of time stays usable.
   */
  readonly dpopNonce?: boolean;
}

const TYPES = new Set(["at+jwt", "application/at+jwt", "jwt", "application/jwt"]);

/**
 * Verifies JWT access tokens: the signature against the issuer's keys (asymmetric algorithms only),
 * `iss` exactly, `aud` containing this resource (RFC 8707), `exp` and `nbf` within 60 s of skew, `typ`
 * `at+jwt` (RFC 9068) or `JWT`. The caller is `{ subject: sub, clientId: client_id ?? azp, scopes:
 * scope (space-separated) or scp, claims }`.
 *
 * @param options The issuer, the resource, the keys and the metadata.
 * @returns The server's authentication, for `createServer({ auth })`.
 * With `dpop`, tokens are DPoP-bound (RFC 9449): see {@link JwtAuthOptions.dpop}.
 *
 * @throws {TypeError} For missing or contradictory options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportJWK, generateKeyPair, SignJWT } from "jose";
 * import { jwtAuth } from "./jwt-auth.ts";
 *
 * const { publicKey, privateKey } = await generateKeyPair("ES256");
 * const auth = jwtAuth({
 *   issuer: "https://auth.example.com",
 *   resource: "https://api.example.com",
 *   jwks: { keys: [{ ...(await exportJWK(publicKey)), alg: "ES256" }] },
 * });
 * const token = await new SignJWT({ scope: "docs:read", client_id: "app" })
 *   .setProtectedHeader({ alg: "ES256", typ: "at+jwt" })
 *   .setIssuer("https://auth.example.com").setAudience("https://api.example.com")
 *   .setSubject("ada").setIssuedAt().setExpirationTime("5m").sign(privateKey);
 * const caller = await auth.verify(token, new Request("https://api.example.com/mcp"));
 * assert.equal(caller?.subject, "ada");
 * assert.deepEqual(caller?.scopes, ["docs:read"]);
 * ```
 */
export function jwtAuth(options: JwtAuthOptions): ServerAuth {
  const { issuer, resource } = options;
  if (typeof issuer !== "string" || issuer === "") throw new TypeError("jwtAuth: issuer is required");
  if (typeof resource !== "string" || resource === "") throw new TypeError("jwtAuth: resource is required");
  if (options.jwksUri !== undefined && options.jwks !== undefined) {
    throw new TypeError("jwtAuth: give jwksUri or jwks, not both");
  }
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  const dpopAlgorithms = [...(options.dpopAlgorithms ?? ASYMMETRIC_ALGORITHMS)];
  const refused = [...algorithms, ...dpopAlgorithms].filter((alg) => !ASYMMETRIC_ALGORITHMS.includes(alg));
  if (refused.length > 0) throw new TypeError(`jwtAuth: not an asymmetric algorithm: ${refused.join(", ")}`);
  if (options.dpop !== undefined && options.dpop !== "required" && options.dpop !== "allowed") {
    throw new TypeError(`jwtAuth: dpop is "required" or "allowed", got ${JSON.stringify(options.dpop)}`);
  }
  const clockTolerance = Math.min(options.clockToleranceSec ?? 60, 60);
  const keys = options.jwks !== undefined
    ? createLocalJWKSet(options.jwks)
    : options.jwksUri !== undefined
    ? remoteKeys(new URL(options.jwksUri))
    : issuerKeys(issuer);
  const audience = resource.endsWith("/") ? [resource, resource.slice(0, -1)] : [resource, resource + "/"];
  return protectedResource({
    resource,
    authorizationServers: options.authorizationServers ?? [issuer],
    scopesSupported: options.scopesSupported,
    requiredScopes: options.requiredScopes,
    resourceName: options.resourceName,
    resourceDocumentation: options.resourceDocumentation,
    dpop: options.dpop === undefined
      ? undefined
      : dpopPolicy({ mode: options.dpop, algorithms: dpopAlgorithms, resource, nonce: options.dpopNonce }),
    async verify(token: string): Promise<AuthInfo | undefined> {
      let payload: Record<string, unknown>;
      let typ: string | undefined;
      try {
        const verified = await jwtVerify(token, keys, { issuer, audience, algorithms, clockTolerance });
        payload = verified.payload;
        typ = verified.protectedHeader.typ;
      } catch (error) {
        if (error instanceof ProtocolError) throw error; // the issuer's keys are unavailable: not the token's fault
        throw new Error(reasonOf(error));
      }
      if (typ !== undefined && !TYPES.has(typ.toLowerCase())) {
        throw new Error(`the token type ${typ} is not an access token`);
      }
      const scope = payload.scope;
      const scopes = typeof scope === "string"
        ? scope.split(" ").filter(Boolean)
        : Array.isArray(payload.scp)
        ? payload.scp.filter((s): s is string => typeof s === "string")
        : [];
      const clientId = typeof payload.client_id === "string"
        ? payload.client_id
        : typeof payload.azp === "string"
        ? payload.azp
        : undefined;
      const info: AuthInfo = { scopes, claims: payload };
      if (typeof payload.sub === "string") info.subject = payload.sub;
      if (clientId !== undefined) info.clientId = clientId;
      return info;
    },
  });
}

/** A reason safe to send back in `error_description` (jose's messages never contain the token). */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the access token expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case "aud":
        return "the access token was not issued for this resource";
      case "iss":
        return "the access token was issued by an unexpected issuer";
      case "nbf":
        return "the access token is not valid yet";
      default:
        return `the access token's ${error.claim} claim is invalid`;
    }
  }
  if (error instanceof errors.JWKSNoMatchingKey) return "the access token was signed with an unknown key";
  if (error instanceof errors.JOSEAlgNotAllowed) return "the access token's signature algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the access token's signature is invalid";
  return "the access token is malformed or invalid";
}
