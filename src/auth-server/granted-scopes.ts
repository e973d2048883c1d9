/**
 * The scopes a token is issued with (RFC 6749 §3.3): what was asked for (the request's `scope`, else the
 * grant's), within what the grant allows (an ID-JAG's `scope` claim), and only scopes the token's resource
 * offers. A scope name means something only for its resource (the "scope collisions" of MCP's ext-auth
 * security review): one the resource does not offer is refused (`invalid_scope`), never dropped, so neither
 * a misconfigured IdP nor a client learns of it only when a tool says no.
 *
 * @module
 */
import { TokenError } from "./oauth-error.ts";

/**
 * Splits a `scope` value (RFC 6749 §3.3: space-delimited, case-sensitive).
 *
 * @param value The value, if any.
 * @returns The scopes, without repeats; `undefined` when there is no value.
 * @throws {TokenError} `invalid_scope` for a value that is not a string.
 */
export function parseScope(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new TokenError("invalid_scope", "scope is a space-separated string");
  return [...new Set(value.split(" ").filter(Boolean))];
}

/**
 * The scopes granted.
 *
 * @param requested The request's `scope` parameter, if any.
 * @param allowed The grant's own scopes (an ID-JAG's `scope` claim), if it has any: the upper bound.
 * @param offered The scopes the resource offers.
 * @param resource The resource (for the message).
 * @returns The granted scopes, in the order asked.
 * @throws {TokenError} `invalid_scope` for a scope past the grant's, or one the resource does not offer.
 */
export function grantedScopes(
  requested: readonly string[] | undefined,
  allowed: readonly string[] | undefined,
  offered: readonly string[],
  resource: string,
): string[] {
  const asked = requested ?? allowed ?? [];
  if (allowed !== undefined) {
    const beyond = asked.filter((scope) => !allowed.includes(scope));
    if (beyond.length > 0) {
      throw new TokenError("invalid_scope", `the grant does not allow the scope ${beyond.join(" ")}`);
    }
  }
  const unknown = asked.filter((scope) => !offered.includes(scope));
  if (unknown.length > 0) {
    throw new TokenError("invalid_scope", `the resource ${resource} does not offer the scope ${unknown.join(" ")}`);
  }
  return [...asked];
}
