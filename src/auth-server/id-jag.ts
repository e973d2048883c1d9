/**
 * Redeeming an Identity Assertion JWT Authorization Grant (draft-ietf-oauth-identity-assertion-authz-grant
 * §4.4, as MCP's SEP-990 profiles it): `typ` `oauth-id-jag+jwt`, signed by an IdP trusted for ID-JAGs,
 * `aud` this issuer (one value), `client_id` the authenticated client, `jti` used once, `iat` and `exp` at
 * most its issuer's `maxLifetimeSec` apart (an hour by default, verify-assertion.ts),
 * and a `resource` this server serves: the token is for that resource and no other, whatever the request's
 * `resource` says (no resource injection), with scopes within the ID-JAG's and the resource's.
 *
 * @module
 */
import type { RegisteredClient, ServerConfig } from "./server-config.ts";
import { grantedScopes, parseScope } from "./granted-scopes.ts";
import { TokenError } from "./oauth-error.ts";
import { unverifiedClaims, verifyAssertion } from "./verify-assertion.ts";

/** The ID-JAG's JWT type (§3.1; RFC 8725 §3.11). */
export const ID_JAG_TYP = "oauth-id-jag+jwt";

/** What a redeemed ID-JAG grants. */
export interface IdJagGrant {
  readonly subject: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  /** The key the ID-JAG is bound to (its `cnf.jkt`, §8.6), which the request's DPoP proof must be by. */
  readonly jkt?: string;
  /** What marks it used (`useOnce()`), once the rest of the request is checked. */
  readonly once: { readonly issuer: string; readonly jti: string; readonly iat: number; readonly exp: number };
}

/**
 * Verifies an ID-JAG and what it grants the client.
 *
 * @param jwt The ID-JAG (the `assertion`).
 * @param client The authenticated client.
 * @param request The request's `resource` and `scope` parameters.
 * @param config The server's configuration.
 * @returns The subject, the resource and the scopes.
 * @throws {TokenError} `invalid_grant`, `invalid_scope`, `invalid_target`, or 503 when a store or an
 *   issuer is down.
 */
export async function redeemIdJag(
  jwt: string,
  client: RegisteredClient,
  request: { readonly resource: string | undefined; readonly scope: string | undefined },
  config: ServerConfig,
): Promise<IdJagGrant> {
  const what = "the ID-JAG";
  const claims = unverifiedClaims(jwt, what);
  const trusted = typeof claims.iss === "string" ? config.issuers.get(claims.iss) : undefined;
  if (trusted === undefined || !trusted.accepts.has("id-jag")) {
    throw new TokenError("invalid_grant", `${what} is from an issuer not trusted for ID-JAGs`);
  }
  const { payload, typ } = await verifyAssertion(jwt, trusted.keySet, {
    issuer: claims.iss as string,
    audience: config.issuer,
    toleranceSec: config.toleranceSec,
    what,
    // Its `jti` is remembered until it expires: the bound is also how long.
    lifetime: trusted.lifetime,
  });
  // A media type, compared without case, its "application/" prefix optional (RFC 7515 §4.1.9).
  if (typ?.toLowerCase().replace(/^application\//, "") !== ID_JAG_TYP) {
    throw new TokenError("invalid_grant", `${what}'s typ is not ${ID_JAG_TYP}`);
  }
  // §4.4.1: `aud` is this issuer, as a string or an array of exactly one element (no audience injection).
  if (Array.isArray(payload.aud) && payload.aud.length !== 1) {
    throw new TokenError("invalid_grant", `${what} names several audiences`);
  }
  if (payload.client_id !== client.id) throw new TokenError("invalid_grant", `${what} was issued to another client`);
  if (typeof payload.sub !== "string" || payload.sub === "") {
    throw new TokenError("invalid_grant", `${what} has no sub`);
  }
  const { jti } = payload;
  if (typeof jti !== "string" || jti === "" || jti.length > 256) {
    throw new TokenError("invalid_grant", `${what} has no valid jti`);
  }
  const { resource, configured } = grantedResource(payload.resource, request.resource, config);
  const allowed = parseScope(payload.scope);
  const scopes = grantedScopes(parseScope(request.scope), allowed, config.resources.get(configured)!, resource);
  const cnf = payload.cnf as { jkt?: unknown } | undefined;
  if (cnf !== undefined && typeof cnf?.jkt !== "string") {
    throw new TokenError("invalid_grant", `${what}'s cnf has no jkt`);
  }
  return {
    subject: payload.sub,
    resource,
    scopes,
    ...(cnf !== undefined ? { jkt: cnf.jkt as string } : {}),
    // Used last, by the token endpoint: a refused request leaves the ID-JAG to a correct one.
    once: { issuer: claims.iss as string, jti, iat: payload.iat!, exp: payload.exp! },
  };
}

/**
 * The resource the token is for: the ID-JAG's `resource` as it writes it (one URI, or the one the request
 * picks among its several), which must be one this server serves (`configured`, as the options write it).
 * The request's `resource` only picks; it never adds.
 */
function grantedResource(
  claim: unknown,
  requested: string | undefined,
  config: ServerConfig,
): { resource: string; configured: string } {
  const claimed = typeof claim === "string" ? [claim] : Array.isArray(claim) ? claim : undefined;
  if (claimed === undefined || claimed.length === 0 || !claimed.every((uri) => typeof uri === "string")) {
    throw new TokenError("invalid_grant", "the ID-JAG names no resource");
  }
  if (requested !== undefined && !served(requested, config)) {
    throw new TokenError("invalid_target", `this server issues no tokens for ${requested}`);
  }
  const candidates = requested === undefined ? claimed : claimed.filter((uri) => sameResource(uri, requested));
  if (candidates.length === 0) throw new TokenError("invalid_grant", `the ID-JAG is not for the resource ${requested}`);
  if (candidates.length > 1) {
    throw new TokenError("invalid_target", "the ID-JAG names several resources: send resource");
  }
  const configured = served(candidates[0], config);
  if (configured === undefined) {
    throw new TokenError("invalid_grant", "the ID-JAG is for a resource this server does not serve");
  }
  return { resource: candidates[0], configured };
}

/** The resource as configured that a URI names (exactly, or but for a final `/`), if this server serves it. */
export function served(uri: string, config: ServerConfig): string | undefined {
  for (const resource of config.resources.keys()) if (sameResource(resource, uri)) return resource;
  return undefined;
}

function sameResource(a: string, b: string): boolean {
  return a === b || (a.endsWith("/") ? a.slice(0, -1) === b : a === b.slice(0, -1) && b.endsWith("/"));
}
