/**
 * The `mcplite.MCPLite` service (MCP-lite spec v0.042 §5): a thin translator from `ToolRequest` to the call pipeline
 * and from its outcome to `ToolResponse`, shared by the fetch routes and the HTTP/2 listener.
 *
 * @module
 */
// Connect documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import { type ConnectRouter, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { ProtocolError } from "../../errors/error.ts";
import {
  type AuthInfo,
  type CallMeta,
  callNow,
  type CallOutcome,
  type Registry,
  registryOf,
  type runCall,
  runRequest,
  type SignalSource,
  streamCall,
} from "../../core/mod.ts";
import * as longRunning from "../../jobs/mod.ts";
import { MCPLite, type ToolRequest } from "./messages.ts";
import { holdMsOf, type Host, NO_HOST, type ServerCore } from "../../server/mod.ts";
import {
  partialResponse,
  progressResponse,
  responseFromOutcome,
  structOf,
  type ToolResponseInit,
  toolsList,
} from "./envelope.ts";
import { HOST_KEY } from "./host-key.ts";
import { getPrompt, getPrompts, listResources, readResource } from "./prompt-resource-methods.ts";
import { callMethod } from "./extension-method.ts";
import { callMethodStream } from "./extension-method-stream.ts";
import { asConnectErrors, errorToConnectError } from "./status.ts";
import { abortReason, untilDeadline } from "./call-deadline.ts";
import { addReflection } from "./reflection.ts";

type CallRequest = Parameters<typeof runCall>[1];

/**
 * Creates the implementation of the `mcplite.MCPLite` service over a server's core. Build it once per
 * server: every call only creates its `CallContext`.
 *
 * @param core The server's registry and options.
 * @returns The service implementation, for `router.service(MCPLite, impl)`.
 */
export function createMcpliteService(core: ServerCore): ServiceImpl<typeof MCPLite> {
  const { options } = core;
  const registry = registryOf(core);
  const version = options.version;
  const report = (error: unknown) => registry.runtime.onError?.(error);
  const callTool = createCallTool(core);

  return {
    getTools(_request, context) {
      const source = { headers: context.requestHeader, signal: context.signal };
      return listToolsFor(registry, source, context.values.get(HOST_KEY), (auth) => toolsList(registry, auth));
    },

    callTool(request, context) {
      return callTool(request, context, context.values.get(HOST_KEY));
    },

    getPrompts(_request, context) {
      return getPrompts(registry, context);
    },

    getPrompt(request, context) {
      return getPrompt(registry, version, request, context);
    },

    async getResources(_request, context) {
      return { resources: await listResources(registry, context, false) };
    },

    async getResourceTemplates(_request, context) {
      return { resourceTemplates: await listResources(registry, context, true) };
    },

    readResource(request, context) {
      return readResource(registry, version, request, context);
    },

    callMethod(request, context) {
      return callMethod(registry, request, context);
    },

    callMethodStream(request, context) {
      return callMethodStream(registry, request, context);
    },

    async *callToolStream(request, context) {
      const started = performance.now();
      try {
        const call = callOf(request, context.signal, context.requestHeader, context.values.get(HOST_KEY));
        // Partials and progress as they come (the call's own, then its deferred work's: spec §5.3), then
        // the outcome; logs have no message on this stream.
        const events = streamCall(registry, call, { holdMs: longRunning.holdFor(core, "grpc") });
        try {
          while (true) {
            const next = await untilDeadline(events.next(), context);
            if (next.done) return;
            const event = next.value;
            if (event.type === "outcome") {
              throwIfAborted(context.signal);
              yield responseFromOutcome(event.outcome, started, version);
            } else if (event.type === "partial") {
              yield partialResponse(event.partial);
            } else if (event.type === "progress") {
              yield progressResponse(event.progress, event.total, event.message);
            }
          }
        } finally {
          await events.return(); // releases the handler when the client went away mid-stream
        }
      } catch (error) {
        throw errorToConnectError(error, report);
      }
    },
  };
}

