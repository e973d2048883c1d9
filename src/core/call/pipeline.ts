// HOT PATH: context → middleware → look up → validate → configure → run → drain → settle → check output.
// No allocation beyond the context and the result, no per-call closures without middleware, no await
// that is not needed.
/**
 * The call pipeline: the one place where a decoded call becomes an outcome, for every wire, for
 * `server.call()` and for MCP's tasks. A binding decodes its wire into a {@link CallRequest}, hands it
 * to {@link runCall}, and encodes the {@link CallOutcome} (or the `ProtocolError` it throws); nothing
 * else.
 *
 * @module
 */
import { budgetsOf } from "../instance/runtime.ts";
import { createContext } from "./tool-call-context.ts";
import type { CallRequest } from "./call-request.ts";
import { executeFound, unknownTool } from "./execute-tool.ts";
import { groupOf, runToolInGroup } from "./grouped-middleware.ts";
import { InputRound } from "./input-round.ts";
import { type Call, runMiddleware, type ToolCall } from "./middleware.ts";
import type { CallOutcome } from "./outcome.ts";
import type { CallTarget, Registry } from "../definitions/registry.ts";

/**
 * Runs a call: the context and input round, the middleware, the tool's lookup, its arguments' and
 * configuration's validation, the handler, the stream's partials, then the outcome: an answer or a
 * failure (checked against the tool's output schema), a promise token, or the input the call still
 * needs. A handler's error becomes a failure (its message, never its stack); a `ProtocolError` goes on
 * to the wire.
 *
 * @param target The server's tools: `core.registry`, as the binding received it.
 * @param request The decoded call.
 * @returns The outcome.
 * @throws {ProtocolError} `unknown_tool`, `invalid_arguments`, `invalid_config`, `invalid_params` (a
 *   bad `requestState`), `internal` (a result that does not match the output schema, masked), or one
 *   that middleware or the handler threw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineTool } from "../../tool/define-tool.ts";
 * import { runCall } from "./pipeline.ts";
 * import { Definitions } from "../definitions/registry.ts";
 * import { Runtime } from "../instance/runtime.ts";
 *
 * const registry = new Definitions(new Runtime());
 * registry.add(defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b));
 * const outcome = await runCall(registry, {
 *   name: "add",
 *   arguments: { a: 1, b: 2 },
 *   meta: { wire: "in-process", headers: new Headers() },
 *   signal: new AbortController().signal,
 * });
 * assert.deepEqual(outcome, { kind: "answer", result: { content: [{ type: "text", text: "3" }] } });
 * ```
 */
export function runCall(target: CallTarget, request: CallRequest): Promise<CallOutcome> {
  return promised(() => callNow(target as Registry, request)); // the server builds every target
}

/**
 * {@link runCall} for a binding that answers at once when it can: the outcome itself (no promise)
 * when the call finished synchronously (a synchronous handler, no middleware, nothing awaited), so
 * that the binding's answer needs no microtask hop either. It throws what `runCall` rejects with, and
 * may throw it synchronously.
 *
 * @param registry The server's registry.
 * @param request The decoded call.
 * @returns The outcome, or a promise of it while the call runs.
 * @throws {ProtocolError} As {@link runCall}.
 */
export function callNow(registry: Registry, request: CallRequest): CallOutcome | Promise<CallOutcome> {
  const carried = request.round;
  const round = carried === undefined
    ? undefined
    : new InputRound(carried.inputResponses, carried.requestState, request.sink);
  const ctx = createContext(request, round ?? request.sink, registry.runtime.logger, budgetsOf(registry.runtime));
  const call: ToolCall = { name: request.name, arguments: request.arguments, ctx };
  const requests = registry.runtime.middleware;
  if (requests.length === 0) return runTool(registry, call, request, round);
  const params = { name: request.name, arguments: request.arguments };
  const seen: Call = { method: "tools/call", name: request.name, params, ctx };
  // The request layer's `next()` resolves with the outcome; a middleware that answers instead gives one.
  const next = () => promised(() => runTool(registry, call, request, round));
  return runMiddleware(requests, seen, next) as Promise<CallOutcome>;
}

/** The tool layer: the tool middleware, then the tool. */
function runTool(
  registry: Registry,
  call: ToolCall,
  request: CallRequest,
  round: InputRound | undefined,
): CallOutcome | Promise<CallOutcome> {
  const chain = registry.runtime.toolMiddleware;
  return chain.length === 0
    ? execute(registry, call, request, round)
    : runMiddleware(chain, call, (c) => promised(() => execute(registry, c, request, round)));
}

function execute(
  registry: Registry,
  call: ToolCall,
  request: CallRequest,
  round: InputRound | undefined,
): CallOutcome | Promise<CallOutcome> {
  const tool = registry.get(call.name);
  if (tool === undefined) return Promise.reject(unknownTool(registry, call.name));
  const group = groupOf(tool); // grouped from another server: its middleware wrap it (server.group())
  if (group !== undefined) {
    return runToolInGroup(group, call, (c) => promised(() => executeFound(registry, tool, c, request, round)));
  }
  return executeFound(registry, tool, call, request, round);
}

/** Work that may answer at once or throw, as the promise middleware chains expect. */
function promised<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    const value = run();
    return value instanceof Promise ? value : Promise.resolve(value);
  } catch (error) {
    return Promise.reject(error);
  }
}
