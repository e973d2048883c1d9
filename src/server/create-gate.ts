/**
 * `createGate()`: a server's gate from its options, each optional part brought by its value (`cors()`, the `auth`
 * that `protectedResource()` or `jwtAuth()` made), as `createServer()` of either entry does.
 *
 * @module
 */
import { AUTH_EDGE, type ServerAuth } from "./auth.ts";
import type { authEdge } from "./auth-edge.ts";
import type { CorsEdge, Edge } from "./edge.ts";
import { assembleGate, type Gate, type GateOptions } from "./gate.ts";

/**
 * Creates a server's gate from its options. `createServer()` does it once; listeners get the server's
 * gate from `attachListener(server)`.
 *
 * @param options The Host and Origin allow-lists, `cors` and `auth`.
 * @returns The gate.
 * @throws {TypeError} For `cors` given its options rather than `cors()`'s value, or `auth` a plain object rather
 *   than what `protectedResource()` or `jwtAuth()` made.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createGate } from "./create-gate.ts";
 * import { protectedResource } from "./auth-edge.ts";
 *
 * const gate = createGate({
 *   auth: protectedResource({
 *     resource: "https://api.example.com",
 *     authorizationServers: ["https://auth.example.com"],
 *     verify: (token) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
 *   }),
 * });
 * const request = (headers: Record<string, string>) => new Request("https://api.example.com/mcp", { headers });
 * assert.equal((await gate.authenticate(request({ authorization: "Bearer good" })))?.subject, "ada");
 * const refusal = await gate.authenticate(request({})).catch((error) => error);
 * assert.equal(refusal.code, "unauthenticated"); // 401 on HTTP, UNAUTHENTICATED on gRPC
 * assert.equal(
 *   gate.challenge(refusal, "/mcp"),
 *   'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp"',
 * );
 * assert.equal(gate.metadata("GET", "/.well-known/oauth-protected-resource/mcp")?.status, 200);
 * ```
 */
export function createGate(options: GateOptions): Gate {
  return assembleGate(options, edgeOf(options));
}

/**
 * The optional parts of a server's edge, each brought by its option's value (`cors`, as `cors()` built it; `auth`,
 * as `protectedResource()` or `jwtAuth()` made it, served with the `resultStore` its DPoP proofs are remembered in),
 * so that a server bundles none it is not given: what `createServer()` of either entry hands the `Server`.
 *
 * @param options `cors`, `auth` and `resultStore`.
 * @returns The edge.
 * @throws {TypeError} For `cors` given its options rather than `cors()`'s value, or `auth` a plain object rather
 *   than what `protectedResource()` or `jwtAuth()` made.
 */
export function edgeOf(options: Pick<GateOptions, "cors" | "auth" | "resultStore">): Edge {
  return {
    cors: options.cors === undefined ? undefined : builtCors(options.cors),
    auth: options.auth === undefined ? undefined : carriedEdge(options.auth)(options.auth, options),
  };
}

/** The code that serves a `ServerAuth`, as `protectedResource()` (and so `jwtAuth()`) attaches it. */
function carriedEdge(auth: ServerAuth): typeof authEdge {
  const edge = (auth as { [AUTH_EDGE]?: typeof authEdge })[AUTH_EDGE];
  if (edge !== undefined) return edge;
  throw new TypeError(
    "createServer({ auth }) takes protectedResource({ ... }) or jwtAuth({ ... }), not a plain object " +
      '(import { protectedResource } from "@mcplite/sdk/auth")',
  );
}

/**
 * The CORS part of the edge, as `cors()` built it: the value brings its code, so a server bundles none it is
 * not given; a plain object of options is refused, naming the fix.
 *
 * @param cors What `cors()` built.
 * @returns It, as the edge's CORS part.
 * @throws {TypeError} When `cors` is its options rather than `cors()`'s value.
 */
export function builtCors(cors: object): CorsEdge {
  if (typeof (cors as Partial<CorsEdge>).serve !== "function") {
    throw new TypeError(
      'createServer({ cors }) takes cors({ origins }) (import { cors } from "@mcplite/sdk")',
    );
  }
  return cors as CorsEdge;
}
