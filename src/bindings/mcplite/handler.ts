/**
 * The MCP-lite HTTP binding (MCP-lite spec v0.042 §4): the HTTP carrier of MCP-lite's method table
 * (`methods.ts`), each method at its endpoints (`POST {base}/listtools`, `/calltools`, `/prompts`,
 * `/prompts/get`), answered as JSON or, for a call whose client accepts it, as SSE.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { callNow, type CallOutcome, registryOf, type runCall, runRequest } from "../../core/mod.ts";
import * as longRunning from "../../jobs/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import { createSseStream } from "../../internal/sse.ts";
import { followAbort } from "../../internal/follow-abort.ts";
import {
  acceptsEventStream,
  answerJson,
  answers,
  type Binding,
  holdMsOf,
  type Host,
  JSON_INIT,
  JSON_VALUE_INIT,
  normalisePath,
  type Route,
  type RouteHandler,
  type ServerCore,
  sseResponse,
} from "../../server/mod.ts";
import { idOf, type JsonRpcId, parseJsonRpcRequest, resultEnvelope } from "../jsonrpc.ts";
import { errorToWire, jsonRpcErrorResponse } from "../jsonrpc-error.ts";
import { listMessage, resultWithMeta } from "./envelope.ts";
import { liteCall, liteMessages } from "./dispatch.ts";
import { LITE_METHODS, type LiteList, liteMethod, litePart } from "./methods.ts";
import { errorCodeToWire } from "../../errors/mcplite-codes.ts";
import { liteCallMeta } from "./lite-caller.ts";

type CallRequest = Parameters<typeof runCall>[1];
type MethodRequest = Parameters<typeof runRequest>[1];

/** Options of {@link mcpLiteBinding}. */
export interface McpliteOptions {
  /** The base path of the endpoints (default `/mcp-lite/v1`). */
  readonly basePath?: string;
  /**
   * How long a call streamed as SSE follows the deferred work (`ctx.defer()`) it started, pushing its
   * progress and then its result, before it answers the promise instead (MCP-lite spec v0.042 §5.3,
   * server-pushed updates), in ms (default: the server's `holdMs`, 30 000; 0: answer the promise at once).
   */
  readonly holdMs?: number;
}

const POST_ONLY = { allow: "POST" };
/** The answer to a notification: none (202, no body). */
const accepted = () => new Response(null, { status: 202 });
const NOT_ALLOWED = new ProtocolError("method_not_allowed", "Method not allowed: use POST");

/**
 * Creates the MCP-lite HTTP binding, one of `createServer()`'s default bindings.
 *
 * @param options The base path.
 * @returns The binding, for `createServer({ bindings })`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool, mcpLiteBinding } from "../../../mod.ts";
 * const server = createServer({ name: "demo", version: "1.0.0", bindings: [mcpLiteBinding({ basePath: "/lite" })] })
 *   .tool(defineTool("ping").handle(() => "pong"));
 * const response = await server.fetch(new Request("http://localhost/lite/listtools", {
 *   method: "POST", headers: { "content-type": "application/json" }, body: "{}",
 * }));
 * assert.equal((await response.json()).tools[0].name, "ping");
 * ```
 */
export function mcpLiteBinding(options: McpliteOptions = {}): Binding {
  const base = normalisePath(options.basePath ?? "/mcp-lite/v1");
  const own = options.holdMs === undefined ? undefined : holdMsOf(options.holdMs, "holdMs");
  return function mcpLite(core) {
    const { options: server } = core;
    const registry = registryOf(core);
    longRunning.overrideHold(registry, "mcp-lite", own); // the socket carriers of MCP-lite read it too
    const holdMs = longRunning.holdFor(core, "mcp-lite");
    const report = (error: unknown) => registry.runtime.onError?.(error);
    const fail = (id: JsonRpcId, error: unknown) =>
      jsonRpcErrorResponse(id, error, errorCodeToWire, report, error === NOT_ALLOWED ? POST_ONLY : undefined);
    const refuse = (error: ProtocolError, id: JsonRpcId = null) => fail(id, error);

    /** A listing's own endpoint (`/listtools`, `/prompts`): a plain POST, inside the request middleware. */
    const listRoute = (name: string, method: LiteList): RouteHandler => (request, host) =>
      answerJson(request, server, NOT_ALLOWED, (body) =>
        runRequest(
          registry,
          listRequest(name, request, host, null, isObject(body) ? body : {}),
          (ctx) => method.bytes(registry, ctx.auth),
        ).then((listed) => new Response(listed, JSON_INIT)), (error) => fail(null, error));

    /**
     * A JSON-RPC endpoint (`/calltools`, `/prompts/get`): any method of the table, by its name. No
     * promise where nothing is pending: a body already held (Bun) and a synchronous tool answer at once.
     */
    const rpcRoute: RouteHandler = (request, host) => {
      let id: JsonRpcId = null;
      // What `answer` throws or rejects with is answered with the request's id, once read.
      const failed = (error: unknown) => fail(id, error);
      return answerJson(request, server, NOT_ALLOWED, (body) => answer(request, host, body, id = idOf(body)), failed);
    };

    /** The answer to a JSON-RPC body: a `Response` at once where the method answered at once. */
    const answer = (request: Request, host: Host, body: unknown, id: JsonRpcId): Response | Promise<Response> => {
      const rpc = parseJsonRpcRequest(body);
      // An extension's method (SEP-2133, E5) from the table without a prototype its feature brought.
      const method = liteMethod(rpc.method) ?? litePart(registry, (part) => part.methods?.[rpc.method]);
      if (method?.kind === "list") {
        return runRequest(
          registry,
          listRequest(rpc.method, request, host, id, rpc.params),
          (ctx) => listMessage(method.bytes(registry, ctx.auth), id),
        ).then((listed) => new Response(listed, JSON_INIT));
      }
      const meta = liteCallMeta(request.headers, id, rpc.params);
      if (method?.kind === "get") {
        const answered = method.answer(registry, rpc, { meta, signal: request, host }, server.version);
        // A notification (no id) is never answered (JSON-RPC 2.0, §4.1), a refusal of request middleware included:
        // 202 with no body, as MCP 2025-11-25's Streamable HTTP answers one (Transports); what failed goes to onError.
        if (method.notification && rpc.id === undefined) return answered.then(accepted, (e) => (report(e), accepted()));
        // An extension's method answered as SSE (extension-stream.ts) is its own response.
        return answered.then((result) =>
          result instanceof Response ? result : answers.json(resultEnvelope(id, result), JSON_VALUE_INIT)
        );
      }
      // `tools/call`, or a method MCP-lite does not serve (refused by liteCall).
      const call = liteCall(rpc, meta, request, host);
      if (acceptsEventStream(request)) return streamLite(core, request, call, id, fail, holdMs);
      const started = Date.now();
      // Response.json serialises straight into the body (on Bun ~0.5 µs less than a string Response).
      const done = (outcome: CallOutcome) =>
        answers.json(resultEnvelope(id, resultWithMeta(outcome, started, server.version)), JSON_VALUE_INIT);
      const running = callNow(registry, call);
      return running instanceof Promise ? running.then(done) : done(running);
    };

    // The routes, from MCP-lite's method table: each method at its own endpoints.
    const routes = new Map<string, Route>();
    for (const [name, method] of Object.entries(LITE_METHODS)) {
      const route: Route = method.kind === "list"
        ? { handle: listRoute(name, method), refuse, methods: "POST" }
        : { handle: rpcRoute, refuse, methods: "POST", jsonRpc: true };
      for (const path of method.paths) routes.set(base + path, route);
    }
    return { routes };
  };
}

