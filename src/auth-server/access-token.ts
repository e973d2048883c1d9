/**
 * The access tokens this server issues: JWTs per RFC 9068 (`typ` `at+jwt`; `iss`, `aud` the one resource,
 * `sub`, `client_id`, `scope`, `jti`, `iat`, `exp`), bound to a DPoP key by `cnf.jkt` when the request had
 * a proof (RFC 9449 §6.1), and the token response that carries one (RFC 6749 §5.1).
 *
 * @module
 */
import { SignJWT } from "jose";
import type { SigningKeys } from "./signing-keys.ts";
import { NO_STORE } from "./oauth-error.ts";

/** What a token is issued for. */
export interface TokenGrant {
  readonly subject: string;
  readonly clientId: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  /** The DPoP key's thumbprint, when the token is bound to it. */
  readonly jkt?: string;
}

/**
 * Signs an access token and answers with it.
 *
 * @param grant Whom and what for.
 * @param keys The server's signing keys.
 * @param issuer The issuer.
 * @param ttlSec How long it lives.
 * @returns The token response: `token_type` `DPoP` for a bound token, else `Bearer`.
 */
export async function accessTokenResponse(
  grant: TokenGrant,
  keys: SigningKeys,
  issuer: string,
  ttlSec: number,
): Promise<Response> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { client_id: grant.clientId };
  if (grant.scopes.length > 0) claims.scope = grant.scopes.join(" ");
  if (grant.jkt !== undefined) claims.cnf = { jkt: grant.jkt };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: keys.signer.alg, kid: keys.signer.kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setAudience(grant.resource)
    .setSubject(grant.subject)
    .setJti(crypto.randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSec)
    .sign(keys.signer.key);
  const body: Record<string, unknown> = {
    access_token: token,
    token_type: grant.jkt !== undefined ? "DPoP" : "Bearer",
    expires_in: ttlSec,
  };
  if (grant.scopes.length > 0) body.scope = grant.scopes.join(" ");
  return new Response(JSON.stringify(body), { status: 200, headers: NO_STORE });
}
