/**
 * An opaque-token `ServerAuth` for tests of what a caller may see and use: each token stands for a
 * subject and its scopes, looked up in a table (as an RFC 7662 introspection would answer).
 */
import { protectedResource, type ServerAuth } from "../../src/auth/mod.ts";

/** The resource these servers protect: the in-process origin, covering every wire. */
export const RESOURCE = "http://localhost";
/** The root metadata URL challenges point under. */
export const METADATA = `${RESOURCE}/.well-known/oauth-protected-resource`;

/** Tokens by name: `reader` holds `docs:read`, `admin` holds `docs:read docs:admin`, `stranger` none. */
export const TOKENS: Readonly<Record<string, readonly string[]>> = {
  reader: ["docs:read"],
  admin: ["docs:read", "docs:admin"],
  stranger: [],
};

/**
 * An authentication that accepts {@link TOKENS}, as `protectedResource()` makes it.
 *
 * @param resource The resource (default {@link RESOURCE}).
 * @param more More of the `ServerAuth` (`requiredScopes`…).
 * @returns The authentication.
 */
export function opaqueAuth(resource = RESOURCE, more: Partial<ServerAuth> = {}): ServerAuth {
  return protectedResource({
    resource,
    authorizationServers: ["https://auth.example.com"],
    scopesSupported: ["docs:read", "docs:admin"],
    verify: (token) => {
      const scopes = TOKENS[token];
      return scopes === undefined ? undefined : { subject: token, clientId: "app", scopes: [...scopes] };
    },
    ...more,
  });
}

/** The `Authorization` header of a token. */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
