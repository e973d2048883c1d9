/**
 * What the MCP-lite transport runs only when it needs it, loaded with `loaded-on-demand.ts` (a one-call client
 * reaches none of it): the methods of this SDK's MCP-lite extensions (E1 prompts, E4 resources, E5 an extension's
 * methods at `/rpc`), an SSE answer to `POST /calltools` (MCP-lite spec v0.042 §4: `message` partials, `done`,
 * `error`, `heartbeat`, plus the `progress` and `log` extensions), and the error a refused request carries.
 *
 * @module
 */
import { clientError, errorFromRpc, rpcError, rpcErrorOf, transportError } from "../errors.ts";
import { isObject } from "../../internal/is-object.ts";
import { META } from "../../internal/mcp-wire.ts";
import {
  httpError,
  isEventStream,
  isJsonResponse,
  readJsonBody,
  replyFrom,
  streamBrokeOff,
  unreadable,
} from "../http.ts";
import { rethrowAbort } from "../deadline.ts";
import { McpliteError } from "../../errors/error.ts";
import type { HttpEndpoint } from "../http-endpoint.ts";
import { replyFromLite } from "../read-result.ts";
import { readSse } from "../read-sse.ts";
import { sendTraced, withTraceHeaders, withTraceMeta } from "../carry-trace.ts";
import type { Reply, RequestContext } from "../transport.ts";
import { isExtensionMethod } from "./extension-method-name.ts";

/** The transport's name for itself, in the errors it raises. */
const WIRE = "mcp-lite";

/**
 * Sends the methods of this SDK's MCP-lite extensions (E1 prompts, E4 resources) at their endpoints
 * ({@link EXTENDED}): a listing as a plain POST of its params, a read as JSON-RPC. An extension's method (SEP-2133:
 * under a reverse-DNS vendor prefix, `org.example/ledger/get`) is JSON-RPC at `/rpc`, as this SDK's servers answer
 * it (E5), as are MCP Events' methods (`events/list`…); a notification (`ctx.notification`) too, as a request
 * whose result is empty: MCP-lite has no notifications. MCP's own methods (skills, tasks…) are not MCP-lite's.
 *
 * @param http The transport's endpoint.
 * @param nextId Takes the transport's next JSON-RPC id.
 * @param method The method.
 * @param params The params.
 * @param ctx The request context.
 * @returns The reply.
 */
export function requestLite(
  http: HttpEndpoint,
  nextId: () => number,
  method: string,
  params: Record<string, unknown>,
  ctx: RequestContext,
): Promise<Reply> {
  const endpoint = Object.hasOwn(EXTENDED, method) ? EXTENDED[method] : isExtensionMethod(method) ? RPC : undefined;
  if (endpoint === undefined) {
    return Promise.reject(clientError("unsupported", `${method} is not available over ${WIRE}`));
  }
  // A listing is a plain POST; a read is JSON-RPC, with an id.
  const id = endpoint.list === undefined ? nextId() : undefined;
  // An extension's method declares the client's capabilities as MCP 2026-07-28 requests do (`_meta`; a request's own
  // declaration wins): MCP-lite has no `initialize`, and SEP-3415's profile (its codes, `webhook-id`) is chosen by it.
  if (endpoint === RPC) {
    params = {
      ...params,
      _meta: { [META.clientCapabilities]: ctx.capabilities, ...(params._meta as object | undefined) },
    };
  }
  const request = { method, params, id, peer: http.peer };
  return sendTraced(ctx, request, (sent) => send(http, method, endpoint, id, params, sent));
}

async function send(
  http: HttpEndpoint,
  method: string,
  { path, list }: Endpoint,
  id: number | undefined,
  params: Record<string, unknown>,
  ctx: RequestContext,
): Promise<Reply> {
  // A caller that hears the method's notifications takes them as SSE (E5): e.g. SEP-3415's push, `events/stream`.
  const streams = ctx.hearsNotifications === true && path === RPC.path;
  const accept = streams ? "application/json, text/event-stream" : "application/json";
  const headers = withTraceHeaders(await http.headers({ "content-type": "application/json", accept }), ctx);
  const body = id === undefined
    ? JSON.stringify(params)
    : JSON.stringify({ jsonrpc: "2.0", id, method, params: withTraceMeta(params, ctx) });
  const response = await http.post(path, headers, body, ctx.signal);
  if (!response.ok) throw await liteFailure(http, response, method, ctx.signal);
  if (streams && isEventStream(response)) return await readRpcStream(response, method, ctx, http.maxResponseBytes);
  const parsed = await readJsonBody(response, ctx.signal, http.maxResponseBytes);
  const reply = replyFrom(parsed, response);
  // A JSON-RPC error is an answer on either endpoint (`POST /prompts` of a server without prompts: -32601).
  if (reply !== undefined && !reply.ok) {
    throw errorFromRpc(reply.error, { method, wire: WIRE, status: response.status });
  }
  if (list !== undefined) {
    if (!isObject(parsed) || !Array.isArray(parsed[list])) throw unreadable(response, parsed);
    return { kind: "complete", result: parsed };
  }
  if (reply === undefined || !reply.ok) throw unreadable(response, parsed);
  return replyFromLite(reply.result);
}

