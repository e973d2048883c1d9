/**
 * Workload identity federation (SEP-1933; RFC 7523): a JWT a trusted workload platform issued (a Kubernetes
 * service account token, a cloud's or a CI's OIDC token) stands for the client whose `workloads` name its
 * issuer and `sub`, as the JWT-bearer grant's assertion (§2.1) or the client's `client_assertion` (§2.2). Its
 * lifetime is bounded (`exp` − `iat` at most its issuer's `maxLifetimeSec`, an hour by default); it is not used
 * up within that life (the replay policy: {@link verifyWorkload}).
 *
 * @module
 */
import type { RegisteredClient, ServerConfig } from "./server-config.ts";
import { TokenError } from "./oauth-error.ts";
import { unverifiedClaims, verifyAssertion } from "./verify-assertion.ts";

/** A verified workload: the client it authenticates, and its subject at the platform. */
export interface VerifiedWorkload {
  readonly client: RegisteredClient;
  readonly subject: string;
}

/** The JWT types a workload's JWT may declare (RFC 7519 §5.1; RFC 8725 §3.11): none, or a plain JWT. */
const WORKLOAD_TYPES = new Set([undefined, "jwt", "application/jwt", "jose"]);

/**
 * Verifies a workload's JWT and finds its client.
 *
 * Its lifetime is bounded by the check every assertion passes (verify-assertion.ts): `exp` and `iat` required,
 * `exp` − `iat` at most its issuer's `maxLifetimeSec`. `iat` is required, not only `exp`: without it only what is
 * left of the JWT's life could be bounded, and a year-long token kept until its last hour would pass.
 *
 * Replay policy: a workload's JWT is not used up. The same one is taken again, for one resource or several, until
 * it expires, `jti` or not. RFC 7523 §3 item 7 makes remembering `jti`s a MAY; platforms hand one token to every
 * request of its life (a projected Kubernetes token is rewritten near the end of its life, not per read) and a
 * workload asks one access token per resource (RFC 8707), so using it up would refuse its second request. What
 * bounds a leaked one is its audience (this server, §3 item 3) and its lifetime; ID-JAGs and `private_key_jwt`
 * assertions, which their client mints per request, are used once (replay.ts).
 *
 * @param jwt The JWT.
 * @param config The server's configuration.
 * @param clientId The client the request names, if it names one: the workload's must be it.
 * @returns The client and the workload's subject.
 * @throws {TokenError} `invalid_grant` for a JWT that does not verify or names no client's workload (or
 *   another one than `clientId`), `unauthorized_client` for a client not allowed the workload grant.
 */
export async function verifyWorkload(
  jwt: string,
  config: ServerConfig,
  clientId: string | undefined,
): Promise<VerifiedWorkload> {
  const what = "the workload's JWT";
  const claims = unverifiedClaims(jwt, what);
  const trusted = typeof claims.iss === "string" ? config.issuers.get(claims.iss) : undefined;
  if (trusted === undefined || !trusted.accepts.has("workload")) {
    throw new TokenError("invalid_grant", `${what} is from an issuer not trusted for workloads`);
  }
  const issuer = claims.iss as string;
  const matches = [...config.clients.values()].filter((client) =>
    client.workloads.some((workload) => workload.issuer === issuer && workload.subject === claims.sub)
  );
  const named = clientId === undefined ? matches : matches.filter((client) => client.id === clientId);
  if (named.length === 0) {
    throw new TokenError(
      "invalid_grant",
      matches.length === 0 ? `${what}'s subject is no client's workload` : `${what} is another client's`,
    );
  }
  if (named.length > 1) throw new TokenError("invalid_request", `${what} is several clients' workload: send client_id`);
  const [client] = named;
  const workload = client.workloads.find((entry) => entry.issuer === issuer && entry.subject === claims.sub)!;
  const { payload, typ } = await verifyAssertion(jwt, trusted.keySet, {
    issuer,
    // RFC 7523 §3 item 3: the authorization server's issuer, or its token endpoint's URL.
    audience: workload.audience ?? [config.issuer, config.tokenEndpoint],
    toleranceSec: config.toleranceSec,
    what,
    lifetime: trusted.lifetime,
  });
  if (!WORKLOAD_TYPES.has(typ?.toLowerCase())) {
    throw new TokenError("invalid_grant", `${what}'s typ ${typ} is not a JWT's`);
  }
  if (payload.sub !== workload.subject) throw new TokenError("invalid_grant", `${what}'s subject changed`);
  if (!client.grants.has("workload")) {
    throw new TokenError("unauthorized_client", `the client ${client.id} may not use the workload grant`);
  }
  return { client, subject: workload.subject };
}
