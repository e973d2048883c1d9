/**
 * `server.fetch`, the HTTP carrier: finds the route a binding serves at the request's path, and maps
 * the gate's decisions to HTTP on the way: a Host or Origin refusal in the route's own shape, 401/403
 * with `WWW-Authenticate` for a refused caller and for a call refused for a scope (step-up), the
 * Protected Resource Metadata at its well-known paths (RFC 9728 §3), CORS preflights and headers.
 * Without `auth` and `cors` it is the guard and a table lookup, nothing more.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { isObject } from "../internal/is-object.ts";
import { pathOf } from "../internal/url.ts";
import { type Host, NO_HOST, type Route } from "./binding-contract.ts";
import type { Edge, ExecutionContextLike, ServerFetch } from "./edge.ts";
import type { Gate } from "./gate.ts";
import type { Budgets } from "../core/instance/budgets.ts";
import { budgetedRoutes } from "./budget-route.ts";
import { JSON_HEADERS } from "./responses.ts";

export type { ExecutionContextLike, ServerFetch } from "./edge.ts";

const NOT_FOUND_BODY = JSON.stringify({ error: { code: "not_found", message: "Not found: no endpoint at this path" } });

/**
 * Creates the `fetch` of a server: its bindings' routes behind its gate.
 *
 * @param routes The bindings' routes, by full path.
 * @param gate The server's gate.
 * @param onEnv Receives the platform's `env` of each request that has one.
 * @param edge The optional parts of the edge: CORS and OAuth, as the server was given them.
 * @param budgets The server's budgets across requests (`limits`) and its `maxBodyBytes`; none: no budgets.
 * @returns The fetch.
 */
export function createFetch(
  routes: ReadonlyMap<string, Route>,
  gate: Gate,
  onEnv: (env: Readonly<Record<string, unknown>>) => void,
  edge: Edge = {},
  budgets?: { readonly budgets: Budgets; readonly maxBodyBytes: number },
): ServerFetch {
  // The budgets admit a request after authentication (a caller is its subject) and before its body is read.
  const admitted = budgets === undefined ? routes : budgetedRoutes(routes, budgets.budgets, budgets.maxBodyBytes, gate);
  // Each optional part is brought by the value that enables it (`cors()`, a `ServerAuth`), so a server
  // without them bundles none of their code.
  const served = edge.auth === undefined ? admitted : edge.auth.protect(admitted, gate);
  const fetch = plainFetch(served, gate, onEnv);
  // Without `cors` the server keeps its plain fetch: no cost on the hot path.
  return edge.cors === undefined ? fetch : edge.cors.serve(fetch, served, gate.guard);
}

function plainFetch(
  routes: ReadonlyMap<string, Route>,
  gate: Gate,
  onEnv: (env: Readonly<Record<string, unknown>>) => void,
): ServerFetch {
  const guard = gate.guard;
  // The route of the last URL: a server's requests nearly always name the same few URLs, and comparing
  // the string is ~10 ns where splitting out its path and looking that up is ~80 (Bun and Deno alike).
  // The routes never change once the server is built, so the URL alone decides the route.
  let lastUrl = "";
  let lastRoute: Route | undefined;
  return function fetch(request: Request, env?: unknown, ctx?: ExecutionContextLike): Promise<Response> {
    const host = env === undefined && ctx === undefined ? NO_HOST : hostOf(env, ctx);
    if (host.env !== undefined) onEnv(host.env);
    const url = request.url;
    if (url !== lastUrl) {
      lastRoute = routeFor(routes, pathOf(url));
      lastUrl = url;
    }
    const route = lastRoute;
    if (route === undefined) {
      return Promise.resolve(notFound());
    }
    try {
      guard(request, url, ctx);
    } catch (error) {
      const refused = error instanceof ProtocolError ? error : new ProtocolError("forbidden", "Forbidden");
      const response = route.refuse(refused);
      gate.refused?.(refused, request, response.status);
      return Promise.resolve(response);
    }
    // A route may answer at once (a synchronous tool); `fetch` still returns a promise, as its type says.
    return Promise.resolve(route.handle(request, host)); // a promise it returns is returned as is
  };
}

function hostOf(env: unknown, ctx: ExecutionContextLike | undefined): Host {
  const waitUntil = typeof ctx?.waitUntil === "function" ? (work: Promise<unknown>) => ctx.waitUntil(work) : undefined;
  return { env: isObject(env) ? env : undefined, waitUntil };
}

/** The route serving a path: its own, else the first prefix route (`/webtools/*`) that covers it. */
export function routeFor(routes: ReadonlyMap<string, Route>, path: string): Route | undefined {
  return routes.get(path) ?? prefixRoute(routes, path);
}

/** The neutral 404 of a path no binding serves. */
export function notFound(): Response {
  return new Response(NOT_FOUND_BODY, { status: 404, headers: JSON_HEADERS });
}

function prefixRoute(routes: ReadonlyMap<string, Route>, path: string): Route | undefined {
  for (const [pattern, route] of routes) {
    if (pattern.endsWith("/*") && path.startsWith(pattern.slice(0, -1))) return route;
  }
  return undefined;
}
