/**
 * The MCP-lite HTTP transport (MCP-lite spec v0.042 §4): `POST {base}/listtools` and `POST {base}/calltools`, JSON or
 * SSE (`message` partials, `done`, `error`, `heartbeat`, plus the `progress` and `log` extensions), and the
 * prompts and resources endpoints of this SDK's extensions (E1: `/prompts`, `/prompts/get`; E4: `/resources`,
 * `/resources/templates`, `/resources/read`).
 *
 * @module
 */
import { clientError, errorFromRpc, rpcError, rpcErrorOf, transportError } from "../errors.ts";
import { isObject } from "../../internal/is-object.ts";
import {
  type FetchLike,
  httpError,
  type HttpOptions,
  isEventStream,
  isJsonResponse,
  listingHintOf,
  readJsonBody,
  replyFrom,
  unreadable,
} from "../http.ts";
import { HttpEndpoint } from "../http-endpoint.ts";
import { replyFromLite } from "../read-result.ts";
import { readSse } from "../read-sse.ts";
import { sendTraced, withTraceHeaders, withTraceMeta } from "../carry-trace.ts";
import type { Reply, RequestContext, ToolCallRequest, ToolInfo, ToolListing, Transport } from "../transport.ts";

/** The base path MCP-lite servers use by default. */
export const MCPLITE_BASE_PATH = "/mcp-lite/v1";

/**
 * Creates an MCP-lite transport.
 *
 * @param baseUrl The base URL, e.g. `http://localhost:8000/mcp-lite/v1`.
 * @param options The fetch function and extra headers.
 * @returns The transport.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "../mod.ts";
 * import { createMcpliteTransport } from "./mcplite.ts";
 * const client = createClient(createMcpliteTransport("http://localhost:8000/mcp-lite/v1"));
 * ```
 */
export function createMcpliteTransport(baseUrl: string | URL, options: HttpOptions = {}): Transport {
  return new McpliteTransport(new HttpEndpoint(baseUrl, options, true), false);
}

/**
 * Creates the MCP-lite transport of a connection whose requests are JSON-RPC messages (stdio, a
 * WebSocket: MCP-lite spec v0.042 §8.2), whose `fetch` turns each request into one message: the list
 * goes as `tools/list` with an id and its trace context in `_meta`, as every other request, since a
 * message has no headers to carry it.
 *
 * @param baseUrl The placeholder base URL the connection tells MCP-lite's paths apart by.
 * @param fetch The connection's `fetch`.
 * @returns The transport.
 */
export function createMcpliteMessageTransport(baseUrl: string, fetch: FetchLike): Transport {
  return new McpliteTransport(new HttpEndpoint(baseUrl, { fetch }, true), true);
}

class McpliteTransport implements Transport {
  readonly wire = "mcp-lite";
  readonly tracesRequests = true;
  readonly #http: HttpEndpoint;
  /** Whether each request travels as a JSON-RPC message (stdio, WebSocket) rather than over HTTP. */
  readonly #messages: boolean;
  #nextId = 1;

  constructor(http: HttpEndpoint, messages: boolean) {
    this.#http = http;
    this.#messages = messages;
  }

