/**
 * `server.fetch`, the HTTP carrier: finds the route a binding serves at the request's path, and maps
 * the gate's decisions to HTTP on the way: a Host or Origin refusal in the route's own shape, 401/403
 * with `WWW-Authenticate` for a refused caller and for a call refused for a scope (step-up), the
 * Protected Resource Metadata at its well-known paths (RFC 9728 §3), CORS preflights and headers.
 * Without `auth` and `cors` it is the guard and a table lookup, nothing more.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../core/error.ts";
import { isObject } from "../internal/is-object.ts";
import { pathOf } from "../internal/url.ts";
import { type Host, NO_HOST, type Route, withCaller } from "./binding.ts";
import { withHeaders } from "./cors.ts";
import type { Gate, GateAnswer } from "./gate.ts";
import { METADATA_PATH } from "./protected-resource.ts";
import { JSON_HEADERS } from "./responses.ts";
import { retryAfterOf } from "./retry-after.ts";
import { refusedRequestId } from "./refused-id.ts";

/** What a Worker (or a framework) passes as `fetch`'s third argument. */
export interface ExecutionContextLike {
  /** Keeps work alive past the response. */
  waitUntil(work: Promise<unknown>): void;
}

/** A server's `fetch`. */
export type ServerFetch = (request: Request, env?: unknown, ctx?: ExecutionContextLike) => Promise<Response>;

const NOT_FOUND_BODY = JSON.stringify({ error: { code: "not_found", message: "Not found: no endpoint at this path" } });

/**
 * Creates the `fetch` of a server: its bindings' routes behind its gate.
 *
 * @param routes The bindings' routes, by full path.
 * @param gate The server's gate.
 * @param onEnv Receives the platform's `env` of each request that has one.
 * @returns The fetch.
 */
export function createFetch(
  routes: ReadonlyMap<string, Route>,
  gate: Gate,
  onEnv: (env: Readonly<Record<string, unknown>>) => void,
): ServerFetch {
  const served = gate.auth === undefined ? routes : protectRoutes(routes, gate);
  const fetch = plainFetch(served, gate, onEnv);
  // Without `cors` the server keeps its plain fetch: no cost on the hot path.
  return gate.cors === undefined ? fetch : withCors(fetch, served, gate);
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
      const refused = error instanceof ProtocolError ? error : new ProtocolError(ErrorCode.Forbidden, "Forbidden");
      return Promise.resolve(route.refuse(refused));
    }
    return route.handle(request, host);
  };
}

/** Answers CORS preflights for served routes, and marks every other answer for the request's origin. */
function withCors(fetch: ServerFetch, routes: ReadonlyMap<string, Route>, gate: Gate): ServerFetch {
  const cors = gate.cors!;
  const guard = gate.guard;
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

/**
 * Protects every route with the gate's authentication and adds the metadata routes: at the root
 * well-known path, and at the well-known path followed by each endpoint's path (RFC 9728 §3.1).
 */
function protectRoutes(routes: ReadonlyMap<string, Route>, gate: Gate): Map<string, Route> {
  const metadata = metadataRoute(gate);
  const protectedRoutes = new Map<string, Route>([[METADATA_PATH, metadata]]);
  for (const [path, route] of routes) {
    protectedRoutes.set(path, protect(route, gate));
    protectedRoutes.set(METADATA_PATH + path, metadata);
  }
  return protectedRoutes;
}

function metadataRoute(gate: Gate): Route {
  return {
    methods: "GET, HEAD",
    handle: (request) => Promise.resolve(responseOf(gate.metadata(request.method, pathOf(request.url))!)),
    refuse: (error) =>
      new Response(JSON.stringify({ error: error.code, error_description: error.message }), {
        status: 403,
        headers: JSON_HEADERS,
      }),
  };
}

function responseOf(answer: GateAnswer): Response {
  return new Response(answer.body, answer);
}

/** A route whose requests the gate authenticates first; 401/403 with the challenge the refusal carries. */
function protect(route: Route, gate: Gate): Route {
  return {
    ...route,
    async handle(request: Request, host: Host): Promise<Response> {
      // The path as the request spells it (a trailing `/` kept): the metadata URL follows it.
      const path = new URL(request.url).pathname;
      let caller;
      try {
        caller = await gate.authenticate(request);
      } catch (error) {
        const refusal = error as ProtocolError; // the gate refuses with protocol errors only
        // JSON-RPC 2.0 §5: the error answers the request's id when it can be read (cheaply: refused-id.ts).
        const id = route.jsonRpc === true ? await refusedRequestId(request) : null;
        let refused = challenged(route.refuse(refusal, id), gate.challenge(refusal, path));
        const nonce = gate.dpopNonce(refusal); // RFC 9449 §8.1: the nonce to use, beside its challenge
        if (nonce !== undefined) refused = withHeaders(refused, [["dpop-nonce", nonce]]);
        // An issuer that is down: 503 says when to retry (RFC 9110 §10.2.3), whatever the route's shape.
        const retryAfter = retryAfterOf(refusal);
        return retryAfter === undefined || refused.headers.has("retry-after")
          ? refused
          : withHeaders(refused, [["retry-after", retryAfter]]);
      }
      const response = await route.handle(request, withCaller(host, caller));
      return challenged(response, gate.stepUp(caller, path));
    },
  };
}

function challenged(response: Response, challenge: string | undefined): Response {
  return challenge === undefined ? response : withHeaders(response, [["www-authenticate", challenge]]);
}

function hostOf(env: unknown, ctx: ExecutionContextLike | undefined): Host {
  const waitUntil = typeof ctx?.waitUntil === "function" ? (work: Promise<unknown>) => ctx.waitUntil(work) : undefined;
  return { env: isObject(env) ? env : undefined, waitUntil };
}

/** The route serving a path: its own, else the first prefix route (`/webtools/*`) that covers it. */
function routeFor(routes: ReadonlyMap<string, Route>, path: string): Route | undefined {
  return routes.get(path) ?? prefixRoute(routes, path);
}

/** The neutral 404 of a path no binding serves. */
function notFound(): Response {
  return new Response(NOT_FOUND_BODY, { status: 404, headers: JSON_HEADERS });
}

function prefixRoute(routes: ReadonlyMap<string, Route>, path: string): Route | undefined {
  for (const [pattern, route] of routes) {
    if (pattern.endsWith("/*") && path.startsWith(pattern.slice(0, -1))) return route;
  }
  return undefined;
}
