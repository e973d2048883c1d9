/**
 * The requests each benchmark sends: the body is serialised once, a fresh `Request` is built per
 * iteration (a body can be read once), the same way for every server, the floor included.
 *
 * @module
 */

/** The host every request names: a loopback name every server's Host check accepts. */
export const ORIGIN = "http://localhost";

/** The MCP 2026-07-28 revision. */
export const MODERN = "2026-07-28";
/** The 2025 revision used for the legacy rows. */
export const LEGACY = "2025-06-18";

/** A request template: builds a fresh `Request` each time it is called. */
export type RequestFactory = (init?: { headers?: Record<string, string> }) => Request;

/**
 * Builds a factory for a JSON POST. The headers are those a socket request carries: `Host`, and
 * `Content-Length` (every HTTP client sends it for a known body); `withLength: false` leaves it out,
 * as a chunked upload would, so that the server has to bound its read itself.
 */
export function jsonPost(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  withLength = true,
): RequestFactory {
  const text = JSON.stringify(body);
  const base: Record<string, string> = { host: "localhost", "content-type": "application/json", ...headers };
  if (withLength) base["content-length"] = String(new TextEncoder().encode(text).byteLength);
  const url = ORIGIN + path;
  return (init) =>
    new Request(url, {
      method: "POST",
      headers: init?.headers ? { ...base, ...init.headers } : base,
      body: text,
    });
}

/** The `_meta` envelope of a 2026-07-28 request. */
export function modernMeta(): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
  };
}

/** A JSON-RPC request body. */
export function rpc(method: string, params: Record<string, unknown>, id = 1): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method, params };
}

/** `tools/call` params of add(1, 2). */
export const ADD_PARAMS = { name: "add", arguments: { a: 1, b: 2 } } as const;

/** A 2026-07-28 request to `/mcp`, with its envelope and headers. */
export function modern(
  method: string,
  params: Record<string, unknown>,
  accept = "application/json, text/event-stream",
): RequestFactory {
  const headers: Record<string, string> = {
    accept,
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  const meta = { ...modernMeta(), ...(params._meta as Record<string, unknown> | undefined) };
  return jsonPost("/mcp", rpc(method, { ...params, _meta: meta }), headers);
}

/** A 2025-era request to `/mcp`, without a session (stateless). */
export function legacy(method: string, params: Record<string, unknown>): RequestFactory {
  return jsonPost("/mcp", rpc(method, params), {
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LEGACY,
  });
}

/** An MCP-lite request to `{base}{path}`. */
export function lite(path: string, method: string, params: Record<string, unknown>, accept?: string): RequestFactory {
  return jsonPost(`/mcp-lite/v1${path}`, rpc(method, params), accept ? { accept } : {});
}
