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
import {
  type CallContext,
  callerOf,
  type CallMeta,
  createContext,
  type SignalSource,
  withResultMeta,
} from "./call-context.ts";
import type { CallSink } from "./call-sink.ts";
import type { Host } from "./host.ts";
import { configFor } from "./config.ts";
import { ErrorCode, ProtocolError } from "./error.ts";
import { failedCall } from "./failure.ts";
import { nonFinitePath } from "../internal/non-finite.ts";
import { type Grouped, runHandlerInGroup, runToolInGroup } from "./group.ts";
import { requireScopes, requireToolScopes } from "./scopes.ts";
import { InputRound, type RoundScope } from "./input-round.ts";
import { type Call, nameOf, runMiddleware, type ToolCall } from "./middleware.ts";
import { type CallOutcome, finalOutcome, type InputRequiredOutcome } from "./outcome.ts";
import { resultOf } from "./output.ts";
import type { Registry } from "./registry.ts";
import { type ContentBlock, resultFromValue, type ToolResult, toolResult } from "./result.ts";
import type { ValidationIssue, ValidationResult } from "./schema.ts";
import { suggestName } from "./suggest.ts";
import type { AnyTool, StreamHandler, ToolHandler } from "./tool.ts";
import { ToolPromise } from "./tool-promise.ts";
import { echoed } from "../internal/echo.ts";

/** A decoded tool call, as a binding hands it to {@link runCall}. */
export interface CallRequest {
  /** The tool name. */
  readonly name: string;
  /** The arguments, as sent (validated by the pipeline). */
  readonly arguments: unknown;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The cancellation signal, or what holds it (the `Request`): read only if a handler asks. */
  readonly signal: AbortSignal | SignalSource;
  /** Where progress, logs and (on wires that ask mid-call, such as MCP 2025) questions for the client go. */
  readonly sink?: CallSink;
  /**
   * On wires that ask by answering "input required" and being called again (MCP-lite, MCP 2026-07-28,
   * gRPC, in process): what this request carried. Absent where the wire cannot ask this way.
   */
  readonly round?: { readonly inputResponses: unknown; readonly requestState: unknown };
  /** Configuration the caller supplied, on wires that carry it (Webtools `config`); the server's settings win. */
  readonly config?: Record<string, unknown>;
  /**
   * What came with the request, whole: the caller the server's gate verified (`ctx.auth`), the
   * platform's values (`ctx.env`), and its `waitUntil`, which keeps deferred work (`ctx.defer()`)
   * alive past the response where the platform needs it (a Worker's `ctx.waitUntil`).
   */
  readonly host?: Host;
  /**
   * Receives each partial of a streaming tool as it comes. When it returns a promise, the next
   * partial is not pulled before it settles (back-pressure for wires whose streams are pulled).
   */
  readonly onPartial?: (partial: unknown) => void | Promise<void>;
}

/**
 * Runs a call: the context and input round, the middleware, the tool's lookup, its arguments' and
 * configuration's validation, the handler, the stream's partials, then the outcome: an answer or a
 * failure (checked against the tool's output schema), a promise token, or the input the call still
 * needs. A handler's error becomes a failure (its message, never its stack); a `ProtocolError` goes on
 * to the wire.
 *
 * @param registry The server's registry.
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
 * import { defineTool } from "../tool/define-tool.ts";
 * import { runCall } from "./pipeline.ts";
 * import { Definitions } from "./registry.ts";
 * import { Runtime } from "./runtime.ts";
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
export function runCall(registry: Registry, request: CallRequest): Promise<CallOutcome> {
  return promised(() => callNow(registry, request));
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
  const ctx = createContext(request, round ?? request.sink, registry.runtime.logger);
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
  const group = tool["~group"]; // grouped from another server: its middleware wrap it (server.group())
  if (group !== undefined) {
    return runToolInGroup(group, call, (c) => promised(() => executeFound(registry, tool, c, request, round)));
  }
  return executeFound(registry, tool, call, request, round);
}

/** A step that may answer at once or throw, as the promise middleware chains expect. */
function promised<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    const value = step();
    return value instanceof Promise ? value : Promise.resolve(value);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs a found tool. Synchronous as long as nothing needs waiting for (the common case: a synchronous
 * validator and handler, no configuration, no carried input round, not a stream); the first thing
 * that does sends the rest through {@link executeWaiting}, the same steps in the same order.
 */
