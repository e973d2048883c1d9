/**
 * The server as an OAuth 2.1 resource server (MCP 2025-11-25 and 2026-07-28, Authorization): what
 * `createServer({ auth })` takes, and how a request's bearer token is read.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/call-context.ts";
import { bearerFromProtocols } from "../codec/websocket-bearer.ts";
import type { Capability } from "./server-capability.ts";

/**
 * Where a {@link ServerAuth} made by `jwtAuth()` or `protectedResource()` carries the code that serves it (its
 * protected-resource metadata, challenges, DPoP checks), so that a server of either entry bundles it only when
 * given one (a symbol-keyed property: JSON and the type leave it behind).
 */
export const AUTH_EDGE: unique symbol = /* @__PURE__ */ Symbol();

/**
 * How the server authenticates callers: its identity as a protected resource (RFC 9728 metadata) and
 * a verifier for access tokens. `jwtAuth()` from `@mcplite/sdk/auth` makes one for JWT access tokens, and
 * `protectedResource()` from there one with your own `verify` (opaque tokens, e.g. RFC 7662 introspection):
 * `createServer({ auth })` takes only what they make.
 */
export interface ServerAuth {
  /**
   * This server's canonical URI (RFC 8707 §2; RFC 9728 `resource`): tokens must be issued for it. When
   * the server speaks several wires, its origin (or base path) covers every endpoint.
   */
  readonly resource: string;
  /** The authorization servers that issue tokens for it (RFC 9728 `authorization_servers`). */
  readonly authorizationServers: readonly string[];
  /** The scopes it understands (RFC 9728 `scopes_supported`). */
  readonly scopesSupported?: readonly string[];
  /** Scopes every request needs; sent as the `scope` of a 401 challenge. */
  readonly requiredScopes?: readonly string[];
  /** A human-readable name (RFC 9728 `resource_name`). */
  readonly resourceName?: string;
  /** A page describing the resource for developers (RFC 9728 `resource_documentation`). */
  readonly resourceDocumentation?: string;
  /**
   * Verifies an access token. Resolves with the caller, or `undefined` (or throws) when the token is not
   * valid for this resource; a thrown `Error`'s message becomes the challenge's `error_description`, so
   * it must not contain the token. Throw a `ProtocolError` with `ErrorCode.Unavailable` (and
   * `data.retryAfterMs`) when it cannot decide because a service it needs is down: the request gets 503
   * with `Retry-After` (gRPC `UNAVAILABLE`), and the client keeps its token.
   *
   * @param token The bearer token.
   * @param request The HTTP request (headers only; do not read its body).
   */
  verify(token: string, request: Request): Promise<AuthInfo | undefined> | AuthInfo | undefined;
  /**
   * DPoP (RFC 9449): when set, the server takes `Authorization: DPoP <token>` with a `DPoP` proof, binds
   * the token to the proof's key (its `cnf.jkt`, RFC 9449 §6, read from the caller's `claims`), refuses
   * a replayed proof, and challenges with the `DPoP` scheme (§7.1). `jwtAuth({ dpop })` sets it. Opaque:
   * `protectedResource({ …, dpop })` takes the one a `jwtAuth({ dpop })` value carries.
   */
  readonly dpop?: Capability<"dpop">;
}

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="; RFC 9449 §7.1
// gives the DPoP scheme the same token68 syntax.
const BEARER = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What the `Authorization` header held. */
export type BearerToken =
  | { readonly kind: "none" }
  | { readonly kind: "malformed" }
  | {
    readonly kind: "token";
    readonly token: string;
    /** How it was presented: `Bearer` (RFC 6750 §2.1) or `DPoP` (RFC 9449 §7.1). */
    readonly scheme?: "DPoP";
  };

/**
 * Reads the access token of a request from its `Authorization` header (RFC 6750 §2.1; the `DPoP`
 * scheme of RFC 9449 §7.1 marks it `scheme: "DPoP"`), or, on a
 * WebSocket upgrade without one, from the subprotocol a browser can set (`bearerProtocol()` in
 * `src/codec/websocket-bearer.ts`). A token in the query string (§2.3) or a form body (§2.2) is never
 * read: URLs end up in logs.
 *
 * @param request The request.
 * @returns The token, none, or a malformed header.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bearerToken } from "./auth.ts";
 * const with_ = (authorization: string) => new Request("http://localhost/mcp", { headers: { authorization } });
 * assert.deepEqual(bearerToken(with_("Bearer abc.def")), { kind: "token", token: "abc.def" });
 * assert.deepEqual(bearerToken(with_("DPoP abc.def")), { kind: "token", token: "abc.def", scheme: "DPoP" });
 * assert.deepEqual(bearerToken(with_("Basic dXNlcg==")), { kind: "malformed" });
 * assert.deepEqual(bearerToken(new Request("http://localhost/mcp?access_token=abc")), { kind: "none" });
 * ```
 */
export function bearerToken(request: Request): BearerToken {
  const header = request.headers.get("authorization");
  if (header === null) return webSocketBearer(request);
  const match = BEARER.exec(header);
  if (match === null) return { kind: "malformed" };
  return match[1].toLowerCase() === "dpop"
    ? { kind: "token", token: match[2], scheme: "DPoP" }
    : { kind: "token", token: match[2] };
}

/** The token a WebSocket upgrade offered as a subprotocol (RFC 6455 §4.1), when it has no `Authorization`. */
function webSocketBearer(request: Request): BearerToken {
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return { kind: "none" };
  const token = bearerFromProtocols(request.headers.get("sec-websocket-protocol"));
  if (token === undefined) return { kind: "none" };
  return BEARER_TOKEN.test(token) ? { kind: "token", token } : { kind: "malformed" };
}
