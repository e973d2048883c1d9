/**
 * The server as an OAuth 2.1 resource server (MCP 2025-11-25, Authorization), served from a `ServerAuth` (the code a
 * `jwtAuth()` or `protectedResource()` value carries): authentication from the `Authorization` header (RFC 6750 §2.1), challenges
 * (RFC 6750 §3, pointing at the metadata as RFC 9728 §5.1 says), step-up (MCP 2025-11-25,
 * Authorization, Scope Challenge Handling), and the Protected Resource Metadata (RFC 9728 §3).
 *
 * @module
 */
import type { ProtocolError } from "../errors/error.ts";
import { createMemoryStore } from "../store/memory-store.ts";
import { type RecordsHolder, sharedStoreOf } from "../store/store-of.ts";
import { refusalAnswered } from "./answered-refusal.ts";
import { pathOf } from "../internal/url.ts";
import { AUTH_EDGE, type ServerAuth } from "./auth.ts";
import { type Host, type Route, withCaller } from "./binding-contract.ts";
import { bearerChallenge, challengeOf, dpopChallenge } from "./challenge.ts";
import { withHeaders } from "./cors.ts";
import type { DpopPolicy } from "./dpop.ts";
import type { AuthEdge, GateAnswer } from "./edge.ts";
import type { ObservedEdge } from "./edge-observer.ts";
import {
  authenticate,
  METADATA_PATH,
  protectedResourceMetadata,
  resourceMetadataUrl,
  resourceOrigin,
} from "./protected-resource.ts";
import { refusedRequestId } from "./refused-id.ts";
import { JSON_HEADERS } from "./responses.ts";
import { retryAfterOf } from "./retry-after.ts";

const NOT_ALLOWED: GateAnswer = /* @__PURE__ */ Object.freeze({
  status: 405,
  headers: /* @__PURE__ */ Object.freeze({ "content-type": "application/json", allow: "GET, HEAD" }),
  body: /* @__PURE__ */ JSON.stringify({
    error: "method_not_allowed",
    error_description: "Method not allowed: use GET",
  }),
});

/**
 * Makes a server an OAuth 2.1 protected resource (MCP Authorization; RFC 9728) with your own token verifier, e.g.
 * RFC 7662 introspection for opaque tokens: `createServer({ auth: protectedResource({ … }) })`, on `@mcplite/sdk`
 * and `@mcplite/sdk/lite` alike (`jwtAuth()` makes one for JWT access tokens). The value carries the code that
 * serves it, so a server bundles it only when given one (a plain object is refused). Used DPoP proofs (RFC 9449 §11.1), when
 * `auth.dpop` is set, are remembered in the server's `resultStore`.
 *
 * @param auth The resource, its authorization servers, the token verifier and the scopes.
 * @returns The same, servable by either entry's `createServer({ auth })`.
 * @throws {TypeError} When `auth.resource` is not an absolute URL, or `auth.dpop` is not what `jwtAuth({ dpop })` made.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../lite/mod.ts";
 * import { protectedResource } from "../auth/mod.ts";
 *
 * const server = createServer({
 *   name: "docs",
 *   version: "1.0.0",
 *   auth: protectedResource({
 *     resource: "http://localhost",
 *     authorizationServers: ["https://auth.example.com"],
 *     verify: (token) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
 *   }),
 * });
 * const refused = await server.fetch(new Request("http://localhost/mcp-lite/v1/listtools", { method: "POST", body: "{}" }));
 * assert.equal(refused.status, 401);
 * assert.match(refused.headers.get("www-authenticate") ?? "", /resource_metadata=/);
 * ```
 */
export function protectedResource(auth: ServerAuth): ServerAuth {
  resourceOrigin(auth); // refused now, not at the first request
  if (auth.dpop !== undefined && typeof (auth.dpop as DpopPolicy).checks !== "function") {
    throw new TypeError("protectedResource: dpop is the one a jwtAuth({ dpop }) value carries");
  }
  return Object.freeze({ ...auth, [AUTH_EDGE]: authEdge });
}

/**
 * The OAuth part of the server's edge, what `createServer({ auth })` builds from a `ServerAuth`.
 *
 * @param auth The resource, its authorization servers, the token verifier and the scopes.
 * @param options Where used DPoP proofs are remembered.
 * @returns The edge's OAuth part.
 */
