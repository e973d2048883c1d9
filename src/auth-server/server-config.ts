/**
 * The options of `authorizationServer()` checked and put in the shape the token endpoint reads: endpoints
 * under the issuer, resources by URI, trusted issuers and clients by identifier with their key sets, every
 * contradiction refused when the server is made rather than at its first request.
 *
 * @module
 */
import { createMemoryStore } from "../store/memory-store.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { sharedStoreOf } from "../store/store-of.ts";
import { type KeySet, keySetOf } from "./key-sets.ts";
import type { AuthorizationServerOptions } from "./options.ts";
import type { LifetimeBound } from "./verify-assertion.ts";

/** The longest a trusted issuer's JWT lives by default (`exp` − `iat`), as ID-JAGs and client assertions do. */
const DEFAULT_MAX_LIFETIME_SEC = 3600;
/** The most `maxLifetimeSec` may be: a JWT living longer is a standing credential, not a short-lived one. */
const MAX_LIFETIME_CEILING_SEC = 24 * 3600;

/** A grant profile a client may use. */
export type GrantProfile = "id-jag" | "workload" | "client_credentials";

/** How a client authenticates at the token endpoint (RFC 8414 `token_endpoint_auth_methods_supported`). */
export type AuthMethod = "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";

/** A registered client. */
export interface RegisteredClient {
  readonly id: string;
  readonly method: AuthMethod;
  /** Its secret, compared through SHA-256 digests in constant time. */
  readonly secret?: string;
  /** Its keys, for `private_key_jwt`. */
  readonly keys?: KeySet;
  /** The workload identities (issuer and subject) that authenticate it. */
  readonly workloads: readonly { readonly issuer: string; readonly subject: string; readonly audience?: string }[];
  readonly grants: ReadonlySet<GrantProfile>;
}

/** A trusted issuer: its keys, what its JWTs are taken for, and how long they may live (`iat` required). */
export interface TrustedIssuer {
  readonly keySet: KeySet;
  readonly accepts: ReadonlySet<"id-jag" | "workload">;
  readonly lifetime: LifetimeBound;
}

/** The server's configuration, checked. */
export interface ServerConfig {
  readonly issuer: string;
  /** Where the metadata says the authorization endpoint is: it refuses every request (as-metadata.ts). */
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly jwksUri: string;
  readonly resources: ReadonlyMap<string, readonly string[]>;
  readonly issuers: ReadonlyMap<string, TrustedIssuer>;
  readonly clients: ReadonlyMap<string, RegisteredClient>;
  /** Where used assertions and DPoP proofs are remembered: the `store` option's shared store. */
  readonly store: SharedStore;
  readonly accessTokenTtlSec: number;
  readonly toleranceSec: number;
}

/**
 * Checks the options.
 *
 * @param options The options of `authorizationServer()`.
 * @returns The configuration.
 * @throws {TypeError} For a missing or contradictory option.
 */
