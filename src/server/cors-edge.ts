/**
 * `cors()`: cross-origin access for browser pages (Fetch Standard §3.2, CORS protocol), as a value a
 * server is given: the policy, and the `fetch` wrapper that answers preflights and marks answers.
 *
 * @module
 */
import { pathOf } from "../internal/url.ts";
import type { Route } from "./binding-contract.ts";
import { type Cors, type CorsOptions, createCors } from "./cors.ts";
import type { CorsEdge, ExecutionContextLike, ServerFetch } from "./edge.ts";
import { notFound, routeFor } from "./fetch.ts";
import type { RequestGuard } from "./guard.ts";
import type { Capability } from "./server-capability.ts";

/**
 * Cross-origin access, for `createServer({ cors: cors({ origins }) })` of `@mcplite/sdk` and `@mcplite/sdk/lite`
 * alike: the value brings its code, so a server without it bundles none.
 *
 * @param options The origins allowed, credentials, extra headers and the preflight's max age.
 * @returns The CORS part of the server's edge (opaque: `createServer({ cors })` takes it as it is).
 * @throws {TypeError} For `"*"` with credentials, or an origin that is not `scheme://host[:port]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cors, createServer } from "../lite/mod.ts";
 *
 * const server = createServer({ name: "web", version: "1.0.0", cors: cors({ origins: ["https://app.example"] }) });
 * const preflight = await server.fetch(new Request("http://localhost/mcp-lite/v1/calltools", {
 *   method: "OPTIONS",
 *   headers: { origin: "https://app.example", "access-control-request-method": "POST" },
 * }));
 * assert.equal(preflight.status, 204);
 * assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
 * ```
 */
export function cors(options: CorsOptions): Capability<"cors"> {
  return corsEdge(options);
}

/**
 * The CORS part of the server's edge, what `cors()` builds.
 *
 * @param options The origins allowed, credentials, extra headers and the preflight's max age.
 * @returns The edge's CORS part.
 */
export function corsEdge(options: CorsOptions): CorsEdge {
  const policy = createCors(options);
  return {
    capability: "cors",
    cors: policy,
    serve: (fetch, routes, guard) => withCors(fetch, routes, guard, policy),
  };
}

/** Answers CORS preflights for served routes, and marks every other answer for the request's origin. */
function withCors(
  fetch: ServerFetch,
  routes: ReadonlyMap<string, Route>,
  guard: RequestGuard,
  cors: Cors,
): ServerFetch {
  return async function fetchWithCors(request: Request, env?: unknown, ctx?: ExecutionContextLike): Promise<Response> {
    if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      const url = request.url;
      const path = pathOf(url);
      const route = routeFor(routes, path);
      if (route === undefined) return notFound();
      try {
        guard(request, url, ctx);
      } catch {
        return new Response(null, { status: 403, headers: { vary: "Origin" } });
      }
      return cors.preflight(request, route.methods);
    }
    const response = await fetch(request, env, ctx);
    // A WebSocket's 101 (RFC 6455 §4.2.2) is no CORS response, and its runtime object must stay itself.
    return response.status === 101 ? response : cors.decorate(request, response);
  };
}
