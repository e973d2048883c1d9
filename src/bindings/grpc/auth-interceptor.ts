/**
 * The server's gate on plain gRPC (`serveGrpc()`), which does not go through `server.fetch`: a Connect
 * interceptor that authenticates each call's `authorization` metadata with the gate `server.fetch`
 * uses, and maps its refusal to `UNAUTHENTICATED` (or `PERMISSION_DENIED`) carrying the challenge the
 * refusal calls for as `www-authenticate` in the error's metadata (trailers on gRPC, headers on
 * Connect). A call the pipeline refuses for a missing scope gets the step-up challenge.
 *
 * @module
 */
// Connect documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { ProtocolError } from "../../errors/error.ts";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import { type AuthInfo, callerOf } from "../../core/mod.ts";
import { type Gate, retryAfterOf, withCaller } from "../../server/mod.ts";
import { HOST_KEY } from "./host-key.ts";
import { errorToConnectError } from "./status.ts";

/**
 * Creates the interceptor that authenticates every call of the service through the server's gate.
 *
 * @param gate The server's gate (`attachListener(server).gate`), made with `auth`.
 * @returns The interceptor, for Connect's router or adapter options (`interceptors`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRouterTransport } from "@connectrpc/connect";
 * import { createClient } from "@connectrpc/connect";
 * import { createServer } from "../../../mod.ts";
 * import { protectedResource } from "../../auth/mod.ts";
 * import { attachListener } from "../../binding.ts";
 * import { MCPLite } from "./messages.ts";
 * import { createGrpcRoutes } from "./service.ts";
 * import { authInterceptor } from "./auth-interceptor.ts";
 *
 * const auth = protectedResource({
 *   resource: "https://api.example.com",
 *   authorizationServers: ["https://auth.example.com"],
 *   verify: (token: string) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
 * });
 * const { core, gate } = attachListener(createServer({ name: "demo", version: "1.0.0", auth }));
 * const transport = createRouterTransport(createGrpcRoutes(core), { router: { interceptors: [authInterceptor(gate)] } });
 * const client = createClient(MCPLite, transport);
 * await assert.rejects(client.getTools({}), /send an access token/);
 * assert.deepEqual((await client.getTools({}, { headers: { authorization: "Bearer good" } })).tools, []);
 * ```
 */
export function authInterceptor(gate: Gate): Interceptor {
  const authenticateCall = callAuthenticator(gate);
  return (next) => async (request) => {
    const { caller, stepUp } = await authenticateCall(request.url, request.header, request.requestMethod);
    // Who the caller is for its own budgets (a push stream's, per caller): its subject, else its address (serveGrpc).
    const host = request.contextValues.get(HOST_KEY);
    request.contextValues.set(HOST_KEY, { ...withCaller(host, caller), caller: callerOf(caller) ?? host.caller });
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
  /** Who called (`undefined` when the server has no `auth`). */
  caller: AuthInfo | undefined;
  /** Adds the step-up challenge to a `PERMISSION_DENIED` refusal; returns any other error as it is. */
  stepUp: (error: unknown) => unknown;
}

/**
 * Creates the check that authenticates one call from its URL, metadata and HTTP method (default `POST`)
 * through the server's gate:
 * the interceptor's, and the direct unary path's on `serveGrpc()`, so that both refuse with the same
 * trailers.
 *
 * @param gate The server's gate.
 * @returns The check, which rejects with `UNAUTHENTICATED` (or `PERMISSION_DENIED`) carrying the
 *   `www-authenticate` challenge of the gate's refusal in the error's metadata.
 */
export function callAuthenticator(
  gate: Gate,
): (url: string, header: Headers, method?: string) => Promise<AuthenticatedCall> {
  return async (url, header, method = "POST") => {
    // The metadata URL of a challenge follows the method's path (RFC 9728 §3.1).
    const path = new URL(url).pathname;
    let caller: AuthInfo | undefined;
    try {
      // ServerAuth.verify takes a fetch Request; this one carries the call's metadata and no body.
      // Its method is the one a DPoP proof names (RFC 9449 §4.2): POST for every gRPC call (gRPC over
      // HTTP2, "Requests"), GET or POST on Connect.
      caller = await gate.authenticate(new Request(url, { method, headers: header }));
    } catch (refusal) {
      const error = challenged(errorToConnectError(refusal), gate.challenge(refusal, path));
      // The edge's observers (`otel()`): gRPC answers 200 with the status in its trailers (gRPC over
      // HTTP/2 protocol, Responses), Connect and gRPC-Web with the status's HTTP equivalent.
      gate.refused?.(
        refusal as ProtocolError,
        { method, url, headers: header },
        /^application\/grpc(?!-web)/.test(header.get("content-type") ?? "") ? 200 : codeToHttpStatus(error.code),
      );
      const nonce = gate.dpopNonce(refusal); // RFC 9449 §8.1, as HTTP's DPoP-Nonce header
      if (nonce !== undefined) error.metadata.set("dpop-nonce", nonce);
      // UNAVAILABLE (the issuer is down) says when to retry, as HTTP's Retry-After does.
      const retryAfter = retryAfterOf(refusal);
      if (retryAfter !== undefined) error.metadata.set("retry-after", retryAfter);
      throw error;
    }
    return { caller, stepUp: (error) => withStepUp(error, gate, path) };
  };
}

function challenged(error: ConnectError, challenge: string | undefined): ConnectError {
  if (challenge !== undefined) error.metadata.set("www-authenticate", challenge);
  return error;
}

/**
 * Adds the step-up challenge (MCP 2025-11-25, Authorization, Scope Challenge Handling), derived from
 * the refusal the call ended with (the error's cause), to the `PERMISSION_DENIED` it became on the wire.
 */
function withStepUp(error: unknown, gate: Gate, path: string): unknown {
  if (!(error instanceof ConnectError) || error.code !== Code.PermissionDenied) return error;
  return challenged(error, gate.challenge(error.cause, path));
}

async function* rethrowing<T>(messages: AsyncIterable<T>, map: (error: unknown) => unknown): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (error) {
    throw map(error);
  }
}