export function configOf(options: AuthorizationServerOptions): ServerConfig {
  const issuer = checkedIssuer(options.issuer);
  const resources = new Map<string, readonly string[]>();
  for (const [uri, { scopes }] of Object.entries(options.resources ?? {})) {
    if (!URL.canParse(uri) || new URL(uri).hash !== "") {
      throw new TypeError(`authorizationServer: the resource ${uri} is not an absolute URI without a fragment`);
    }
    resources.set(uri, Object.freeze([...scopes]));
  }
  if (resources.size === 0) throw new TypeError("authorizationServer: resources names no resource");
  const issuers = new Map<string, TrustedIssuer>();
  for (const [index, trusted] of (options.trustedIssuers ?? []).entries()) {
    const accepts = new Set(trusted.accepts);
    if (accepts.size === 0 || [...accepts].some((what) => what !== "id-jag" && what !== "workload")) {
      throw new TypeError(`authorizationServer: trustedIssuers[${index}].accepts is "id-jag" and/or "workload"`);
    }
    const maxSec = trusted.maxLifetimeSec ?? DEFAULT_MAX_LIFETIME_SEC;
    const setting = `trustedIssuers[${index}].maxLifetimeSec`;
    if (!(maxSec > 0 && maxSec <= MAX_LIFETIME_CEILING_SEC)) {
      throw new TypeError(`authorizationServer: ${setting} is a number of seconds above 0, at most 86400 (a day)`);
    }
    issuers.set(trusted.issuer, {
      keySet: keySetOf(`trustedIssuers[${index}]`, trusted),
      accepts,
      lifetime: { maxSec, iatRequired: true, setting },
    });
  }
  const clients = new Map<string, RegisteredClient>();
  for (const [id, client] of Object.entries(options.clients ?? {})) {
    clients.set(id, registeredClient(id, client, issuers));
  }
  const tolerance = options.clockToleranceSec ?? 60;
  const ttl = options.accessTokenTtlSec ?? 300;
  if (!(ttl > 0)) throw new TypeError("authorizationServer: accessTokenTtlSec is a positive number of seconds");
  return {
    issuer,
    authorizationEndpoint: `${issuer}/authorize`,
    tokenEndpoint: `${issuer}/token`,
    jwksUri: `${issuer}/jwks`,
    resources,
    issuers,
    clients,
    store: options.store === undefined ? createMemoryStore({ maxEntries: 100_000 }) : sharedStoreOf(options.store),
    accessTokenTtlSec: ttl,
    toleranceSec: Math.min(Math.max(tolerance, 0), 300),
  };
}

/** RFC 8414 §2: an `https:` URL (`http:` on a loopback host), no query, no fragment; kept without a final `/`. */
function checkedIssuer(issuer: string): string {
  const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
  const loopback = url !== undefined && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
  if (url === undefined || (url.protocol !== "https:" && !(url.protocol === "http:" && loopback))) {
    throw new TypeError(`authorizationServer: the issuer ${issuer} is not an https: URL`);
  }
  if (url.search !== "" || url.hash !== "" || issuer.includes("?") || issuer.includes("#")) {
    throw new TypeError(`authorizationServer: the issuer ${issuer} has a query or a fragment`);
  }
  return issuer.endsWith("/") ? issuer.slice(0, -1) : issuer;
}

function registeredClient(
  id: string,
  client: AuthorizationServerOptions["clients"][string],
  issuers: ReadonlyMap<string, TrustedIssuer>,
): RegisteredClient {
  const who = `clients[${JSON.stringify(id)}]`;
  const hasKeys = client.jwks !== undefined || client.jwksUri !== undefined;
  const method: AuthMethod = client.authMethod ??
    (client.secret !== undefined ? "client_secret_basic" : hasKeys ? "private_key_jwt" : "none");
  if ((method === "client_secret_basic" || method === "client_secret_post") !== (client.secret !== undefined)) {
    throw new TypeError(`authorizationServer: ${who}: a secret goes with client_secret_basic or client_secret_post`);
  }
  if ((method === "private_key_jwt") !== hasKeys) {
    throw new TypeError(`authorizationServer: ${who}: jwks or jwksUri go with private_key_jwt`);
  }
  const workloads = client.workloads ?? [];
  for (const workload of workloads) {
    if (issuers.get(workload.issuer)?.accepts.has("workload") !== true) {
      throw new TypeError(`authorizationServer: ${who}: ${workload.issuer} is not a trusted workload issuer`);
    }
  }
  const grants = new Set<GrantProfile>(
    client.grants ?? (workloads.length > 0 ? ["workload"] : method === "none" ? [] : ["id-jag"]),
  );
  if (method === "none" && (grants.has("id-jag") || grants.has("client_credentials"))) {
    // Identity Assertion JWT Authorization Grant §8.1: confidential clients only.
    throw new TypeError(`authorizationServer: ${who}: a client without credentials takes workload grants only`);
  }
  if (grants.has("workload") && workloads.length === 0) {
    throw new TypeError(`authorizationServer: ${who}: the workload grant needs workloads`);
  }
  return Object.freeze({
    id,
    method,
    ...(client.secret !== undefined ? { secret: client.secret } : {}),
    ...(hasKeys ? { keys: keySetOf(who, client) } : {}),
    workloads: Object.freeze([...workloads]),
    grants,
  });
}