/**
 * Reads an SSE answer to an extension's method at `/rpc` (E5, as MCP's Streamable HTTP answers a POST): each event one
 * JSON-RPC message, the notifications to the request's `onNotification` as they come, then its response.
 */
async function readRpcStream(
  response: Response,
  method: string,
  ctx: RequestContext,
  maxResponseBytes: number,
): Promise<Reply> {
  const cursor = { lastEventId: undefined, retryMs: undefined };
  return await unbroken(ctx.signal, async () => {
    for await (const event of readSse(response.body!, cursor, ctx.signal, maxResponseBytes)) {
      const message = parseData(event.data, "message");
      if (!isObject(message)) continue;
      ctx.activity();
      if (typeof message.method === "string") {
        ctx.onNotification?.(message.method, isObject(message.params) ? message.params : {});
        continue;
      }
      const reply = replyFrom(message, response);
      if (reply === undefined) continue;
      if (!reply.ok) throw errorFromRpc(reply.error, { method, wire: WIRE, status: response.status });
      return replyFromLite(reply.result);
    }
    throw transportError(`${method}: the event stream ended before its response`, { status: response.status });
  });
}

/**
 * Reads an SSE answer, its body breaking off the transport's failure (`streamBrokeOff()`, as MCP's streams'), so that
 * `client.events.stream()` reconnects from its cursor; the answer's own errors pass as they are.
 */
async function unbroken<T>(signal: AbortSignal, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    rethrowAbort(signal, error instanceof McpliteError ? error : streamBrokeOff(error));
  }
}

/**
 * Reads an SSE answer to `POST /calltools`: partials, progress and logs as they come, then `done` or `error`.
 *
 * @param response The answer, an event stream.
 * @param ctx The request context.
 * @param maxResponseBytes The most bytes one event may hold.
 * @returns The reply.
 */
export async function readLiteStream(
  response: Response,
  ctx: RequestContext,
  maxResponseBytes: number,
): Promise<Reply> {
  const partials: unknown[] = [];
  const cursor = { lastEventId: undefined, retryMs: undefined };
  return await unbroken(ctx.signal, async () => {
    for await (const event of readSse(response.body!, cursor, ctx.signal, maxResponseBytes)) {
      const type = event.event ?? "message";
      if (type === "heartbeat") continue;
      const data = parseData(event.data, type);
      if (type === "done") return replyFromLite(finalResult(data, partials));
      if (type === "error") {
        throw errorFromRpc(rpcErrorOf(data), { method: "tools/call", wire: WIRE, status: response.status });
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
  });
}

/**
 * The error of a refused MCP-lite request: the JSON-RPC error its JSON body carries, else the HTTP status's.
 *
 * @param http The transport's endpoint.
 * @param response The answer, not OK.
 * @param method The method sent.
 * @param signal Aborts reading the body.
 * @returns The error to throw.
 */
export async function liteFailure(
  http: HttpEndpoint,
  response: Response,
  method: string,
  signal: AbortSignal,
): Promise<Error> {
  if (!isJsonResponse(response)) return await httpError(response);
  const reply = replyFrom(
    await readJsonBody(response, signal, http.maxResponseBytes).catch(() => undefined),
    response,
  );
  if (reply !== undefined && !reply.ok) {
    return errorFromRpc(reply.error, { method, wire: WIRE, status: response.status });
  }
  return transportError(`HTTP ${response.status} from ${response.url || method}`, { status: response.status });
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

/** Where an extension's method goes: JSON-RPC at `/rpc` (this SDK's MCP-lite extension E5). */
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
