/**
 * The authorization server's metadata (RFC 8414 §2), with the ID-JAG grant profile
 * (`authorization_grant_profiles_supported`, draft-ietf-oauth-identity-assertion-authz-grant §6) and the
 * DPoP algorithms (RFC 9449 §5.1), and where it is served: `/.well-known/oauth-authorization-server` with
 * the issuer's path appended (RFC 8414 §3.1), and under the issuer's path as some clients look for it. Why it
 * names an `authorization_endpoint` that refuses every request: {@link metadataOf}.
 *
 * @module
 */
import type { ServerConfig } from "./server-config.ts";

/** RFC 7523 §2.1. */
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** The ID-JAG grant profile's identifier (draft-ietf-oauth-identity-assertion-authz-grant §9.2). */
export const ID_JAG_PROFILE = "urn:ietf:params:oauth:grant-profile:id-jag";
/** RFC 8414 §3. */
const WELL_KNOWN = "/.well-known/oauth-authorization-server";

/**
 * The metadata document. No grant this server takes uses an authorization endpoint, so RFC 8414 §2 would let it
 * omit `authorization_endpoint`; clients whose schema requires it (the official TypeScript SDK 2.x's
 * `CrossAppAccessProvider`) then refuse the whole document. It names `<issuer>/authorize`, which exists and refuses
 * every request (`unsupported_response_type`), and `response_types_supported` is empty (§2: none supported), so
 * no client is led to expect a browser flow here.
 *
 * @param config The server's configuration.
 * @param dpopAlgorithms The DPoP proof algorithms taken at the token endpoint.
 * @returns The metadata, frozen.
 */
export function metadataOf(config: ServerConfig, dpopAlgorithms: readonly string[]): Readonly<Record<string, unknown>> {
  const clients = [...config.clients.values()];
  const profiles = new Set(clients.flatMap((client) => [...client.grants]));
  const methods = new Set(clients.map((client) => client.method));
  // A client authenticated by its workload's JWT sends it as a client_assertion: private_key_jwt's form.
  if (clients.some((client) => client.workloads.length > 0)) methods.add("private_key_jwt");
  // The client-credentials grant: a client allowed it, or a workload that sends its JWT as a client_assertion.
  const credentials = profiles.has("client_credentials") || profiles.has("workload");
  const grantTypes = [JWT_BEARER, ...(credentials ? ["client_credentials"] : [])];
  const scopes = [...new Set([...config.resources.values()].flat())];
  const signing = new Set([...config.clients.values()].flatMap((client) => client.keys?.algorithms ?? []));
  for (const issuer of config.issuers.values()) {
    if (issuer.accepts.has("workload")) { for (const alg of issuer.keySet.algorithms) signing.add(alg); }
  }
  return Object.freeze({
    issuer: config.issuer,
    authorization_endpoint: config.authorizationEndpoint,
    token_endpoint: config.tokenEndpoint,
    jwks_uri: config.jwksUri,
    grant_types_supported: grantTypes,
    ...(profiles.has("id-jag") ? { authorization_grant_profiles_supported: [ID_JAG_PROFILE] } : {}),
    token_endpoint_auth_methods_supported: [...methods],
    ...(signing.size > 0 ? { token_endpoint_auth_signing_alg_values_supported: [...signing] } : {}),
    scopes_supported: scopes,
    response_types_supported: [],
    dpop_signing_alg_values_supported: [...dpopAlgorithms],
  });
}

/**
 * The paths the metadata is served at.
 *
 * @param issuer The issuer.
 * @returns `/.well-known/oauth-authorization-server` plus the issuer's path, and, for an issuer with a path,
 *   that path plus `/.well-known/oauth-authorization-server`.
 */
export function metadataPaths(issuer: string): readonly string[] {
  const path = new URL(issuer).pathname.replace(/\/$/, "");
  return path === "" ? [WELL_KNOWN] : [WELL_KNOWN + path, path + WELL_KNOWN];
}
