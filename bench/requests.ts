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
  // The URL names the host the `Host` header does, as a listener builds it.
  const url = base.host === "localhost" ? ORIGIN + path : `http://${base.host}${path}`;
  return (init) =>
    new Request(url, {
      method: "POST",
      headers: init?.headers ? { ...base, ...init.headers } : base,
      body: text,
    });
}

/**
 * The `_meta` envelope of a 2026-07-28 request. `clientInfo` is optional there (MCP 2026-07-28, Base
 * Protocol: request metadata): this package's client sends it, a client built for stateless servers
 * may not.
 */
export function modernMeta(clientInfo = true): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  if (clientInfo) meta["io.modelcontextprotocol/clientInfo"] = { name: "bench", version: "1.0.0" };
  return meta;
}

/** A JSON-RPC request body. */
export function rpc(method: string, params: Record<string, unknown>, id = 1): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method, params };
}

/** `tools/call` params of add(1, 2). */
export const ADD_PARAMS = { name: "add", arguments: { a: 1, b: 2 } } as const;

/** The JSON+SSE `Accept` every MCP client sends (MCP 2025-11-25, Transports: Streamable HTTP). */
export const ACCEPT_BOTH = "application/json, text/event-stream";

/** How a client shapes a request beyond its body: the host it names, whether it sends `clientInfo`. */
export interface RequestShape {
  /** The `Host` (and URL authority): `localhost` by default, or an IP with its port, or a deployed name. */
  host?: string;
  /** Whether the 2026-07-28 envelope carries `clientInfo` (default true). */
  clientInfo?: boolean;
}

/** A 2026-07-28 request to `/mcp`, with its envelope and headers. */
export function modern(
  method: string,
  params: Record<string, unknown>,
  accept = ACCEPT_BOTH,
  shape: RequestShape = {},
): RequestFactory {
  const headers: Record<string, string> = {
    accept,
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (shape.host !== undefined) headers.host = shape.host;
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  const meta = { ...modernMeta(shape.clientInfo), ...(params._meta as Record<string, unknown> | undefined) };
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
export function lite(
  path: string,
  method: string,
  params: Record<string, unknown>,
  accept?: string,
  shape: RequestShape = {},
): RequestFactory {
  const headers: Record<string, string> = accept ? { accept } : {};
  if (shape.host !== undefined) headers.host = shape.host;
  return jsonPost(`/mcp-lite/v1${path}`, rpc(method, params), headers);
}

/** What a shape's tool answers: an object (JSON text and `structuredContent`), a string, or an object checked against its output schema. */
export type ResultShape = "object" | "string" | "structured";

/** One request shape of the `tools/call` matrix. */
export interface ShapeRow {
  /** Its row label, e.g. `MCP 2026-07-28 · Host 127.0.0.1:8787`. */
  name: string;
  /** The wire. */
  wire: "MCP 2026-07-28" | "MCP-lite";
  /** What the called tool answers. */
  result: ResultShape;
  /** The request. */
  request: RequestFactory;
  /** Whether it asks for an SSE answer (an MCP-lite call accepting `text/event-stream`, §4.3). */
  stream: boolean;
}

/** The tool of each result shape (`bench/servers/ours.ts` registers all three). */
export const SHAPE_TOOLS: Record<ResultShape, string> = {
  object: "add",
  string: "add_text",
  structured: "add_checked",
};

/** The IP host of the matrix: a listener on 127.0.0.1 sees its port in `Host`. */
const IP_HOST = "127.0.0.1:8787";
/** The deployed-name host of the matrix (a server lists it in `allowedHosts`). */
export const NAMED_HOST = "example.com";

/**
 * The request shapes real clients send for `tools/call`, as a base shape and one-axis variations
 * (every value of every axis, not their cross product), plus the shape issue 54 measured: Host an IP
 * or a name, `clientInfo` present or absent, Accept JSON only or JSON+SSE, and the three result shapes.
 * The MCP 2026-07-28 base is this package's client (localhost, `clientInfo`, JSON+SSE); the MCP-lite
 * base sends no `Accept`, as curl does (MCP-lite has no `clientInfo`).
 */
export const SHAPES: readonly ShapeRow[] = (() => {
  const m = (label: string, result: ResultShape, accept = ACCEPT_BOTH, shape: RequestShape = {}): ShapeRow => ({
    name: `MCP 2026-07-28 · ${label}`,
    wire: "MCP 2026-07-28",
    result,
    stream: false,
    request: modern("tools/call", { ...ADD_PARAMS, name: SHAPE_TOOLS[result] }, accept, shape),
  });
  const l = (label: string, result: ResultShape, accept?: string, shape: RequestShape = {}): ShapeRow => ({
    name: `MCP-lite · ${label}`,
    wire: "MCP-lite",
    result,
    stream: accept?.includes("text/event-stream") === true,
    request: lite("/calltools", "tools/call", { ...ADD_PARAMS, name: SHAPE_TOOLS[result] }, accept, shape),
  });
  return [
    m("base (localhost, clientInfo, Accept JSON+SSE, object)", "object"),
    m(`Host ${IP_HOST}`, "object", ACCEPT_BOTH, { host: IP_HOST }),
    m(`Host ${NAMED_HOST}`, "object", ACCEPT_BOTH, { host: NAMED_HOST }),
    m("no clientInfo", "object", ACCEPT_BOTH, { clientInfo: false }),
    m("Accept JSON only", "object", "application/json"),
    m("string result", "string"),
    m("structured result (outputSchema)", "structured"),
    m(`as issue 54 measured (Host ${IP_HOST}, no clientInfo, string)`, "string", ACCEPT_BOTH, {
      host: IP_HOST,
      clientInfo: false,
    }),
    l("base (localhost, no Accept, object)", "object"),
    l(`Host ${IP_HOST}`, "object", undefined, { host: IP_HOST }),
    l(`Host ${NAMED_HOST}`, "object", undefined, { host: NAMED_HOST }),
    l("Accept JSON", "object", "application/json"),
    l("Accept JSON+SSE (an SSE answer, §4.3)", "object", ACCEPT_BOTH),
    l("string result", "string"),
    l("structured result (outputSchema)", "structured"),
  ];
})();
