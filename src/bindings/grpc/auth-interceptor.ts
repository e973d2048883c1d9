/**
 * The server's authentication on plain gRPC (`serveGrpc()`), which does not go through `server.fetch`
 * and its protected routes: a Connect interceptor that reads the `authorization` metadata, verifies it
 * with the same {@link authenticate} as every fetch route, and refuses with `UNAUTHENTICATED` (or
 * `PERMISSION_DENIED`) carrying the `WWW-Authenticate` challenge in the error's metadata (trailers on
 * gRPC, headers on Connect). A call the pipeline refuses for a missing scope gets the step-up challenge.
 *
 * @module
 */
// Connect documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { ScopedAuthInfo } from "../../core/scopes.ts";
import type { ServerAuth } from "../../server/auth.ts";
import { authenticate, resourceMetadataUrl, resourceOrigin, stepUpChallenge } from "../../server/protected-resource.ts";
import { HOST_KEY } from "./service.ts";
import { errorToConnectError } from "./status.ts";

/**
 * Creates the interceptor that authenticates every call of the service.
 *
 * @param auth The server's authentication.
 * @returns The interceptor, for Connect's router or adapter options (`interceptors`).
 * @throws {TypeError} When `resource` is not an absolute URL.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRouterTransport } from "@connectrpc/connect";
 * import { createClient } from "@connectrpc/connect";
 * import { createServer } from "../../../mod.ts";
 * import { MCPLite } from "./messages.ts";
 * import { createGrpcRoutes } from "./service.ts";
 * import { authInterceptor } from "./auth-interceptor.ts";
 *
 * const auth = {
 *   resource: "https://api.example.com",
 *   authorizationServers: ["https://auth.example.com"],
 *   verify: (token: string) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
 * };
 * const core = createServer({ name: "demo", version: "1.0.0" })["~core"];
 * const transport = createRouterTransport(createGrpcRoutes(core), { router: { interceptors: [authInterceptor(auth)] } });
 * const client = createClient(MCPLite, transport);
 * await assert.rejects(client.getTools({}), /send an access token/);
 * assert.deepEqual((await client.getTools({}, { headers: { authorization: "Bearer good" } })).tools, []);
 * ```
 */
export function authInterceptor(auth: ServerAuth): Interceptor {
  const authenticateCall = callAuthenticator(auth);
  return (next) => async (request) => {
    const { caller, stepUp } = await authenticateCall(request.url, request.header);
    const host = request.contextValues.get(HOST_KEY);
    request.contextValues.set(HOST_KEY, { env: host.env, waitUntil: host.waitUntil, auth: caller });
    let response;
    try {
      response = await next(request);
    } catch (error) {
      throw stepUp(error);
    }
    // A server stream fails while its messages are read: the step-up goes on that error.
    return response.stream ? { ...response, message: rethrowing(response.message, stepUp) } : response;
  };
}

/** An authenticated call: its caller, and the step-up challenge to add to a refusal for a missing scope. */
export interface AuthenticatedCall {
  /** Who called. */
  caller: ScopedAuthInfo;
  /** Adds the step-up challenge to a `PERMISSION_DENIED` refusal; returns any other error as it is. */
  stepUp: (error: unknown) => unknown;
}

/**
 * Creates the check that authenticates one call from its URL and metadata: the interceptor's, and the
 * direct unary path's on `serveGrpc()`, so that both refuse with the same trailers.
 *
 * @param auth The server's authentication.
 * @returns The check, which rejects with `UNAUTHENTICATED` (or `PERMISSION_DENIED`) carrying the
 *   `www-authenticate` challenge in the error's metadata.
 * @throws {TypeError} When `resource` is not an absolute URL.
 */
export function callAuthenticator(auth: ServerAuth): (url: string, header: Headers) => Promise<AuthenticatedCall> {
  const origin = resourceOrigin(auth);
  return async (url, header) => {
    const resourceMetadata = resourceMetadataUrl(origin, new URL(url).pathname);
    // ServerAuth.verify takes a fetch Request; this one carries the call's metadata and no body.
    const { caller, refusal, challenge } = await authenticate(
      auth,
      new Request(url, { headers: header }),
      resourceMetadata,
    );
    if (caller === undefined) throw challenged(errorToConnectError(refusal), challenge);
    return { caller, stepUp: (error) => withStepUp(error, caller, resourceMetadata) };
  };
}

function challenged(error: ConnectError, challenge: string): ConnectError {
  error.metadata.set("www-authenticate", challenge);
  return error;
}

/** Adds the step-up challenge to a refusal for a scope the caller lacks (MCP 2025-11-25, Authorization). */
function withStepUp(error: unknown, caller: ScopedAuthInfo, resourceMetadata: string): unknown {
  if (!(error instanceof ConnectError) || error.code !== Code.PermissionDenied) return error;
  const challenge = stepUpChallenge(caller, resourceMetadata);
  return challenge === undefined ? error : challenged(error, challenge);
}

async function* rethrowing<T>(messages: AsyncIterable<T>, map: (error: unknown) => unknown): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (error) {
    throw map(error);
  }
}