function executeFound(
  registry: Registry,
  tool: AnyTool,
  call: ToolCall,
  request: CallRequest,
  round: InputRound | undefined,
): CallOutcome | Promise<CallOutcome> {
  requireToolScopes(tool, call.ctx.auth);
  // `1e400` decodes as Infinity and passes v.number(): refuse what JSON cannot carry back, by its path.
  const nonFinite = nonFinitePath(call.arguments);
  if (nonFinite !== undefined) {
    throw invalidArguments(tool.name, [{
      path: nonFinite,
      message: "must be a finite number (JSON has no Infinity or NaN)",
    }]);
  }
  const checked = tool.input.validate(call.arguments ?? {});
  if (
    checked instanceof Promise || tool.config !== undefined || registry.runtime.config !== undefined ||
    (round !== undefined && round.carried) || tool.mode === "stream"
  ) {
    return executeWaiting(registry, tool, call, request, round, checked);
  }
  if (!checked.ok) throw invalidArguments(tool.name, checked.issues);
  let value: unknown;
  try {
    value = (tool.run as ToolHandler<unknown, unknown>)(checked.value, call.ctx);
  } catch (error) {
    return handlerFailed(registry, call, tool, round, error);
  }
  return value instanceof Promise
    ? value.then(
      (settled) => outcomeOf(registry, call, tool, request, round, settled),
      (error) => handlerFailed(registry, call, tool, round, error),
    )
    : outcomeOf(registry, call, tool, request, round, value);
}

/** {@link executeFound} from its validation on, once something has to be waited for. */
async function executeWaiting(
  registry: Registry,
  tool: AnyTool,
  call: ToolCall,
  request: CallRequest,
  round: InputRound | undefined,
  validated: ValidationResult | Promise<ValidationResult>,
): Promise<CallOutcome> {
  const checked = validated instanceof Promise ? await validated : validated;
  if (!checked.ok) throw invalidArguments(tool.name, checked.issues);
  const ctx = call.ctx;
  if (tool.config !== undefined || registry.runtime.config !== undefined) {
    const config = configFor(registry, tool, request.config);
    ctx.config = config instanceof Promise ? await config : config;
  }
  if (round !== undefined && round.carried) {
    const opening = round.open(registry.runtime.tokens, roundScope(call), registry.runtime.onError);
    if (opening !== undefined) await opening;
  }
  let value: unknown;
  try {
    if (tool.mode === "stream") {
      value = await drain((tool.run as StreamHandler<unknown, unknown>)(checked.value, ctx), ctx, request.onPartial);
    } else {
      value = (tool.run as ToolHandler<unknown, unknown>)(checked.value, ctx);
      if (value instanceof Promise) value = await value;
    }
  } catch (error) {
    return await handlerFailed(registry, call, tool, round, error);
  }
  return await outcomeOf(registry, call, tool, request, round, value);
}

/**
 * A handler that threw: a handler that asked the client (and got the signal that ends the call)
 * answers with the question; a streaming tool cannot ask (its partials are out already): the signal
 * fails it, naming that.
 */
function handlerFailed(
  registry: Registry,
  call: ToolCall,
  tool: AnyTool,
  round: InputRound | undefined,
  error: unknown,
): CallOutcome | Promise<CallOutcome> {
  if (round?.pending && tool.mode !== "stream") return askFor(registry, call, round);
  return failedCall(call, error, registry.runtime.onError);
}

/** What a handler's value becomes: the input it still needs (even if the handler caught the signal), a promise token, or its result. */
function outcomeOf(
  registry: Registry,
  call: ToolCall,
  tool: AnyTool,
  request: CallRequest,
  round: InputRound | undefined,
  value: unknown,
): CallOutcome | Promise<CallOutcome> {
  if (round?.pending && tool.mode !== "stream") return askFor(registry, call, round);
  if (value instanceof ToolPromise) return promisedWork(registry, call, tool, value, request.host?.waitUntil);
  const result: ToolResult | Promise<ToolResult> = tool.output === undefined
    ? resultFromValue(value)
    : resultOf(tool, value, (error) => registry.runtime.onError?.(error, call));
  return result instanceof Promise
    ? result.then((r) => finalOutcome(withResultMeta(r, call.ctx)))
    : finalOutcome(withResultMeta(result, call.ctx));
}

async function promisedWork(
  registry: Registry,
  call: ToolCall,
  tool: AnyTool,
  value: ToolPromise,
  waitUntil: ((work: Promise<unknown>) => void) | undefined,
): Promise<CallOutcome> {
  try {
    const support = registry.longRunning;
    if (support === undefined) {
      throw new TypeError(
        `tool "${tool.name}" answered "not done yet", but this server has no long-running support: ` +
          `createServer({ ..., longRunning }) (import { longRunning } from "@mcplite/sdk/lite")`,
      );
    }
    return await support.promised(registry, call, tool, value, waitUntil);
  } catch (error) {
    return failedCall(call, error, registry.runtime.onError); // the tool's mistake: no .redeem(), a state too large…
  }
}

async function askFor(registry: Registry, call: ToolCall, round: InputRound): Promise<CallOutcome> {
  try {
    return await round.outcome(registry.runtime.tokens, roundScope(call));
  } catch (error) {
    return failedCall(call, error, registry.runtime.onError); // a state too large for a token
  }
}

