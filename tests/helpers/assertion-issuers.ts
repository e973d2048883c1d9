/**
 * What an authorization server's tests present to it, signed in process with jose: an enterprise IdP's
 * ID-JAGs (any claim can be made wrong), a workload platform's JWTs, DPoP proofs for the token endpoint,
 * and token requests.
 */
import {
  calculateJwkThumbprint,
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  SignJWT,
} from "jose";

export const AS_ISSUER = "https://auth.example.com";
export const TOKEN_ENDPOINT = `${AS_ISSUER}/token`;
export const RESOURCE = "https://mcp.example.com/mcp";
export const IDP = "https://idp.example.com";
export const PLATFORM = "https://kubernetes.default.svc";
export const WORKLOAD_SUBJECT = "system:serviceaccount:jobs:reporter";
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** An issuer of JWTs: its public keys, and a signer. */
export interface Signer {
  readonly jwks: JSONWebKeySet;
  /** Signs claims with a header (`alg` ES256 and the key's `kid` unless given). */
  sign(claims: JWTPayload, header?: Record<string, unknown>): Promise<string>;
}

/** A new ES256 signer. */
export async function signer(kid = "k1"): Promise<Signer> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  return {
    jwks: { keys: [{ ...(await exportJWK(publicKey)), alg: "ES256", kid }] },
    sign: (claims, header = {}) =>
      new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid, ...header }).sign(privateKey),
  };
}

/** An ID-JAG's claims, correct for `client`, with any overridden (`undefined` removes one). */
export function idJagClaims(client: string, overrides: Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: IDP,
    sub: "ada",
    aud: AS_ISSUER,
    client_id: client,
    resource: RESOURCE,
    scope: "docs:read",
    jti: crypto.randomUUID(),
    iat: now,
    exp: now + 300,
    ...overrides,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return claims;
}

/** Signs an ID-JAG (`typ` `oauth-id-jag+jwt`). */
export function idJag(by: Signer, claims: JWTPayload): Promise<string> {
  return by.sign(claims, { typ: "oauth-id-jag+jwt" });
}

/** A workload's JWT, as a platform issues it (audience: the authorization server unless given). */
export function workloadJwt(by: Signer, overrides: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return by.sign({ iss: PLATFORM, sub: WORKLOAD_SUBJECT, aud: AS_ISSUER, iat: now, exp: now + 600, ...overrides });
}

/** A JWT with `alg` `none` (RFC 7519 §6): no signature. */
export function unsecured(claims: JWTPayload, typ = "oauth-id-jag+jwt"): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");
  return `${part({ alg: "none", typ })}.${part(claims)}.`;
}

/** HTTP Basic credentials (RFC 6749 §2.3.1). */
export function basic(client: string, secret: string): string {
  return `Basic ${btoa(`${encodeURIComponent(client)}:${encodeURIComponent(secret)}`)}`;
}

/** A token request. */
export function tokenRequest(
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Request {
  return new Request(TOKEN_ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(params),
  });
}

/** A client's DPoP key: its thumbprint, and proofs for the token endpoint. */
export interface DpopKey {
  readonly jkt: string;
  /** A proof of `POST` to `htu` (default the token endpoint), with a nonce when given. */
  proof(options?: { htu?: string; nonce?: string; jti?: string }): Promise<string>;
}

/** A new ES256 DPoP key. */
export async function dpopKey(): Promise<DpopKey> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk: JWK = await exportJWK(publicKey);
  return {
    jkt: await calculateJwkThumbprint(jwk),
    proof: (options = {}) =>
      new SignJWT({
        htm: "POST",
        htu: options.htu ?? TOKEN_ENDPOINT,
        ...(options.nonce ? { nonce: options.nonce } : {}),
      })
        .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk })
        .setJti(options.jti ?? crypto.randomUUID())
        .setIssuedAt()
        .sign(privateKey as CryptoKey),
  };
}

/** The claims of a JWT, unverified (the tests verify with jose where it matters). */
export function claimsOf(jwt: string): Record<string, unknown> {
  const payload = jwt.split(".")[1].replaceAll("-", "+").replaceAll("_", "/");
  return JSON.parse(atob(payload + "=".repeat((4 - payload.length % 4) % 4)));
}