export function authEdge(auth: ServerAuth, options: { readonly resultStore?: RecordsHolder } = {}): AuthEdge {
  const origin = resourceOrigin(auth);
  const body = JSON.stringify(protectedResourceMetadata(auth));
  const headers = Object.freeze({ "content-type": "application/json", "cache-control": "public, max-age=3600" });
  const document: GateAnswer = Object.freeze({ status: 200, headers, body });
  const head: GateAnswer = Object.freeze({ status: 200, headers, body: null });
  const dpop = auth.dpop as DpopPolicy | undefined; // what jwtAuth({ dpop }) made (opaque in ServerAuth)
  // The policy brings its checks (a server without DPoP bundles none). Used DPoP proofs are remembered
  // for a few minutes each: many more than results, and far smaller.
  const store = options.resultStore;
  const checks = dpop?.checks(store === undefined ? createMemoryStore({ maxEntries: 100_000 }) : sharedStoreOf(store));
  const challenge = (error: unknown, path: string): string | undefined => {
    const details = challengeOf(error);
    if (details === undefined) return undefined;
    const resourceMetadata = resourceMetadataUrl(origin, path);
    const { scheme, ...params } = details;
    if (dpop === undefined) return bearerChallenge({ ...params, resourceMetadata });
    if (scheme === "DPoP" || dpop.required) return dpopChallenge({ ...params, resourceMetadata }, dpop.algorithms);
    return `${bearerChallenge({ ...params, resourceMetadata })}, ${
      dpopChallenge({ resourceMetadata }, dpop.algorithms)
    }`;
  };
  const edge: AuthEdge = {
    capability: "oauth",
    auth,
    authenticate: (request) => authenticate(auth, request, checks),
    challenge,
    dpopNonce: (error) => checks?.nonceOf(error),
    metadata(method, path) {
      if (!isMetadataPath(path)) return undefined;
      if (method === "GET") return document;
      return method === "HEAD" ? head : NOT_ALLOWED;
    },
    protect: (routes, reported) => protectRoutes(routes, edge, reported),
  };
  return edge;
}

/** Whether a path is the metadata's well-known path, or that path followed by an endpoint's (RFC 9728 §3.1). */
function isMetadataPath(path: string): boolean {
  return path.startsWith(METADATA_PATH) &&
    (path.length === METADATA_PATH.length || path.charCodeAt(METADATA_PATH.length) === 47 /* / */);
}

/**
 * Protects every route with authentication (but those whose URLs are capabilities) and adds the metadata routes: at the root
 * well-known path, and at the well-known path followed by each endpoint's path (RFC 9728 §3.1).
 */
function protectRoutes(
  routes: ReadonlyMap<string, Route>,
  gate: AuthEdge,
  reported?: ObservedEdge,
): Map<string, Route> {
  const metadata = metadataRoute(gate);
  const protectedRoutes = new Map<string, Route>([[METADATA_PATH, metadata]]);
  for (const [path, route] of routes) {
    protectedRoutes.set(path, route.capability ? route : protect(route, gate, reported)); // its URL is the credential
    protectedRoutes.set(METADATA_PATH + path, metadata);
  }
  return protectedRoutes;
}

function metadataRoute(gate: AuthEdge): Route {
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

/** A route whose requests are authenticated first; 401/403 with the challenge the refusal carries. */
function protect(route: Route, gate: AuthEdge, reported: ObservedEdge | undefined): Route {
  return {
    ...route,
    async handle(request: Request, host: Host): Promise<Response> {
      // The path as the request spells it (a trailing `/` kept): the metadata URL follows it. Parsed
      // only for a challenge, not on every request.
      const path = () => new URL(request.url).pathname;
      let caller;
      try {
        caller = await gate.authenticate(request);
      } catch (error) {
        const refusal = error as ProtocolError; // the gate refuses with protocol errors only
        // JSON-RPC 2.0 §5: the error answers the request's id when it can be read (cheaply: refused-id.ts).
        const id = route.jsonRpc === true ? await refusedRequestId(request) : null;
        let refused = challenged(route.refuse(refusal, id), gate.challenge(refusal, path()));
        const nonce = gate.dpopNonce(refusal); // RFC 9449 §8.1: the nonce to use, beside its challenge
        if (nonce !== undefined) refused = withHeaders(refused, [["dpop-nonce", nonce]]);
        // An issuer that is down: 503 says when to retry (RFC 9110 §10.2.3), whatever the route's shape.
        const retryAfter = retryAfterOf(refusal);
        reported?.refused?.(refusal, request, refused.status);
        return retryAfter === undefined || refused.headers.has("retry-after")
          ? refused
          : withHeaders(refused, [["retry-after", retryAfter]]);
      }
      const response = await route.handle(request, withCaller(host, caller));
      // Step-up (MCP 2025-11-25, Authorization, Scope Challenge Handling): the binding hands back the
      // refusal its response answers; only a call refused for a scope has one.
      const refusal = refusalAnswered(response);
      return refusal === undefined ? response : challenged(response, gate.challenge(refusal, path()));
    },
  };
}

function challenged(response: Response, challenge: string | undefined): Response {
  return challenge === undefined ? response : withHeaders(response, [["www-authenticate", challenge]]);
}
