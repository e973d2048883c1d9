/**
 * What `authorizationServer()` takes and gives: its issuer, signing keys, the resources it issues tokens
 * for, the issuers it trusts (enterprise IdPs' ID-JAGs, workload platforms' JWTs), its clients, and the
 * store its replay checks share with other instances. Types only.
 *
 * @module
 */
// jose documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import type { JSONWebKeySet, JWK } from "jose";
import type { WebCryptoKey } from "../client/oauth/web-crypto-key.ts";
import type { ResultStore } from "../jobs/result-store.ts";

/** Options of {@link authorizationServer}. */
export interface AuthorizationServerOptions {
  /**
   * This server's issuer identifier (RFC 8414 §2): an `https:` URL (`http:` on loopback hosts only) without
   * query or fragment, kept without a final `/` (`AuthorizationServer.issuer` is what resources name). Its
   * endpoints are under it: `<issuer>/token`, `<issuer>/jwks`; its metadata at
   * `/.well-known/oauth-authorization-server` with the issuer's path appended (RFC 8414 §3).
   */
  readonly issuer: string;
  /**
   * The keys access tokens are signed with: the first signs, every one is published at `<issuer>/jwks` (list
   * the next key second before it signs, the old one second after, and resources rotate without a refusal).
   * A key is a private JWK with its public part (`exportJWK()` of a private key) or a `CryptoKeyPair` whose
   * public key is extractable; `kid` defaults to the key's RFC 7638 thumbprint, `alg` to the JWK's `alg`,
   * else `ES256`. Default: one ES256 key generated when the server first needs it, which lives as long as
   * this value (instances behind a load balancer, or a restart, need keys given here).
   */
  readonly signingKeys?: readonly {
    readonly key: JWK | { readonly privateKey: WebCryptoKey; readonly publicKey: WebCryptoKey };
    readonly kid?: string;
    readonly alg?: string;
  }[];
  /**
   * The resources (RFC 8707 resource indicators: your MCP servers' canonical URIs) this server issues tokens
   * for, each with the scopes it offers. A token's `aud` is one of them, exactly as written here.
   */
  readonly resources: Readonly<Record<string, { readonly scopes: readonly string[] }>>;
  /**
   * The issuers whose JWTs this server takes, and for what. `"id-jag"`: an enterprise IdP whose Identity
   * Assertion JWT Authorization Grants (`typ` `oauth-id-jag+jwt`; SEP-990) are redeemed for the client their
   * `client_id` names. `"workload"`: a workload platform (Kubernetes, a cloud, a CI) whose JWTs authenticate
   * the clients whose `workloads` name this issuer and the JWT's `sub` (SEP-1933). Keys: `jwksUri` (fetched
   * within 3 s, fresh 10 minutes, refetched for an unknown `kid`, kept an hour through the issuer's outage)
   * or `jwks`; `algorithms` default to every asymmetric one (never `none`, never an HMAC).
   */
  readonly trustedIssuers?: readonly {
    readonly issuer: string;
    readonly jwksUri?: string;
    readonly jwks?: JSONWebKeySet;
    readonly algorithms?: readonly string[];
    readonly accepts: readonly ("id-jag" | "workload")[];
    /**
     * The longest this issuer's JWTs may live, `exp` − `iat`, in seconds (default 3600, at most 86400): one
     * without `exp` or `iat`, or living longer, is refused (`invalid_grant`, the refusal naming this option).
     * An ID-JAG is redeemed once (its `jti` is remembered until it expires); a workload's JWT is not used up:
     * the same one is taken again, for one resource or several, until it expires (RFC 7523 §3 item 7 makes
     * `jti` tracking a MAY; SEP-1933's platforms hand one token to every request of its life, and a workload
     * asks one token per resource), so this bound is what a leaked one is worth. Raise it only for a platform
     * that cannot issue shorter-lived tokens for this audience (a Kubernetes service account token projected
     * for this audience lives an hour unless `expirationSeconds` says otherwise; a GitHub Actions OIDC token,
     * minutes).
     */
    readonly maxLifetimeSec?: number;
  }[];
  /**
   * The clients, by `client_id`. How one authenticates at the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2):
   * `secret` (`client_secret_basic`, or `client_secret_post` when `authMethod` says so), `jwks` or `jwksUri`
   * (`private_key_jwt`), `workloads` (a JWT from a trusted workload issuer with that `sub`, as the grant's
   * assertion or as its `client_assertion`), or none (`authMethod: "none"`, for workload grants only: the
   * workload's JWT is what authenticates it). `grants` are the profiles it may use: `"id-jag"` (confidential
   * clients only), `"workload"`, `"client_credentials"`; default: `"id-jag"` for a client with a secret or
   * keys, `"workload"` for one with `workloads`.
   */
  readonly clients: Readonly<
    Record<string, {
      readonly authMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
      readonly secret?: string;
      readonly jwks?: JSONWebKeySet;
      readonly jwksUri?: string;
      readonly workloads?: readonly {
        readonly issuer: string;
        readonly subject: string;
        /** The audience the workload's JWT must name (default: this issuer or its token endpoint, RFC 7523 §3). */
        readonly audience?: string;
      }[];
      readonly grants?: readonly ("id-jag" | "workload" | "client_credentials")[];
    }>
  >;
  /**
   * Where used assertion `jti`s and DPoP proofs are remembered until they expire, and DPoP nonces kept: an
   * `ID-JAG` or proof is redeemed once across every instance sharing the store, and after a restart when the
   * store outlives it (Redis, PostgreSQL, Deno KV). Default: in memory (one process).
   */
  readonly store?: ResultStore;
  /** How long an access token lives, in seconds (default 300). */
  readonly accessTokenTtlSec?: number;
  /** Clock skew tolerated on assertions' `exp`, `nbf` and `iat`, in seconds (default 60, at most 300). */
  readonly clockToleranceSec?: number;
  /**
   * Require server-issued nonces in DPoP proofs at the token endpoint (RFC 9449 §8; default `false`: none is
   * asked for, not even in a new store's first minute, as a resource asks one of a proof that may predate it).
   */
  readonly dpopNonce?: boolean;
}

/** An authorization server: its identity, its metadata, and the fetch handler that serves its endpoints. */
export interface AuthorizationServer {
  /** The issuer identifier, as given but for a final `/`: the `iss` of its tokens, what resources name. */
  readonly issuer: string;
  /** Its RFC 8414 metadata, as served at `/.well-known/oauth-authorization-server` (plus the issuer's path). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /**
   * Serves the metadata, the token endpoint and the JWKS; any other path is a 404. Mount it beside an MCP
   * server (route the issuer's path to it) or serve it alone (`Deno.serve(as.fetch)`).
   *
   * @param request The request.
   * @returns The response.
   */
  fetch(request: Request): Promise<Response>;
}
