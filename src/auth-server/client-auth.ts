/**
 * Client authentication at the token endpoint, by the client's registered method: HTTP Basic
 * (`client_secret_basic`, RFC 6749 §2.3.1), the secret in the body (`client_secret_post`), a JWT signed by
 * the client's key (`private_key_jwt`, RFC 7523 §2.2 and §3) or by a trusted workload platform (a federated
 * `client_assertion`, SEP-1933), or none (the client only named). One method per request (RFC 6749 §2.3);
 * a failure is `invalid_client`, 401, with a `Basic` challenge when the client tried Basic (§5.2).
 *
 * @module
 */
import { base64urlDecode } from "../codec/base64url.ts";
import { sha256 } from "../internal/sha256.ts";
import type { RegisteredClient, ServerConfig } from "./server-config.ts";
import { useOnce } from "./replay.ts";
import { TokenError } from "./oauth-error.ts";
import { type LifetimeBound, unverifiedClaims, verifyAssertion } from "./verify-assertion.ts";
import { verifyWorkload } from "./workload.ts";

/** RFC 7523 §2.2. */
const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/**
 * How long a `private_key_jwt` assertion may live: its `jti` is remembered until it expires, so a short life
 * (RFC 7523 §3 item 4). `iat` is optional (§3): without it, its `exp` at most this far from now.
 */
const CLIENT_ASSERTION_LIFETIME: LifetimeBound = Object.freeze({ maxSec: 3600, iatRequired: false });

/** Who the request comes from. */
export type ClientIdentity =
  /** A client that proved who it is (a secret, its key, or its workload's JWT). */
  | { readonly kind: "authenticated"; readonly client: RegisteredClient; readonly workloadSubject?: string }
  /** A request that only names a client (`client_id`), or none. */
  | { readonly kind: "named"; readonly clientId: string | undefined };

const utf8 = new TextEncoder();

/**
 * Authenticates the client of a token request.
 *
 * @param request The request (its `Authorization` header).
 * @param form The request's parameters.
 * @param config The server's configuration.
 * @returns The authenticated client, or the client the request names.
 * @throws {TokenError} `invalid_client` (401) when authentication fails or the client is unknown;
 *   `invalid_request` for two methods at once.
 */
export async function authenticateClient(
  request: Request,
  form: URLSearchParams,
  config: ServerConfig,
): Promise<ClientIdentity> {
  const authorization = request.headers.get("authorization");
  const basic = authorization !== null && /^basic /i.test(authorization);
  const secret = form.get("client_secret");
  const assertion = form.get("client_assertion");
  const presented = [basic, secret !== null, assertion !== null].filter(Boolean).length;
  if (presented > 1) throw new TokenError("invalid_request", "use one client authentication method, not several");
  if (authorization !== null && !basic) {
    throw new TokenError("invalid_request", "the Authorization header of a token request is HTTP Basic");
  }
  const clientId = form.get("client_id") ?? undefined;
  if (basic) return await basicAuth(authorization!, clientId, config);
  if (secret !== null) {
    const client = knownClient(clientId, config, "client_secret_post");
    if (!await sameSecret(secret, client.secret!)) throw invalidClient("the client secret is wrong");
    return { kind: "authenticated", client };
  }
  if (assertion !== null) {
    if (form.get("client_assertion_type") !== CLIENT_ASSERTION_TYPE) {
      throw new TokenError("invalid_request", `client_assertion_type is ${CLIENT_ASSERTION_TYPE}`);
    }
    return await assertionAuth(assertion, clientId, config);
  }
  if (clientId !== undefined && !config.clients.has(clientId)) throw invalidClient("the client is unknown");
  return { kind: "named", clientId };
}