/**
 * Answers one unary `CallTool`: decodes the request, runs it through the call pipeline, and returns the
 * complete response, or throws the `ConnectError` the wire carries. A call that was cancelled (or ran
 * out of time) answers that instead of a late result. A call that finished at once (a synchronous tool,
 * no middleware) answers at once, with no promise; it may then throw synchronously.
 *
 * @param request The decoded request.
 * @param from Connect's handler context, when Connect serves the call (its signal, headers and
 *   deadline); or, on a direct path, the call's headers and signal (the fetch `Request` itself): its
 *   signal is then read only if the handler asks for it.
 * @returns The complete response, or a promise of it while the call runs.
 * @throws {ConnectError} Any failure, as {@link errorToConnectError} converts it.
 */
export type CallToolFn = (
  request: ToolRequest,
  from: HandlerContext | CallSource,
  host?: Host,
) => ToolResponseInit | Promise<ToolResponseInit>;

/** A call on a direct path, without Connect's context: its headers, and its signal (read on demand). */
export interface CallSource {
  /** The request's headers (gRPC metadata). */
  readonly headers: Headers;
  /** Aborts when the client goes away or the listener stops. */
  readonly signal: AbortSignal;
}

/**
 * Creates the unary `CallTool` of a server, shared by Connect's handlers and the direct unary paths.
 * Build it once per server.
 *
 * @param core The server's registry and options.
 * @returns The function that answers one call.
 */
export function createCallTool(core: ServerCore): CallToolFn {
  const { options } = core;
  const registry = registryOf(core);
  const version = options.version;
  const report = (error: unknown) => registry.runtime.onError?.(error);
  const failed = (error: unknown): never => {
    throw errorToConnectError(error, report);
  };
  return function callTool(request, from, host) {
    const started = performance.now();
    // Connect's context brings a signal, headers and maybe a deadline; a bare `Request` (or a direct
    // path's call) brings its signal, read only if the handler asks for it.
    let context: HandlerContext | undefined, lazy: LazySignal | undefined, headers: Headers | CallSource;
    if (!("requestHeader" in from)) {
      lazy = new LazySignal(from);
      headers = from; // read when the call asks for them: a direct path may have to copy them
    } else {
      context = from;
      headers = from.requestHeader;
    }
    const answer = (outcome: CallOutcome) => {
      // A cancelled call answers that; a lazy signal can only have aborted for a handler that took it.
      if (context !== undefined) throwIfAborted(context.signal);
      else if (lazy?.read) throwIfAborted(lazy.signal);
      return responseFromOutcome(outcome, started, version);
    };
    try {
      // No promise where the call finished at once (callNow): a synchronous tool answers at once.
      const running = callNow(registry, callOf(request, lazy ?? from as HandlerContext, headers, host ?? NO_HOST));
      if (running instanceof Promise) return untilDeadline(running, context).then(answer).catch(failed);
      return answer(running);
    } catch (error) {
      return failed(error);
    }
  };
}

/** Hands a request's signal to a call only when the handler asks for it, and remembers that it did. */
class LazySignal implements SignalSource {
  #request: CallSource;
  /** Whether the signal was read. */
  read = false;

  constructor(request: CallSource) {
    this.#request = request;
  }

  get signal(): AbortSignal {
    this.read = true;
    return this.#request.signal;
  }
}

/** Options of {@link createGrpcRoutes}, `grpcBinding()` and `serveGrpc()`. */
export interface GrpcRoutesOptions {
  /**
   * Serves gRPC Server Reflection beside `mcplite.MCPLite` (`grpc.reflection.v1.ServerReflection`
   * and `grpc.reflection.v1alpha.ServerReflection`), so that `grpcurl`, `buf curl --reflect` and
   * Postman list the service and describe its methods and messages without the `.proto`. It describes
   * only the service's published schema (the MCP-lite spec's `.proto`), never the tools, which
   * `GetTools` lists. Default `true`; `false` leaves it out.
   */
  reflection?: boolean;
  /**
   * How long `CallToolStream` follows the deferred work a call started (`ctx.defer()`), pushing its
   * progress and then its result instead of the promise (MCP-lite spec v0.042 §5.3), in ms. Default:
   * the server's `holdMs` (30 000); `0` answers the promise at once.
   *
   * @example
   * ```ts
   * import { createServer } from "../../../mod.ts";
   * import { grpcBinding } from "./handler.ts";
   *
   * createServer({ name: "jobs", version: "1.0.0", holdMs: 60_000, bindings: [grpcBinding({ holdMs: 5_000 })] });
   * ```
   */
  holdMs?: number;
}

