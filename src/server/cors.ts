/**
 * Cross-origin requests from browsers (Fetch Standard §3.2, "CORS protocol"), opt-in with
 * `createServer({ cors })`: preflights answered for the routes the server serves, and actual
 * responses marked readable by the listed origins, with the headers MCP, MCP-lite, Webtools and
 * Connect clients read exposed.
 *
 * @module
 */

/** Options of `createServer({ cors })`. */
export interface CorsOptions {
  /** The origins (`scheme://host[:port]`) whose pages may call the server, or `"*"` for any. */
  readonly origins: readonly string[] | "*";
  /** How long a browser may cache a preflight, in ms (default 2 hours). */
  readonly maxAgeMs?: number;
  /** Whether pages may send cookies or HTTP authentication (`credentials: "include"`); not with `"*"`. */
  readonly credentials?: boolean;
  /** Request headers to allow beyond those the wires read (e.g. one your middleware reads). */
  readonly allowHeaders?: readonly string[];
  /** Response headers to expose beyond those the wires set. */
  readonly exposeHeaders?: readonly string[];
}

/**
 * The request headers the wires read: MCP (`Mcp-*`, every `Mcp-Param-*`), MCP-lite, Webtools, the
 * OAuth bearer token and its DPoP proof (RFC 9449 §4.1), conditional requests, and Connect/gRPC-Web's own (as `@connectrpc/connect`'s
 * `cors.allowedHeaders` lists them).
 */
export const CORS_REQUEST_HEADERS: readonly string[] = /* @__PURE__ */ Object.freeze([
  "accept",
  "accept-encoding",
  "authorization",
  "content-encoding",
  "content-type",
  "dpop",
  "if-none-match",
  "last-event-id",
  "mcp-method",
  "mcp-name",
  "mcp-protocol-version",
  "mcp-session-id",
  "connect-accept-encoding",
  "connect-content-encoding",
  "connect-protocol-version",
  "connect-timeout-ms",
  "grpc-message-type",
  "grpc-timeout",
  "x-grpc-web",
  "x-user-agent",
]);

/** The response headers clients read, exposed to pages. */
export const CORS_EXPOSED_HEADERS: readonly string[] = /* @__PURE__ */ Object.freeze([
  "Mcp-Session-Id",
  "Mcp-Protocol-Version",
  "WWW-Authenticate",
  "DPoP-Nonce",
  "ETag",
  "Retry-After",
  "Allow",
  "Grpc-Status",
  "Grpc-Message",
  "Grpc-Status-Details-Bin",
  "Content-Encoding",
  "Connect-Content-Encoding",
]);

/** What the server does with CORS, built once from the options. */
export interface Cors {
  /** Whether a page of this origin may call the server (the Origin check accepts it too). */
  allows(origin: string): boolean;
  /** Whether any origin may (`"*"`). */
  readonly any: boolean;
  /**
   * Answers a preflight for a route.
   *
   * @param request The `OPTIONS` request.
   * @param methods The route's methods, if it declares them.
   */
  preflight(request: Request, methods: string | undefined): Response;
  /** Marks a response readable by the request's origin (a new response when the given one's headers are immutable). */
  decorate(request: Request, response: Response): Response;
}

/**
 * Checks the options and builds the server's CORS handling.
 *
 * @param options The options.
 * @returns The handling.
 * @throws {TypeError} For `"*"` with credentials, or an origin that is not `scheme://host[:port]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createCors } from "./cors.ts";
 * const cors = createCors({ origins: ["https://App.example:443/"] });
 * assert.equal(cors.allows("https://app.example"), true);
 * const preflight = cors.preflight(new Request("http://localhost/mcp", {
 *   method: "OPTIONS",
 *   headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-secret" },
 * }), "POST");
 * assert.equal(preflight.status, 204);
 * assert.equal(preflight.headers.get("access-control-allow-headers"), "content-type");
 * ```
 */
export function createCors(options: CorsOptions): Cors {
  const any = options.origins === "*";
  if (any && options.credentials) throw new TypeError('cors: origins "*" cannot be combined with credentials');
  const origins = new Set(any ? [] : (options.origins as readonly string[]).map(normaliseOrigin));
  const maxAge = String(Math.round((options.maxAgeMs ?? 2 * 60 * 60 * 1000) / 1000));
  const credentials = options.credentials === true;
  const allowed = new Set([...CORS_REQUEST_HEADERS, ...(options.allowHeaders ?? []).map((h) => h.toLowerCase())]);
  const exposed = [...CORS_EXPOSED_HEADERS, ...(options.exposeHeaders ?? [])].join(", ");
  const allows = (origin: string) => any || origins.has(origin.toLowerCase());

  return {
    any,
    allows,
    preflight(request, methods) {
      const origin = request.headers.get("origin");
      if (origin === null || !allows(origin)) {
        return new Response(null, { status: 403, headers: { vary: "Origin" } });
      }
      const asked = request.headers.get("access-control-request-headers") ?? "";
      const headers = asked.split(",").map((h) => h.trim().toLowerCase())
        .filter((h) => h !== "" && (allowed.has(h) || h.startsWith("mcp-param-")));
      const out = new Headers({
        "access-control-allow-origin": any ? "*" : origin,
        "access-control-allow-methods": methods ?? request.headers.get("access-control-request-method") ?? "POST",
        "access-control-max-age": maxAge,
        vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
      });
      if (headers.length > 0) out.set("access-control-allow-headers", headers.join(", "));
      if (credentials) out.set("access-control-allow-credentials", "true");
      return new Response(null, { status: 204, headers: out });
    },
    decorate(request, response) {
      const origin = request.headers.get("origin");
      const entries: [string, string][] = [];
      if (any) entries.push(["access-control-allow-origin", "*"]);
      else {
        entries.push(["vary", "Origin"]); // Fetch Standard §3.2.5: the answer depends on Origin, cached or not
        if (origin !== null && allows(origin)) entries.push(["access-control-allow-origin", origin]);
      }
      if (any || (origin !== null && allows(origin))) {
        entries.push(["access-control-expose-headers", exposed]);
        if (credentials) entries.push(["access-control-allow-credentials", "true"]);
      }
      return withHeaders(response, entries);
    },
  };
}

/** `https://App.example:443/` → `https://app.example`: an origin as a browser sends it. */
function normaliseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`cors: ${JSON.stringify(origin)} is not an origin (scheme://host[:port])`);
  }
  if (
    origin === "null" || url.origin === "null" || (url.pathname !== "/" && url.pathname !== "") || url.search ||
    url.hash
  ) {
    throw new TypeError(`cors: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path)`);
  }
  return url.origin.toLowerCase();
}

/**
 * Adds headers to a response (appending to `Vary`), copying the response first when its headers are
 * immutable (a response from `fetch()` or `Response.error()`).
 *
 * @param response The response.
 * @param entries The headers.
 * @returns The response, or its copy.
 */
export function withHeaders(response: Response, entries: readonly (readonly [string, string])[]): Response {
  try {
    apply(response.headers, entries);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    apply(copy.headers, entries);
    return copy;
  }
}

function apply(headers: Headers, entries: readonly (readonly [string, string])[]): void {
  for (const [name, value] of entries) {
    if (name === "vary") headers.append(name, value);
    else headers.set(name, value);
  }
}