  listTools(ctx: RequestContext): Promise<ToolListing> {
    // Over HTTP `POST /listtools` is no JSON-RPC request and has no id; as a message it has one.
    const id = this.#messages ? this.#nextId++ : undefined;
    const request = { method: "tools/list", params: {}, id, peer: this.#http.peer };
    return sendTraced(ctx, request, (sent) => this.#listTools(id, sent));
  }

  async #listTools(id: number | undefined, ctx: RequestContext): Promise<ToolListing> {
    const fields: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (ctx.etag !== undefined) fields["if-none-match"] = ctx.etag;
    const headers = withTraceHeaders(await this.#http.headers(fields), ctx);
    const sent = id === undefined
      ? "{}"
      : JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: withTraceMeta({}, ctx) });
    const response = await this.#http.post("/listtools", headers, sent, ctx.signal);
    const hint = listingHintOf(response);
    if (response.status === 304) return { tools: [], notModified: true, ...hint };
    if (!response.ok) throw await this.#failure(response, "tools/list", ctx.signal);
    const body = await readJsonBody(response, ctx.signal, this.#http.maxResponseBytes);
    const tools = Array.isArray(body) ? body : (body as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) throw unreadable(response, body);
    return { tools: tools as ToolInfo[], ...hint };
  }

  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    const id = this.#nextId++;
    const params: Record<string, unknown> = { name: call.name, arguments: call.arguments };
    if (call.inputResponses !== undefined) params.inputResponses = call.inputResponses;
    if (call.requestState !== undefined) params.requestState = call.requestState;
    const request = { method: "tools/call", params, id, peer: this.#http.peer };
    return sendTraced(ctx, request, (sent) => this.#callTool(id, params, sent));
  }

  async #callTool(id: number, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    const talks = ctx.stream || ctx.onProgress !== undefined || ctx.onLog !== undefined;
    const headers = withTraceHeaders(
      await this.#http.headers({
        "content-type": "application/json",
        accept: talks ? "text/event-stream" : "application/json",
      }),
      ctx,
    );
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: withTraceMeta(params, ctx) });
    const response = await this.#http.post("/calltools", headers, body, ctx.signal);
    if (isEventStream(response) && response.ok) return await this.#readStream(response, ctx);
    const parsed = await readJsonBody(response, ctx.signal, this.#http.maxResponseBytes);
    const reply = replyFrom(parsed, response);
    if (reply === undefined) throw unreadable(response, parsed);
    if (!reply.ok) throw errorFromRpc(reply.error, { method: "tools/call", wire: this.wire, status: response.status });
    return replyFromLite(reply.result);
  }

  /**
   * Sends the methods of this SDK's MCP-lite extensions (E1 prompts, E4 resources) at their endpoints
   * ({@link EXTENDED}): a listing as a plain POST of its params, a read as JSON-RPC. Other methods are
   * not MCP-lite's.
   */
  request(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    // An extension's method (SEP-2133: under a reverse-DNS vendor prefix, `org.example/ledger/get`) is JSON-RPC at
    // `/rpc`, as this SDK's servers answer it (E5); a notification (`ctx.notification`) too, as a request whose
    // result is empty: MCP-lite has no notifications. MCP's own methods (skills, tasks…) are not MCP-lite's.
    const endpoint = Object.hasOwn(EXTENDED, method) ? EXTENDED[method] : /^[^/]*\./.test(method) ? RPC : undefined;
    if (endpoint === undefined) {
      return Promise.reject(
        clientError("unsupported", `${method} is not available over ${this.wire}`),
      );
    }
    // A listing is a plain POST; a read is JSON-RPC, with an id.
    const id = endpoint.list === undefined ? this.#nextId++ : undefined;
    const request = { method, params, id, peer: this.#http.peer };
    return sendTraced(ctx, request, (sent) => this.#request(method, endpoint, id, params, sent));
  }

  async #request(
    method: string,
    { path, list }: Endpoint,
    id: number | undefined,
    params: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<Reply> {
    const headers = withTraceHeaders(
      await this.#http.headers({ "content-type": "application/json", accept: "application/json" }),
      ctx,
    );
    const body = id === undefined
      ? JSON.stringify(params)
      : JSON.stringify({ jsonrpc: "2.0", id, method, params: withTraceMeta(params, ctx) });
    const response = await this.#http.post(path, headers, body, ctx.signal);
    if (!response.ok) throw await this.#failure(response, method, ctx.signal);
    const parsed = await readJsonBody(response, ctx.signal, this.#http.maxResponseBytes);
    const reply = replyFrom(parsed, response);
    // A JSON-RPC error is an answer on either endpoint (`POST /prompts` of a server without prompts: -32601).
    if (reply !== undefined && !reply.ok) {
      throw errorFromRpc(reply.error, { method, wire: this.wire, status: response.status });
    }
    if (list !== undefined) {
      if (!isObject(parsed) || !Array.isArray(parsed[list])) throw unreadable(response, parsed);
      return { kind: "complete", result: parsed };
    }
    if (reply === undefined || !reply.ok) throw unreadable(response, parsed);
    return replyFromLite(reply.result);
  }

  /** Reads an SSE answer: partials, progress and logs as they come, then `done` or `error`. */
  async #readStream(response: Response, ctx: RequestContext): Promise<Reply> {
    const partials: unknown[] = [];
    const cursor = { lastEventId: undefined, retryMs: undefined };
    for await (const event of readSse(response.body!, cursor, ctx.signal, this.#http.maxResponseBytes)) {
      const type = event.event ?? "message";
      if (type === "heartbeat") continue;
      const data = parseData(event.data, type);
      if (type === "done") return replyFromLite(finalResult(data, partials));
      if (type === "error") {
        throw errorFromRpc(rpcErrorOf(data), { method: "tools/call", wire: this.wire, status: response.status });
      }
      ctx.activity();
      if (type === "message") {
        const partial = typeof data === "object" && data !== null && "partial" in data
          ? (data as { partial: unknown }).partial
          : data;
        partials.push(partial);
        ctx.onPartial?.(partial);
      } else if (type === "progress" && typeof data === "object" && data !== null) {
        const p = data as Record<string, unknown>;
        if (typeof p.progress === "number") {
          ctx.onProgress?.({
            progress: p.progress,
            ...(typeof p.total === "number" ? { total: p.total } : {}),
            ...(typeof p.message === "string" ? { message: p.message } : {}),
          });
        }
      } else if (type === "log" && typeof data === "object" && data !== null) {
        const l = data as Record<string, unknown>;
        ctx.onLog?.({
          level: String(l.level ?? "info"),
          data: l.data,
          ...(typeof l.logger === "string" ? { logger: l.logger } : {}),
        });
      }
    }
    throw transportError("The event stream ended before its done event", { status: response.status });
  }

  async #failure(response: Response, method: string, signal: AbortSignal): Promise<Error> {
    if (!isJsonResponse(response)) return await httpError(response);
    const reply = replyFrom(
      await readJsonBody(response, signal, this.#http.maxResponseBytes).catch(() => undefined),
      response,
    );
    if (reply !== undefined && !reply.ok) {
      return errorFromRpc(reply.error, { method, wire: this.wire, status: response.status });
    }
    return transportError(`HTTP ${response.status} from ${response.url || method}`, { status: response.status });
  }
}

/** An endpoint of an extension: its path under the base, and for a listing the field that holds the list. */
interface Endpoint {
  readonly path: string;
  readonly list?: string;
}

/** The methods of this SDK's MCP-lite extensions E1 (prompts, §8.1) and E4 (resources), at their endpoints. */
const EXTENDED: Readonly<Record<string, Endpoint>> = {
  "prompts/list": { path: "/prompts", list: "prompts" },
  "prompts/get": { path: "/prompts/get" },
  "resources/list": { path: "/resources", list: "resources" },
  "resources/templates/list": { path: "/resources/templates", list: "resourceTemplates" },
  "resources/read": { path: "/resources/read" },
};

/** Where any other method goes: JSON-RPC at `/rpc` (this SDK's MCP-lite extension E5, an extension's methods). */
const RPC: Endpoint = { path: "/rpc" };

function parseData(data: string, type: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    if (type === "message") return data; // a plain-text partial
    throw rpcError(`The ${type} event is not JSON`, { data });
  }
}

/** The `done` event's result; a `done` with only `_meta` (MCP-lite spec v0.042 A.4) gets the partials as content. */
function finalResult(data: unknown, partials: unknown[]): Record<string, unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw rpcError("The done event must carry a result object", { data });
  }
  const result = data as Record<string, unknown>;
  if (Array.isArray(result.content) || partials.length === 0) return result;
  const text = partials.every((p) => typeof p === "string")
    ? [{ type: "text", text: partials.join("") }]
    : partials.map((p) => ({ type: "text", text: typeof p === "string" ? p : JSON.stringify(p) }));
  return { ...result, content: text };
}
