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
 * Protects every route with the server's authentication and adds the metadata routes: at the root
 * well-known path, and at the well-known path followed by each endpoint's path (RFC 9728 §3.1).
 *
 * @param routes The bindings' routes.
 * @param auth The server's authentication.
 * @returns The routes to serve.
 * @throws {TypeError} When `resource` is not an absolute URL.
 */
export function protectRoutes(routes: ReadonlyMap<string, Route>, auth: ServerAuth): Map<string, Route> {
  let origin: string;
  try {
    origin = new URL(auth.resource).origin;
  } catch {
    throw new TypeError(`auth.resource must be an absolute URL, got ${JSON.stringify(auth.resource)}`);
  }
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
  const challenged = (
    request: Request,
    code: ErrorCode,
    message: string,
    params: Omit<ChallengeParams, "resourceMetadata">,
  ) => {
    const resourceMetadata = origin + METADATA_PATH + new URL(request.url).pathname;
    const challenge = bearerChallenge({ ...params, resourceMetadata });
    return withHeaders(route.refuse(new ProtocolError(code, message)), [["www-authenticate", challenge]]);
  };
  return {
    ...route,
    async handle(request: Request, host: Host): Promise<Response> {
      const bearer = bearerToken(request);
      if (bearer.kind === "none") {
        return challenged(
          request,
          ErrorCode.Unauthenticated,
          "Unauthorized: send an access token (Authorization: Bearer)",
          {
            scope: auth.requiredScopes,
          },
        );
      }
      if (bearer.kind === "malformed") {
        return challenged(
          request,
          ErrorCode.Unauthenticated,
          "Unauthorized: the Authorization header is not a Bearer token",
          {
            error: "invalid_token",
            description: "the Authorization header is not a Bearer token",
            scope: auth.requiredScopes,
          },
        );
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
        return challenged(request, ErrorCode.Unauthenticated, `Unauthorized: ${reason}`, {
          error: "invalid_token",
          description: reason,
          scope: auth.requiredScopes,
        });
      }
      if (!holdsScopes(auth.requiredScopes, info)) {
        return challenged(request, ErrorCode.PermissionDenied, "Insufficient scope", {
          error: "insufficient_scope",
          scope: auth.requiredScopes,
        });
      }
      const caller: ScopedAuthInfo = { ...info, token: bearer.token };
      const response = await route.handle(request, { env: host.env, waitUntil: host.waitUntil, auth: caller });
      const needed = caller[NEEDED_SCOPES];
      if (needed === undefined || response.status !== 403) return response;
      const resourceMetadata = origin + METADATA_PATH + new URL(request.url).pathname;
      const challenge = bearerChallenge({ error: "insufficient_scope", scope: needed, resourceMetadata });
      return withHeaders(response, [["www-authenticate", challenge]]);
    },
  };
}