function roundScope(call: ToolCall): RoundScope {
  return { scope: call.name, args: call.arguments ?? {}, caller: callerOf(call.ctx.auth) };
}

/**
 * Runs a stream to its end and returns its final value: the generator's return value when it has
 * one, else the partials (strings joined into one text block, others one text block of JSON each).
 * Stops early, closing the generator, when the call's signal aborts.
 */
async function drain(
  source: AsyncIterable<unknown>,
  ctx: CallContext,
  onPartial: ((partial: unknown) => void | Promise<void>) | undefined,
): Promise<unknown> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<unknown, unknown, undefined>;
  const partials: unknown[] = [];
  const signal = ctx.signal;
  while (true) {
    const step = await iterator.next();
    if (step.done) return step.value !== undefined ? step.value : toolResult({ content: joinPartials(partials) });
    if (signal.aborted) {
      await iterator.return?.();
      throw signal.reason ?? new Error("cancelled");
    }
    partials.push(step.value);
    const taken = onPartial?.(step.value);
    if (taken !== undefined) await taken;
  }
}

function joinPartials(partials: unknown[]): ContentBlock[] {
  if (partials.length === 0) return [];
  if (partials.every((p) => typeof p === "string")) return [{ type: "text", text: partials.join("") }];
  return partials.map((p) => ({ type: "text", text: typeof p === "string" ? p : JSON.stringify(p) }));
}

/**
 * Builds the error for an unknown tool, with the names that exist and a suggestion.
 *
 * @param registry The tools.
 * @param name The name that was asked for.
 * @returns The error (`unknown_tool`).
 */
export function unknownTool(registry: Registry, name: string): ProtocolError {
  const available = [...registry.names];
  const suggestion = suggestName(name, available);
  const data: Record<string, unknown> = { requested_tool: echoed(name), available_tools: available };
  if (suggestion !== undefined) data.suggestion = `Did you mean '${suggestion}'?`;
  return new ProtocolError(ErrorCode.UnknownTool, `Tool not found: ${echoed(name)}`, { data });
}

function invalidArguments(tool: string, issues: ValidationIssue[]): ProtocolError {
  const detail = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  return new ProtocolError(ErrorCode.InvalidArguments, `Invalid arguments for tool ${tool}: ${detail}`, {
    data: { tool, issues },
  });
}

/** A handler that is not a tool's (a prompt, a resource read), run in the same context as a tool call. */
export interface HandlerRequest {
  /** The method, as request middleware sees it (`resources/read`, `prompts/get`). */
  readonly method: string;
  /** The request's params, as request middleware sees them. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The name the context carries (`ctx.tool`): the prompt's name, the resource's URI. */
  readonly name: string;
  /** What an input round's state is bound to, besides the caller: e.g. `prompt:greet`. */
  readonly scope: string;
  /** The arguments as sent, which an input round's state is bound to. */
  readonly arguments: unknown;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The cancellation signal, or what holds it. */
  readonly signal: AbortSignal | SignalSource;
  /** Where progress, logs and questions go. */
  readonly sink?: CallSink;
  /** The input round the request carried, on wires that ask that way. */
  readonly round?: { readonly inputResponses: unknown; readonly requestState: unknown };
  /** What came with the request: the authenticated caller (`ctx.auth`) and the platform's values (`ctx.env`). */
  readonly host?: Host;
}

/** What a handler run by {@link runHandler} gave: its value, or the input the request still needs. */
export type HandlerOutcome<T> =
  | { readonly asked: false; readonly value: T }
  | { readonly asked: true; readonly outcome: InputRequiredOutcome };

/**
 * Runs a handler that is not a tool's (a prompt's, a resource read's) with the same request
 * middleware, scope check, context and input round as a tool call: the request middleware runs first,
 * around everything (so a refused caller does not learn whether the prompt or resource exists); then
 * `find` looks the definition up; a caller without its scopes is refused (`permission_denied`, 403
 * `insufficient_scope` on HTTP) before its arguments are looked at; then the echoed state is checked
 * (a tampered, expired or foreign one is `invalid_params`, never a re-prompt); a question the request
 * did not answer ends it with the input it needs, even if the handler caught the signal.
 *
 * @param registry The registry.
 * @param request The handler's method, name, scope, arguments, caller and round.
 * @param find Looks the definition up (throws for an unknown one); its `scopes` are required.
 * @param run Runs the handler with the definition and its context.
 * @returns The handler's value, or the input the request needs.
 * @throws {ProtocolError} What request middleware or `find` threw; `unauthenticated` or
 *   `permission_denied` for a missing scope, `invalid_params` for a bad state; any error of the
 *   handler otherwise.
 */
