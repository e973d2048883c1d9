/**
 * The protocol floor in process: a bare handler doing, with no SDK, what MCP-lite spec v0.042 and MCP
 * 2026-07-28 make every server do for a `tools/call` of the request-shape matrix, and answering the
 * same bytes as ours. What a call costs above `floor.ts` here is the protocol's; above this, ours.
 *
 * @module
 */
import * as v from "valibot";
import { AddInput, type Fetch } from "./common.ts";
import { NAMED_HOST } from "../requests.ts";

type Tool = { run: (args: { a: number; b: number }) => unknown; output?: v.GenericSchema };
const sum = ({ a, b }: { a: number; b: number }) => ({ sum: a + b });
/** The matrix's tools (`SHAPE_TOOLS`): an object, a string, an object checked against its output schema. */
const TOOLS = new Map<string, Tool>([
  ["add", { run: sum }],
  ["add_text", { run: ({ a, b }) => String(a + b) }],
  ["add_checked", { run: sum, output: v.object({ sum: v.number() }) }],
]);
/** The hosts the matrix's servers accept (DNS rebinding, MCP 2025-11-25 Transports, Security Warning). */
const HOSTS = new Set(["localhost", "127.0.0.1", "::1", NAMED_HOST]);
const MAX_BODY = 4 * 1024 * 1024;
const VERSION = "2026-07-28";
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "bench", version: "1.0.0" } };
/** `Response.json()` labels its body `application/json;charset=utf-8` on Bun: ours says `application/json`. */
const INIT = (globalThis as { Bun?: unknown }).Bun === undefined
  ? undefined
  : { headers: new Headers({ "content-type": "application/json" }) };

let lastMs = 0, lastIso = "";
/** MCP-lite spec v0.042 §3.3's `timestamp`, formatted once per millisecond. */
function isoNow(ms: number): string {
  if (ms !== lastMs) lastIso = new Date(lastMs = ms).toISOString();
  return lastIso;
}

let passedHost = "";
/** The Host (the URL's authority) is an allowed one, and so is the Origin when a browser sends one. */
function checkHost(request: Request): void {
  const url = request.url;
  if (passedHost === "" || !url.startsWith(passedHost)) {
    const authority = url.slice(url.indexOf("//") + 2, url.indexOf("/", url.indexOf("//") + 2));
    const host = authority.startsWith("[") ? authority.slice(1, authority.indexOf("]")) : authority.split(":")[0];
    if (!HOSTS.has(host)) throw new Error("forbidden host");
    passedHost = url.slice(0, url.indexOf("/", url.indexOf("//") + 2) + 1);
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !HOSTS.has(new URL(origin).hostname)) throw new Error("forbidden origin");
}

/** The body, read within the limits and parsed: JSON of bounded size, without `__proto__` keys. */
async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  if (request.method !== "POST") throw new Error("method");
  if (request.headers.get("content-type") !== "application/json") throw new Error("content type");
  const length = Number(request.headers.get("content-length") ?? NaN);
  if (!(length <= MAX_BODY)) throw new Error("too large");
  const text = await request.text();
  const body = text.includes("__proto__") || text.includes("\\u")
    ? JSON.parse(text, (k, value) => k === "__proto__" ? undefined : value)
    : JSON.parse(text);
  if (typeof body !== "object" || body === null || Array.isArray(body) || body.jsonrpc !== "2.0") {
    throw new Error("not JSON-RPC");
  }
  if (typeof body.method !== "string" || typeof body.params !== "object" || body.params === null) {
    throw new Error("not a request");
  }
  return body;
}

/** A tools/call's result: the tool found, its arguments validated, its value made a result. */
function call(params: Record<string, unknown>): Record<string, unknown> {
  const tool = typeof params.name === "string" ? TOOLS.get(params.name) : undefined;
  if (tool === undefined) throw new Error("unknown tool");
  const args = params.arguments as Record<string, unknown>;
  for (const key in args) if (typeof args[key] === "number" && !Number.isFinite(args[key])) throw new Error("NaN");
  const checked = v.safeParse(AddInput, args);
  if (!checked.success) throw new Error("invalid arguments");
  const value = tool.run(checked.output);
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (tool.output !== undefined && !v.safeParse(tool.output, value).success) throw new Error("invalid output");
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** MCP-lite `tools/call` (`/mcp-lite/v1/calltools`): the result with its `_meta` (§3.3). */
export const floorLiteProtocol: Fetch = async (request) => {
  checkHost(request);
  const body = await bodyOf(request);
  if (body.method !== "tools/call") throw new Error("method not found");
  const started = Date.now();
  const result = call(body.params as Record<string, unknown>);
  const now = Date.now();
  const meta = {
    response_type: "answer",
    timestamp: isoNow(now),
    processing_time_ms: now - started,
    server_version: "1.0.0",
  };
  const answer = result.structuredContent === undefined
    ? { content: result.content, _meta: meta }
    : { content: result.content, _meta: meta, structuredContent: result.structuredContent };
  return Response.json({ jsonrpc: "2.0", id: body.id ?? null, result: answer }, INIT);
};

/**
 * MCP 2026-07-28 `tools/call` (`/mcp`): the envelope's version and capabilities, the `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` headers against the body (Transports), the result with `resultType` and the
 * server's identity in `_meta`.
 */
export const floorMcpProtocol: Fetch = async (request) => {
  checkHost(request);
  const headers = request.headers;
  const accept = headers.get("accept");
  if (accept === null || !accept.includes("application/json")) throw new Error("not acceptable");
  const body = await bodyOf(request);
  const params = body.params as Record<string, unknown>;
  const meta = params._meta as Record<string, unknown> | undefined;
  const version = meta?.["io.modelcontextprotocol/protocolVersion"];
  if (version !== VERSION || headers.get("mcp-protocol-version") !== version) throw new Error("version");
  const capabilities = meta?.["io.modelcontextprotocol/clientCapabilities"];
  if (typeof capabilities !== "object" || capabilities === null) throw new Error("capabilities");
  if (headers.get("mcp-method") !== body.method || headers.get("mcp-name") !== params.name) {
    throw new Error("header mismatch");
  }
  if (body.method !== "tools/call") throw new Error("method not found");
  const result = call(params);
  result.resultType = "complete";
  result._meta = SERVER_INFO;
  return Response.json({ jsonrpc: "2.0", id: body.id ?? null, result }, INIT);
};
