/**
 * The MCP-lite HTTP binding: `POST {base}/listtools` and `POST {base}/calltools`, JSON or SSE.
 *
 * @module
 */
import { CallContext, type CallMeta, type CallSink } from "../../core/call-context.ts";
import { dispatch } from "../../core/dispatch.ts";
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import type { ToolCall } from "../../core/middleware.ts";
import { InputRound } from "../../core/input-round.ts";
import type { CallOutcome } from "../../core/outcome.ts";
import { drainStream } from "../../core/stream.ts";
import { idOf, type JsonRpcId, parseJsonRpcRequest } from "../../internal/jsonrpc.ts";
import { createSseStream, type SseWriter } from "../../internal/sse.ts";
import { acceptsEventStream, readJson } from "../../server/read-json.ts";
import { JSON_HEADERS, JSON_INIT, JSON_VALUE_INIT, type RouteHandler, type Routes, type ServerCore, SSE_HEADERS } from "../../server/server-core.ts";
import { errorToWire, jsonRpcErrorResponse } from "../jsonrpc-error.ts";
import {
  CALL_PATHS,
  INPUT_RESPONSES_PARAM,
  LIST_PATHS,
  listBytes,
  listMessage,
  REQUEST_STATE_PARAM,
  resultWithMeta,
} from "./envelope.ts";
import { errorCodeToWire } from "./status.ts";

const POST_ONLY = { allow: "POST" };
const NOT_ALLOWED = new ProtocolError(ErrorCode.MethodNotAllowed, "Method not allowed: use POST");

/**
 * Creates the MCP-lite routes of a server.
 *
 * @param core The server's registry and options.
 * @param basePath The base path, e.g. `/mcp-lite/v1`.
 * @returns The routes.
 */
export function createMcpliteRoutes(core: ServerCore, basePath: string): Routes {
  const { registry, options } = core;
  const report = (error: unknown) => registry.onError?.(error);
  const fail = (id: JsonRpcId, error: unknown) =>
    jsonRpcErrorResponse(id, error, errorCodeToWire, report, error === NOT_ALLOWED ? POST_ONLY : undefined);

  const listTools: RouteHandler = async function listTools(request) {
    try {
      if (request.method !== "POST") throw NOT_ALLOWED;
      await readJson(request, options);
      return new Response(listBytes(registry), JSON_INIT);
    } catch (error) {
      return fail(null, error);
    }
  };

  const callTools: RouteHandler = async function callTools(request) {
    let id: JsonRpcId = null;
    try {
      if (request.method !== "POST") throw NOT_ALLOWED;
      const body = await readJson(request, options);
      id = idOf(body);
      const rpc = parseJsonRpcRequest(body);
      if (rpc.method === "tools/list") {
        return new Response(listMessage(registry, id), JSON_INIT);
      }
      if (rpc.method !== "tools/call") {
        throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${rpc.method}`);
      }
      if (rpc.id === undefined) {
        throw new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: tools/call needs an id");
      }
      const { name, arguments: args } = rpc.params;
      if (typeof name !== "string") throw new ProtocolError(ErrorCode.InvalidParams, "params.name must be a string");
      const meta: CallMeta = { wire: "mcp-lite", headers: request.headers, requestId: id };
      if (acceptsEventStream(request)) return streamCall(core, request, id, rpc.params, name, args, meta);
      const started = performance.now();
      // Input rounds: the answers to an `elicitation` come back as params next to the echoed state.
      const round = new InputRound(rpc.params[INPUT_RESPONSES_PARAM], rpc.params[REQUEST_STATE_PARAM]);
      const call: ToolCall = { name, arguments: args, ctx: new CallContext(name, request, meta, round), round };
      let outcome = await dispatch(registry, call);
      if (outcome.kind === "stream") outcome = await drainStream(registry, call, outcome, ignore);
      // Response.json serialises straight into the body (on Bun ~0.5 µs less than a string Response).
      return Response.json({ jsonrpc: "2.0", id, result: resultWithMeta(outcome, started, options.version) }, JSON_VALUE_INIT);
    } catch (error) {
      return fail(id, error);
    }
  };

  const routes: Routes = new Map();
  for (const path of LIST_PATHS) routes.set(basePath + path, listTools);
  for (const path of CALL_PATHS) routes.set(basePath + path, callTools);
  return routes;
}

function ignore(): void {}

/**
 * Answers a call as SSE: `message` events with `{"partial": …}`, then one `done` event with the
 * complete result and its `_meta`; a protocol error is one `error` event; `heartbeat` events keep the
 * connection alive. Progress and logs travel as `progress` and `log` events (extensions that plain
 * MCP-lite clients ignore).
 */
function streamCall(
  core: ServerCore,
  request: Request,
  id: JsonRpcId,
  params: Record<string, unknown>,
  name: string,
  args: unknown,
  meta: CallMeta,
): Response {
  const { registry, options } = core;
  const cancel = new AbortController();
  const signal = AbortSignal.any([request.signal, cancel.signal]);
  let out: SseWriter | undefined;
  const sink: CallSink = {
    progress: (progress, total, message) => out?.event(JSON.stringify({ progress, total, message }), "progress"),
    log: (level, data, logger) => out?.event(JSON.stringify({ level, logger, data }), "log"),
  };
  const round = new InputRound(params[INPUT_RESPONSES_PARAM], params[REQUEST_STATE_PARAM], sink);
  const call: ToolCall = { name, arguments: args, ctx: new CallContext(name, signal, meta, round), round };
  const started = performance.now();
  const body = createSseStream(async (writer) => {
    out = writer;
    try {
      const first = await dispatch(registry, call);
      const outcome: CallOutcome = first.kind === "stream"
        ? await drainStream(registry, call, first, (partial) => writer.event(JSON.stringify({ partial }), "message"))
        : first;
      writer.event(JSON.stringify(resultWithMeta(outcome, started, options.version)), "done");
    } catch (error) {
      const wire = errorToWire(error, errorCodeToWire, (e) => registry.onError?.(e, call));
      writer.event(JSON.stringify({ id, code: wire.code, message: wire.message, data: wire.data }), "error");
    }
  }, {
    heartbeatMs: options.heartbeatMs,
    heartbeat: (writer) => writer.event(`{"timestamp":"${new Date().toISOString()}"}`, "heartbeat"),
    onCancel: () => cancel.abort(new Error("the client closed the stream")),
  });
  return new Response(body, { headers: SSE_HEADERS });
}