export function runHandler<D extends { readonly scopes?: readonly string[] } & Grouped, T>(
  registry: Registry,
  request: HandlerRequest,
  find: () => D,
  run: (definition: D, ctx: CallContext) => T | Promise<T>,
): Promise<HandlerOutcome<T>> {
  const carried = request.round;
  const round = carried === undefined
    ? undefined
    : new InputRound(carried.inputResponses, carried.requestState, request.sink);
  const ctx = createContext(request, round ?? request.sink, registry.runtime.logger);
  const chain = registry.runtime.middleware;
  const handled = () => handle(registry, request, ctx, round, find, run);
  if (chain.length === 0) return handled();
  const seen: Call = { method: request.method, name: request.name, params: request.params, ctx };
  return runMiddleware(chain, seen, handled) as Promise<HandlerOutcome<T>>;
}

async function handle<D extends { readonly scopes?: readonly string[] } & Grouped, T>(
  registry: Registry,
  request: HandlerRequest,
  ctx: CallContext,
  round: InputRound | undefined,
  find: () => D,
  run: (definition: D, ctx: CallContext) => T | Promise<T>,
): Promise<HandlerOutcome<T>> {
  const definition = find();
  const group = definition["~group"]; // grouped from another server: its request middleware wrap it
  if (group !== undefined) {
    const own = run;
    const seen: Call = { method: request.method, name: request.name, params: request.params, ctx };
    run = (d, c) => runHandlerInGroup(group, seen, async () => await own(d, c));
  }
  if (definition.scopes !== undefined) requireScopes(definition.scopes, ctx.auth, scoped(request.scope));
  if (round === undefined) return { asked: false, value: await run(definition, ctx) };
  const who: RoundScope = { scope: request.scope, args: request.arguments ?? {}, caller: callerOf(ctx.auth) };
  const opening = round.open(registry.runtime.tokens, who, registry.runtime.onError);
  if (opening !== undefined) await opening;
  let value: T;
  try {
    value = await run(definition, ctx);
  } catch (error) {
    if (!round.pending) throw error;
    return { asked: true, outcome: await round.outcome(registry.runtime.tokens, who) };
  }
  if (round.pending) return { asked: true, outcome: await round.outcome(registry.runtime.tokens, who) };
  return { asked: false, value };
}

/** Names what a handler request is for, as refusals say it: `prompt:greet` → `prompt "greet"`. */
function scoped(scope: string): string {
  const colon = scope.indexOf(":");
  return colon < 0 ? scope : `${scope.slice(0, colon)} "${scope.slice(colon + 1)}"`;
}

/** A request that is neither a tool call nor a handler's (a list, `tasks/get`, `initialize`…). */
export interface MethodRequest {
  /** The method (e.g. `tasks/get`), as request middleware sees it. */
  readonly method: string;
  /** The request's params, as request middleware sees them. */
  readonly params: Readonly<Record<string, unknown>>;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The cancellation signal, or what holds it. */
  readonly signal: AbortSignal | SignalSource;
  /** What came with the request: the authenticated caller (`ctx.auth`) and the platform's values (`ctx.env`). */
  readonly host?: Host;
}

/**
 * Runs a request that is not a tool call (a list, `server/discover`, `tasks/get`…) inside the request
 * middleware, so that authentication, rate limits and telemetry see every method. The operation gets
 * the context middleware saw (with the `ctx.auth` it may have set).
 *
 * @param registry The registry.
 * @param request The method, its params and the caller.
 * @param operation The method, given the context middleware saw.
 * @returns The operation's value, or what a middleware answered instead.
 * @throws {ProtocolError} What middleware or the operation threw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Definitions } from "./registry.ts";
 * import { Runtime } from "./runtime.ts";
 * import { runRequest } from "./pipeline.ts";
 *
 * const registry = new Definitions(new Runtime());
 * const seen: string[] = [];
 * registry.runtime.use((call, next) => {
 *   seen.push(call.method);
 *   return next();
 * });
 * const meta = { wire: "in-process" as const, headers: new Headers() };
 * const value = await runRequest(registry, { method: "tools/list", params: {}, meta, signal: AbortSignal.abort() }, () => 42);
 * assert.equal(value, 42);
 * assert.deepEqual(seen, ["tools/list"]);
 * ```
 */
export function runRequest<T>(
  registry: Registry,
  request: MethodRequest,
  operation: (ctx: CallContext) => T | Promise<T>,
): Promise<T> {
  const params = request.params;
  const ctx = createContext({ ...request, name: nameOf(params) ?? request.method }, undefined, registry.runtime.logger);
  const chain = registry.runtime.middleware;
  if (chain.length === 0) {
    try {
      return Promise.resolve(operation(ctx));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const seen: Call = { method: request.method, name: nameOf(params), params, ctx };
  return runMiddleware(chain, seen, async () => await operation(ctx)) as Promise<T>;
}
