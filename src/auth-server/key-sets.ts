/**
 * The key sets the authorization server verifies JWTs with: a trusted issuer's or a `private_key_jwt`
 * client's, from `jwks` (static) or `jwksUri` through `remoteKeys()` (cached, refetched for an unknown `kid`,
 * kept through the issuer's outage), with the asymmetric algorithms only (RFC 8725 §3.1, §3.2).
 *
 * @module
 */
// jose documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import type { JSONWebKeySet } from "jose";
import { createLocalJWKSet } from "jose";
import { ASYMMETRIC_ALGORITHMS } from "../auth/jwt-auth.ts";
import { type KeyResolver, remoteKeys } from "../auth/remote-keys.ts";

/** A key set and the algorithms it verifies. */
export interface KeySet {
  readonly keys: KeyResolver;
  readonly algorithms: string[];
}

/**
 * Makes the key set of an issuer or a client.
 *
 * @param who Names it in errors (`trustedIssuers[0]`, `clients["app"]`).
 * @param source Its `jwks` or `jwksUri`, and its `algorithms`.
 * @returns The key set.
 * @throws {TypeError} With neither or both of `jwks` and `jwksUri`, or a symmetric or unknown algorithm.
 */
export function keySetOf(
  who: string,
  source: { readonly jwks?: JSONWebKeySet; readonly jwksUri?: string; readonly algorithms?: readonly string[] },
): KeySet {
  if ((source.jwks === undefined) === (source.jwksUri === undefined)) {
    throw new TypeError(`authorizationServer: ${who} needs jwksUri or jwks (one of them)`);
  }
  const algorithms = [...(source.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  const refused = algorithms.filter((alg) => !ASYMMETRIC_ALGORITHMS.includes(alg));
  if (refused.length > 0) {
    throw new TypeError(`authorizationServer: ${who}: not an asymmetric algorithm: ${refused.join(", ")}`);
  }
  const keys = source.jwks !== undefined ? createLocalJWKSet(source.jwks) : remoteKeys(new URL(source.jwksUri!));
  return { keys, algorithms };
}