/**
 * Creates the routes function that Connect's adapters take (`connectNodeAdapter({ routes })`,
 * `createConnectRouter()` + `routes(router)`): the `mcplite.MCPLite` service, and server reflection
 * unless `reflection: false`.
 *
 * @param core The server's registry and options.
 * @param options Whether to serve reflection (default `true`).
 * @returns A function that registers the services on a router.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createConnectRouter } from "@connectrpc/connect";
 * import { createServer } from "../../../mod.ts";
 * import { attachListener } from "../../binding.ts";
 * import { createGrpcRoutes } from "./service.ts";
 *
 * const { core } = attachListener(createServer({ name: "demo", version: "1.0.0" }));
 * const router = createConnectRouter();
 * createGrpcRoutes(core)(router);
 * assert.deepEqual([...new Set(router.handlers.map((h) => h.service.typeName))], [
 *   "mcplite.MCPLite",
 *   "grpc.reflection.v1.ServerReflection",
 *   "grpc.reflection.v1alpha.ServerReflection",
 * ]);
 * ```
 */
export function createGrpcRoutes(
  core: ServerCore,
  options: GrpcRoutesOptions = {},
): (router: ConnectRouter) => void {
  if (options.holdMs !== undefined) {
    longRunning.overrideHold(registryOf(core), "grpc", holdMsOf(options.holdMs, "holdMs"));
  }
  const service = createMcpliteService(core);
  const reflection = options.reflection ?? true;
  return (router) => {
    router.service(MCPLite, service);
    if (reflection) addReflection(router);
  };
}

/**
 * Answers `GetTools` inside the request middleware (as `tools/list`), with the caller middleware
 * leaves in `ctx.auth`; without middleware, at once.
 *
 * @param registry The registry, with the middleware.
 * @param source The call's metadata and signal.
 * @param host What the platform handed the listener, with the authenticated caller.
 * @param list Builds the answer for a caller.
 * @returns The answer.
 */
export function listToolsFor<T>(
  registry: Registry,
  source: CallSource,
  host: Host,
  list: (auth: AuthInfo | undefined) => T,
): T | Promise<T> {
  if (registry.runtime.middleware.length === 0) return list(host.auth);
  const listing = {
    method: "tools/list",
    params: {},
    meta: new SourceMeta(source),
    signal: source,
    host,
  };
  return asConnectErrors(
    () => runRequest(registry, listing, (ctx) => list(ctx.auth)),
    (e) => registry.runtime.onError?.(e),
  );
}

/**
 * Decodes a `ToolRequest` into the pipeline's call. Input rounds work as on MCP-lite: `ctx.elicit()`
 * and friends end the call with ELICITATION, and the client calls again with `input_responses` and the
 * echoed `request_state`.
 */
function callOf(
  request: ToolRequest,
  signal: AbortSignal | SignalSource,
  headers: Headers | CallSource,
  host: Host,
): CallRequest {
  const name = request.name;
  if (name === "") throw new ProtocolError("invalid_request", "ToolRequest.name is required");
  const meta: CallMeta = headers instanceof Headers ? { wire: "grpc", headers } : new SourceMeta(headers);
  const round = {
    inputResponses: structOf(request.inputResponses),
    requestState: request.requestState === "" ? undefined : request.requestState,
  };
  return {
    name,
    arguments: structOf(request.arguments) ?? {},
    meta,
    signal,
    round,
    host,
  };
}

/** A direct path's call metadata: the headers are read from the call (and copied) only when asked for. */
class SourceMeta implements CallMeta {
  readonly wire = "grpc";
  readonly #source: CallSource;

  constructor(source: CallSource) {
    this.#source = source;
  }

  get headers(): Headers {
    return this.#source.headers;
  }
}

/** Throws when the call was cancelled or ran out of time: the wire answers that, not a late result. */
function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortReason(signal);
}