/** A list request (`/listtools`, `/prompts`, or the method on a JSON-RPC endpoint), as request middleware sees it. */
function listRequest(
  method: string,
  request: Request,
  host: Host,
  id: JsonRpcId,
  params: Readonly<Record<string, unknown>>,
): MethodRequest {
  const meta = liteCallMeta(request.headers, id, params);
  return { method, params, meta, signal: request, host };
}

/**
 * Answers a call as SSE (MCP-lite spec v0.042 §4.3): `message` events with `{"partial": …}`, then one
 * `done` event with the complete result and its `_meta`; a protocol error is one `error` event;
 * `heartbeat` events keep the connection alive. Progress and logs travel as `progress` and `log`
 * events (extensions that plain MCP-lite clients ignore). A call that starts deferred work follows it
 * for up to `holdMs`: the job's progress, then its result in `done`, instead of a promise (§5.3). The
 * stream opens at the call's first event, first heartbeat, the start of that following, or its end: a call refused for its caller (401,
 * or 403 for a missing scope) before then is answered with that status and no stream, so the gate can
 * add its `WWW-Authenticate` challenge (MCP 2025-11-25, Authorization, Scope Challenge Handling).
 */
async function streamLite(
  core: ServerCore,
  request: Request,
  call: CallRequest,
  id: JsonRpcId,
  fail: (id: JsonRpcId, error: unknown) => Response,
  holdMs: number,
): Promise<Response> {
  const { options: server } = core;
  const registry = registryOf(core);
  // The call stops when the request aborts or the client closes the stream.
  const cancel = new AbortController();
  const unfollow = followAbort(cancel, request.signal);
  const signal = cancel.signal;
  let opened = false;
  let open!: () => void;
  const opening = new Promise<void>((resolve) => (open = resolve));
  let refusal: ProtocolError | undefined;
  const body = createSseStream(async (writer) => {
    const emit = (data: string, name: string) => {
      opened = true;
      open();
      writer.event(data, name);
    };
    try {
      for await (const message of liteMessages(registry, { ...call, signal }, holdMs, server.version)) {
        if (message.kind === "result") emit(JSON.stringify(message.result), "done");
        // Following deferred work for up to holdMs: the headers go now (a heartbeat flushes them on every
        // runtime), so a proxy's response-header timeout does not cut the held call.
        else if (message.kind === "held") emit(heartbeatData(), "heartbeat");
        else emit(JSON.stringify(message.params), SSE_EVENT[message.kind]);
      }
    } catch (error) {
      if (!opened && isCallerRefusal(error)) {
        refusal = error;
        return open();
      }
      const wire = errorToWire(error, errorCodeToWire, (e) => registry.runtime.onError?.(e));
      emit(JSON.stringify({ id, code: wire.code, message: wire.message, data: wire.data }), "error");
    } finally {
      unfollow();
    }
  }, {
    heartbeatMs: server.heartbeatMs,
    heartbeat: (writer) => {
      opened = true;
      open();
      writer.event(heartbeatData(), "heartbeat");
    },
    onCancel: () => cancel.abort(new Error("the client closed the stream")),
  });
  await opening;
  if (refusal === undefined) return sseResponse(body);
  await body.cancel();
  return fail(id, refusal);
}

/** A `heartbeat` event's data (MCP-lite spec v0.042 §4.3). */
const heartbeatData = (): string => `{"timestamp":"${new Date().toISOString()}"}`;

/** The SSE event of each message a call sends while it runs (MCP-lite spec v0.042 §4.3; `progress` and `log`: extensions). */
const SSE_EVENT = { partial: "message", progress: "progress", log: "log" } as const;

/** A refusal of the caller (no token, a bad one, a missing scope): an HTTP status the client acts on. */
function isCallerRefusal(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError &&
    (error.code === "unauthenticated" || error.code === "permission_denied");
}
