/**
 * The MCP-lite HTTP transport (MCP-lite spec v0.042 §4): `POST {base}/listtools` and `POST {base}/calltools`, JSON or
 * SSE (`message` partials, `done`, `error`, `heartbeat`, plus the `progress` and `log` extensions), and the
 * prompts and resources endpoints of this SDK's extensions (E1: `/prompts`, `/prompts/get`; E4: `/resources`,
 * `/resources/templates`, `/resources/read`).
 *
 * @module
 */
import { errorFromRpc } from "../errors.ts";
import {
  type FetchLike,
  type HttpOptions,
  isEventStream,
  listingHintOf,
  readJsonBody,
  replyFrom,
  unreadable,
} from "../http.ts";
import { HttpEndpoint } from "../http-endpoint.ts";
import { replyFromLite } from "../read-result.ts";
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
    if (!response.ok) throw await (await onDemand()).liteFailure(this.#http, response, "tools/list", ctx.signal);
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
    if (isEventStream(response) && response.ok) {
      return await (await onDemand()).readLiteStream(response, ctx, this.#http.maxResponseBytes);
    }
    const parsed = await readJsonBody(response, ctx.signal, this.#http.maxResponseBytes);
    const reply = replyFrom(parsed, response);
    if (reply === undefined) throw unreadable(response, parsed);
    if (!reply.ok) throw errorFromRpc(reply.error, { method: "tools/call", wire: this.wire, status: response.status });
    return replyFromLite(reply.result);
  }

  /**
   * Sends the methods of this SDK's MCP-lite extensions (E1 prompts, E4 resources, E5 an extension's methods at
   * `/rpc`), loaded with their first use (`requestLite()`); other methods are not MCP-lite's.
   */
  request(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    return onDemand().then((m) => m.requestLite(this.#http, () => this.#nextId++, method, params, ctx));
  }
}

/** What the transport loads with its first use (an extension's method, an SSE answer, a refusal). */
const onDemand = () => import("../loaded-on-demand.ts");