/** `client_secret_basic`: the id and secret form-encoded, then Base64 (RFC 6749 §2.3.1). */
async function basicAuth(header: string, clientId: string | undefined, config: ServerConfig): Promise<ClientIdentity> {
  // Base64 (RFC 4648 §4), read as base64url (§5) without its padding.
  const encoded = header.slice(6).trim().replace(/={0,2}$/, "").replaceAll("+", "-").replaceAll("/", "_");
  const bytes = base64urlDecode(encoded);
  const text = bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  const colon = text?.indexOf(":") ?? -1;
  let id: string, secret: string;
  try {
    id = formDecode(text!.slice(0, colon));
    secret = formDecode(text!.slice(colon + 1));
  } catch {
    throw invalidClient("the Basic credentials are malformed", true);
  }
  if (colon < 0) throw invalidClient("the Basic credentials are malformed", true);
  if (clientId !== undefined && clientId !== id) {
    throw new TokenError("invalid_request", "client_id differs from the Basic credentials' client");
  }
  const client = config.clients.get(id);
  if (client === undefined || client.method !== "client_secret_basic") {
    throw invalidClient("the client is unknown or does not use client_secret_basic", true);
  }
  if (!await sameSecret(secret, client.secret!)) throw invalidClient("the client secret is wrong", true);
  return { kind: "authenticated", client };
}

/** `private_key_jwt` (the client signs, `iss` = `sub` = its id), or a workload's JWT as the client's assertion. */
async function assertionAuth(jwt: string, clientId: string | undefined, config: ServerConfig): Promise<ClientIdentity> {
  const claims = unverifiedClaims(jwt, "the client assertion");
  const own = typeof claims.iss === "string" && claims.iss === claims.sub ? config.clients.get(claims.iss) : undefined;
  if (own !== undefined && own.method === "private_key_jwt") {
    if (clientId !== undefined && clientId !== own.id) {
      throw new TokenError("invalid_request", "client_id differs from the client assertion's client");
    }
    try {
      const { payload } = await verifyAssertion(jwt, own.keys!, {
        issuer: own.id,
        audience: [config.issuer, config.tokenEndpoint],
        toleranceSec: config.toleranceSec,
        what: "the client assertion",
        lifetime: CLIENT_ASSERTION_LIFETIME,
      });
      if (typeof payload.jti !== "string" || payload.jti === "") throw invalidClient("the client assertion has no jti");
      await useOnce(config.store, {
        issuer: `client:${own.id}`,
        jti: payload.jti,
        iat: payload.iat,
        exp: payload.exp!,
      }, config.toleranceSec);
    } catch (error) {
      throw asClientError(error);
    }
    return { kind: "authenticated", client: own };
  }
  try {
    const { client, subject } = await verifyWorkload(jwt, config, clientId);
    return { kind: "authenticated", client, workloadSubject: subject };
  } catch (error) {
    throw asClientError(error);
  }
}

/** A grant refusal in authenticating the client is the client's failure (RFC 6749 §5.2 `invalid_client`). */
function asClientError(error: unknown): unknown {
  if (!(error instanceof TokenError) || error.code === "temporarily_unavailable") return error;
  if (error.code === "invalid_grant") return invalidClient(error.message);
  return error;
}

function knownClient(clientId: string | undefined, config: ServerConfig, method: string): RegisteredClient {
  const client = clientId === undefined ? undefined : config.clients.get(clientId);
  if (client === undefined || client.method !== method) {
    throw invalidClient(`the client is unknown or does not use ${method}`);
  }
  return client;
}

/** `application/x-www-form-urlencoded` decoding (`+` is a space), as §2.3.1 asks of Basic credentials. */
function formDecode(text: string): string {
  return decodeURIComponent(text.replaceAll("+", " "));
}

/** Compares two secrets in time independent of where they differ: their SHA-256 digests, every byte. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256(utf8.encode(given)), sha256(utf8.encode(expected))]);
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

/**
 * The refusal of a client's authentication.
 *
 * @param description Why.
 * @param basic Whether the client tried HTTP Basic (then a `Basic` challenge, RFC 6749 §5.2).
 * @returns `invalid_client`, 401.
 */
export function invalidClient(description: string, basic = false): TokenError {
  return new TokenError("invalid_client", description, {
    status: 401,
    headers: basic ? { "www-authenticate": 'Basic realm="token endpoint", charset="UTF-8"' } : {},
  });
}
