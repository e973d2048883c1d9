/**
 * DPoP (RFC 9449) for server tests, written with `jose`: an issuer whose access tokens are bound to a
 * client key (`cnf.jkt`, §6.1), and client keys that sign proofs (§4.2) for a request.
 */
import {
  base64url,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
  SignJWT,
} from "jose";

/** The issuer of the tests' tokens. */
export const ISSUER = "https://auth.example.com";

/** An issuer: its key set, and tokens for a resource. */
export interface DpopIssuer {
  /** Its public keys, for `jwtAuth({ jwks })`. */
  readonly jwks: JSONWebKeySet;
  /**
   * Mints an access token (RFC 9068) for `resource`.
   *
   * @param jkt The thumbprint it is bound to (`cnf.jkt`); none for a bearer token.
   */
  mint(resource: string, jkt?: string): Promise<string>;
}

/** Starts an issuer (an ES256 key). */
export async function dpopIssuer(): Promise<DpopIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  return {
    jwks: { keys: [{ ...(await exportJWK(publicKey)), alg: "ES256", kid: "issuer" }] },
    mint: (resource, jkt) =>
      new SignJWT({ scope: "docs:read", client_id: "app", ...(jkt === undefined ? {} : { cnf: { jkt } }) })
        .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "issuer" })
        .setIssuer(ISSUER)
        .setAudience(resource)
        .setSubject("ada")
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey),
  };
}

/** What a proof names; every field can be made wrong. */
export interface ProofClaims {
  /** The method. */
  readonly htm: string;
  /** The URL. */
  readonly htu: string;
  /** The token it goes with (`ath`). */
  readonly token: string;
  /** `iat`, in seconds (default now). */
  readonly iat?: number;
  /** `jti` (default a random UUID). */
  readonly jti?: string;
  /** `ath` itself, overriding the token's. */
  readonly ath?: string;
  /** The header's `typ` (default `dpop+jwt`). */
  readonly typ?: string;
  /** A nonce the server issued (RFC 9449 §8). */
  readonly nonce?: string;
}

/** A client's DPoP key. */
export interface DpopKey {
  /** Its public JWK. */
  readonly jwk: JWK;
  /** Its RFC 7638 thumbprint, what a bound token's `cnf.jkt` holds. */
  readonly jkt: string;
  /** Signs a proof. */
  proof(claims: ProofClaims): Promise<string>;
}

/** The `ath` of a token (RFC 9449 §4.2): base64url(SHA-256(token)). */
export async function athOf(token: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
}

/** Makes a client key (ES256 by default). */
export async function dpopKey(alg = "ES256"): Promise<DpopKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg);
  const jwk = await exportJWK(publicKey);
  return {
    jwk,
    jkt: await calculateJwkThumbprint(jwk),
    proof: async (claims) =>
      new SignJWT({
        htm: claims.htm,
        htu: claims.htu,
        ath: claims.ath ?? await athOf(claims.token),
        ...(claims.nonce === undefined ? {} : { nonce: claims.nonce }),
      })
        .setProtectedHeader({ alg, typ: claims.typ ?? "dpop+jwt", jwk })
        .setJti(claims.jti ?? crypto.randomUUID())
        .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
        .sign(privateKey),
  };
}

/** The headers of a DPoP presentation (RFC 9449 §7.1). */
export function dpopHeaders(token: string, proof?: string): Record<string, string> {
  return proof === undefined ? { authorization: `DPoP ${token}` } : { authorization: `DPoP ${token}`, dpop: proof };
}

/**
 * The nonce a server asks of proofs while its replay memory is young (RFC 9449 §8; a fresh store, or
 * one that came back empty): one call with a proof, refused `use_dpop_nonce`, carries it in `DPoP-Nonce`.
 *
 * @param send Sends a request to the server (its `fetch`).
 * @param key The client key.
 * @param token A token bound to the key.
 * @param url A protected URL that takes POST.
 */
export async function youngMemoryNonce(
  send: (request: Request) => Promise<Response>,
  key: DpopKey,
  token: string,
  url: string,
): Promise<string> {
  const proof = await key.proof({ htm: "POST", htu: url, token });
  const refused = await send(new Request(url, { method: "POST", headers: dpopHeaders(token, proof), body: "{}" }));
  await refused.body?.cancel();
  const nonce = refused.headers.get("dpop-nonce");
  if (refused.status !== 401 || nonce === null) throw new Error(`expected use_dpop_nonce, got ${refused.status}`);
  return nonce;
}

/** The key, its proofs carrying `nonce` unless they name one. */
export function withNonce(key: DpopKey, nonce: string): DpopKey {
  return { ...key, proof: (claims) => key.proof({ nonce, ...claims }) };
}
