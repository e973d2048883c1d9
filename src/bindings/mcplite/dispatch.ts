/**
 * MCP-lite's call (MCP-lite spec v0.042 §4): decodes a `tools/call` request into the pipeline's call and
 * turns the core's streamed events into what MCP-lite sends, whatever carries it. The HTTP carrier
 * (`handler.ts`: SSE events `message`/`progress`/`log`/`done`) and the socket carrier (`socket-carrier.ts`:
 * `notifications/partial`, `notifications/progress`, `notifications/message`, then the response, on stdio
 * lines and WebSocket frames) only frame them.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { type CallMeta, type Registry, type runCall, type SignalSource, streamCall } from "../../core/mod.ts";
import { echoed } from "../../internal/echo.ts";
import type { Host } from "../../server/mod.ts";
import type { JsonRpcRequest } from "../jsonrpc.ts";
import { type LiteResult, resultWithMeta } from "./envelope.ts";
import { roundParams } from "../round-params.ts";

type CallRequest = Parameters<typeof runCall>[1];

/**
 * What an MCP-lite call sends: while it runs, its partials (`{partial}`), progress
 * (`{progress, total, message}`) and logs (`{level, logger, data}`); then its result with `_meta`.
 */
export type LiteMessage =
  | { readonly kind: "partial" | "progress" | "log"; readonly params: Record<string, unknown> }
  | { readonly kind: "result"; readonly result: LiteResult }
  // The call is following deferred work: an HTTP stream opens now rather than at the first event.
  | { readonly kind: "held" };

/**
 * Decodes a `tools/call` request into the pipeline's call: the tool, its arguments, and the input
 * round's answers and echoed state (an `elicitation` response is answered by calling again with them).
 *
 * @param rpc The JSON-RPC request.
 * @param meta The caller.
 * @param signal The request, whose signal is read only if a handler asks.
 * @param host What the platform handed `fetch` besides the request.
 * @returns The call.
 * @throws {ProtocolError} `method_not_found` for another method, `invalid_request` without an id,
 *   `invalid_params` without a tool name.
 */
export function liteCall(
  rpc: JsonRpcRequest,
  meta: CallMeta,
  signal: AbortSignal | SignalSource,
  host: Host,
): CallRequest {
  if (rpc.method !== "tools/call") {
    throw new ProtocolError("method_not_found", `Method not found: ${echoed(rpc.method)}`);
  }
  if (rpc.id === undefined) {
    throw new ProtocolError("invalid_request", "Invalid Request: tools/call needs an id");
  }
  const { name, arguments: args } = rpc.params;
  if (typeof name !== "string") throw new ProtocolError("invalid_params", "params.name must be a string");
  return { name, arguments: args, meta, signal, round: roundParams(rpc.params), host };
}

/**
 * Runs a decoded call (the core's `streamCall`) and yields what MCP-lite sends for it, the result last.
 * A call that starts deferred work follows it for up to `holdMs`: the job's progress, then its result
 * instead of a promise (MCP-lite spec v0.042 §5.3, server-pushed updates).
 *
 * @param registry The registry.
 * @param call The decoded call.
 * @param holdMs How long to follow deferred work (0: answer the promise).
 * @param version The server's version, for `_meta`.
 * @returns The messages, the result last.
 * @throws {ProtocolError} What the call failed with.
 */
export async function* liteMessages(
  registry: Registry,
  call: CallRequest,
  holdMs: number,
  version: string,
): AsyncGenerator<LiteMessage, void, undefined> {
  const started = Date.now();
  for await (const event of streamCall(registry, call, { holdMs })) {
    if (event.type === "outcome") yield { kind: "result", result: resultWithMeta(event.outcome, started, version) };
    else if (event.type === "held") yield { kind: "held" };
    else {
      // The event's fields, in the order MCP-lite sends them: `{partial}`, `{progress, total, message}`, `{level, logger, data}`.
      const { type, pushed: _pushed, ...params } = event as {
        readonly type: "partial" | "progress" | "log";
        readonly pushed?: boolean;
      };
      yield { kind: type, params };
    }
  }
}
