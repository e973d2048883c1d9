/**
 * Protecting a server's routes with OAuth bearer tokens (MCP 2025-11-25 and 2026-07-28, Authorization):
 * Protected Resource Metadata (RFC 9728) at `/.well-known/oauth-protected-resource` and its
 * path-suffixed form for each endpoint, 401 challenges that point at it, 403 `insufficient_scope` for
 * step-up, and the caller handed to the bindings as `host.auth`.
 *
 * @module
 */
import type { AuthInfo } from "../core/call-context.ts";
import { ErrorCode, ProtocolError } from "../core/error.ts";
import { holdsScopes, NEEDED_SCOPES, type ScopedAuthInfo } from "../core/scopes.ts";
import { bearerToken, type ServerAuth } from "./auth.ts";
import type { Host, Route } from "./binding.ts";
import { bearerChallenge, type ChallengeParams } from "./challenge.ts";
import { withHeaders } from "./cors.ts";
import { JSON_HEADERS } from "./responses.ts";

/** Where the metadata lives (RFC 9728 §3). */
export const METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * The Protected Resource Metadata document (RFC 9728 §2).
 *
 * @param auth The server's authentication.
 * @returns The document.
 */
export function protectedResourceMetadata(auth: ServerAuth): Record<string, unknown> {
  const document: Record<string, unknown> = {
    resource: auth.resource,
    authorization_servers: [...auth.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (auth.scopesSupported !== undefined) document.scopes_supported = [...auth.scopesSupported];
  if (auth.resourceName !== undefined) document.resource_name = auth.resourceName;
  if (auth.resourceDocumentation !== undefined) document.resource_documentation = auth.resourceDocumentation;
  return document;
}

/**
 * The origin of the server's resource, which the metadata URLs in challenges start with.
 *
 * @param auth The server's authentication.
 * @returns The origin, e.g. `https://api.example.com`.
 * @throws {TypeError} When `resource` is not an absolute URL.
 */
export function resourceOrigin(auth: ServerAuth): string {
  try {
    return new URL(auth.resource).origin;
  } catch {
    throw new TypeError(`auth.resource must be an absolute URL, got ${JSON.stringify(auth.resource)}`);
  }
}

/**
 * The URL of the metadata that covers an endpoint: the well-known path followed by the endpoint's path
 * (RFC 9728 §3.1), at the resource's origin.
 *
 * @param origin The resource's origin ({@link resourceOrigin}).
 * @param pathname The endpoint's path, e.g. `/mcp`.
 * @returns The URL.
 */
export function resourceMetadataUrl(origin: string, pathname: string): string {
  return origin + METADATA_PATH + pathname;
}

/** What {@link authenticate} found: the caller, or the error to refuse the request with and its challenge. */
export type Authentication =
  | { readonly caller: ScopedAuthInfo; readonly refusal?: undefined; readonly challenge?: undefined }
  | { readonly caller?: undefined; readonly refusal: ProtocolError; readonly challenge: string };

/**
 * Authenticates a request with the server's authentication, whatever wire it came on: reads its bearer
 * token (RFC 6750 §2.1, the `Authorization` header only), verifies it, and checks the scopes every
 * request needs. A refusal is `unauthenticated` (401, gRPC `UNAUTHENTICATED`) with a challenge that
 * points at the metadata (`error="invalid_token"` when a token was sent), or `permission_denied` (403,
 * `PERMISSION_DENIED`) with an `insufficient_scope` challenge. No message or challenge holds the token.
 *
 * @param auth The server's authentication.
 * @param request The request (its headers and URL; its body is not read).
 * @param resourceMetadata The metadata URL challenges point at ({@link resourceMetadataUrl}).
 * @returns The caller (with its token), or the refusal and the `WWW-Authenticate` value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { authenticate } from "./protected-resource.ts";
 * const auth = {
 *   resource: "https://api.example.com",
 *   authorizationServers: ["https://auth.example.com"],
 *   verify: (token: string) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
 * };
 * const metadata = "https://api.example.com/.well-known/oauth-protected-resource/mcp";
 * const ask = (headers: Record<string, string>) =>
 *   authenticate(auth, new Request("https://api.example.com/mcp", { headers }), metadata);
 * assert.equal((await ask({ authorization: "Bearer good" })).caller?.subject, "ada");
 * assert.equal((await ask({})).challenge, `Bearer resource_metadata="${metadata}"`);
 * assert.match((await ask({ authorization: "Bearer bad" })).challenge!, /^Bearer error="invalid_token"/);
 * ```
 */
export async function authenticate(
  auth: ServerAuth,
  request: Request,
  resourceMetadata: string,
): Promise<Authentication> {
  const refuse = (code: ErrorCode, message: string, params: Omit<ChallengeParams, "resourceMetadata">) => ({
    refusal: new ProtocolError(code, message),
    challenge: bearerChallenge({ ...params, resourceMetadata }),
  });
  const bearer = bearerToken(request);
  if (bearer.kind === "none") {
    return refuse(ErrorCode.Unauthenticated, "Unauthorized: send an access token (Authorization: Bearer)", {
      scope: auth.requiredScopes,
    });
  }
  if (bearer.kind === "malformed") {
    const reason = "the Authorization header is not a Bearer token";
    return refuse(ErrorCode.Unauthenticated, `Unauthorized: ${reason}`, {
      error: "invalid_token",
      description: reason,
      scope: auth.requiredScopes,
    });
  }
  let info: AuthInfo | undefined;
  let reason = "the access token is not valid for this resource";
  try {
    info = await auth.verify(bearer.token, request);
  } catch (error) {
    if (error instanceof Error && error.message !== "" && !error.message.includes(bearer.token)) {
      reason = error.message;
    }
  }
  if (info === undefined) {
    return refuse(ErrorCode.Unauthenticated, `Unauthorized: ${reason}`, {
      error: "invalid_token",
      description: reason,
      scope: auth.requiredScopes,
    });
  }
  if (!holdsScopes(auth.requiredScopes, info)) {
    return refuse(ErrorCode.PermissionDenied, "Insufficient scope", {
      error: "insufficient_scope",
      scope: auth.requiredScopes,
    });
  }
  return { caller: { ...info, token: bearer.token } };
}

/**
 * The step-up challenge for a call the pipeline refused for a scope its caller lacks (MCP 2025-11-25,
 * Authorization, Scope Challenge Handling): `insufficient_scope` naming the scopes that were needed.
 *
 * @param caller The caller {@link authenticate} made, after the call.
 * @param resourceMetadata The metadata URL.
 * @returns The `WWW-Authenticate` value, or `undefined` when no scope was refused.
 */
export function stepUpChallenge(caller: ScopedAuthInfo, resourceMetadata: string): string | undefined {
  const needed = caller[NEEDED_SCOPES];
  return needed === undefined
    ? undefined
    : bearerChallenge({ error: "insufficient_scope", scope: needed, resourceMetadata });
}

/**
 * Protects every route with the server's authentication and adds the metadata routes: at the root
 * well-known path, and at the well-known path followed by each endpoint's path (RFC 9728 §3.1).
 *
 * @param routes The bindings' routes.
 * @param auth The server's authentication.
 * @returns The routes to serve.
 * @throws {TypeError} When `resource` is not an absolute URL.
 */
export function protectRoutes(routes: ReadonlyMap<string, Route>, auth: ServerAuth): Map<string, Route> {
  const origin = resourceOrigin(auth);
  const metadata = metadataRoute(JSON.stringify(protectedResourceMetadata(auth)));
  const protectedRoutes = new Map<string, Route>([[METADATA_PATH, metadata]]);
  for (const [path, route] of routes) {
    protectedRoutes.set(path, protect(route, auth, origin));
    protectedRoutes.set(METADATA_PATH + path, metadata);
  }
  return protectedRoutes;
}

const NOT_ALLOWED = new ProtocolError(ErrorCode.MethodNotAllowed, "Method not allowed: use GET");

function metadataRoute(body: string): Route {
  const headers = { ...JSON_HEADERS, "cache-control": "public, max-age=3600" };
  const refuse = (error: ProtocolError) =>
    new Response(JSON.stringify({ error: error.code, error_description: error.message }), {
      status: error.code === ErrorCode.MethodNotAllowed ? 405 : 403,
      headers: error.code === ErrorCode.MethodNotAllowed ? { ...JSON_HEADERS, allow: "GET, HEAD" } : JSON_HEADERS,
    });
  return {
    methods: "GET, HEAD",
    handle: (request) => {
      if (request.method !== "GET" && request.method !== "HEAD") return Promise.resolve(refuse(NOT_ALLOWED));
      return Promise.resolve(new Response(request.method === "HEAD" ? null : body, { headers }));
    },
    refuse,
  };
}

function protect(route: Route, auth: ServerAuth, origin: string): Route {
  return {
    ...route,
    async handle(request: Request, host: Host): Promise<Response> {
      const resourceMetadata = resourceMetadataUrl(origin, new URL(request.url).pathname);
      const { caller, refusal, challenge } = await authenticate(auth, request, resourceMetadata);
      if (caller === undefined) return withHeaders(route.refuse(refusal), [["www-authenticate", challenge]]);
      const response = await route.handle(request, { env: host.env, waitUntil: host.waitUntil, auth: caller });
      if (response.status !== 403) return response;
      const stepUp = stepUpChallenge(caller, resourceMetadata);
      return stepUp === undefined ? response : withHeaders(response, [["www-authenticate", stepUp]]);
    },
  };
}
