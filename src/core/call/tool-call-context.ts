/**
 * The one implementation of {@link CallContext}: the context the call pipeline makes for each call
 * (`createContext()`), and the accessors the core reads its private state through.
 *
 * @module
 */
import type { Budgets } from "../instance/budgets.ts";
import type {
  CallSink,
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  ListRootsResult,
  LogLevel,
  ResourceRequest,
} from "./call-sink.ts";
import { callerOf, type CallMeta, type ContextSource, type SignalSource } from "./call-meta.ts";
import { cannotAsk, type ClientView, clientViewOf, resourceRequestOf } from "./client-view.ts";
import type { ContextKey } from "./context-key.ts";
import type { ResourceContents } from "../results/result.ts";
import type { AuthInfo, Host } from "./host.ts";
import { checkResultMeta } from "./result-meta.ts";
import type { InferSchemaOutput, StandardSchemaV1 } from "../schema.ts";
import { validateValue } from "./validate-value.ts";
import { type DeferOptions, PendingPromise, type PromiseOptions, type ToolPromise } from "./tool-promise.ts";
import { logCall, type ServerLogger } from "../instance/logger.ts";
import { TRACE_PARENT } from "./trace-context.ts";
import {
  type FormElicitation,
  type UrlElicitation,
  urlElicitationParams,
  type UrlElicitResult,
} from "./elicitation.ts";
import type { SampleParams } from "./sampling.ts";

import type { CallContext } from "./call-context.ts";

const NO_SINK: CallSink = {};

/** Reads a context's server logger (`warnServer()`); set by {@link CallContext}'s static block, which sees its private field. */
export let loggerOf: (ctx: CallContext) => ServerLogger | undefined;
/** Sets a context's configuration (`.config()`), once validated; handlers read it as `ctx.config`. */
export let setConfig: (ctx: CallContext, config: unknown) => void;
/** Reads (and, with a key, sets) the caller a context's call counts against in the server's budgets (`budgets.ts`). */
export let budgetCallerOf: (ctx: CallContext, key?: string) => string;
/** Reads (and, with budgets, sets) the budgets of the server running a context's call (a proxy counts its remote's answers). */
export let budgetsOfCall: (ctx: CallContext, budgets?: Budgets) => Budgets | undefined;
/**
 * Reads (and, given one, sets) the platform's `waitUntil` of the request a context was made for (a Worker's): for
 * work the call starts later than its own answer (a retried job started by the request that reads it, a call
 * through `call_tool`). `undefined` where the process stays up anyway.
 */
export let waitUntilOf: (
  ctx: CallContext,
  waitUntil?: (work: Promise<unknown>) => void,
) => ((work: Promise<unknown>) => void) | undefined;

/**
 * Creates the context of a decoded request: the one way the pipeline makes a {@link CallContext}.
 *
 * @param source The request: its name, signal, caller and platform values.
 * @param sink Where progress, logs and questions for the client go (an input round, or the wire's sink).
 * @param logger The server's logger, which `ctx.log()` records also go to.
 * @param budgets The server's budgets, which what the call holds may count against.
 * @returns The context.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./tool-call-context.ts";
 * const ctx = createContext({ name: "add", signal: AbortSignal.abort(), meta: { wire: "in-process", headers: new Headers() } });
 * assert.equal(ctx.tool, "add");
 * assert.equal(ctx.signal.aborted, true);
 * ```
 */
export function createContext(
  source: ContextSource,
  sink?: CallSink,
  logger?: ServerLogger,
  budgets?: Budgets,
): ToolCallContext {
  return new ToolCallContext(source.name, source.signal, source.meta, sink, source.host, logger, budgets);
}

/** The {@link CallContext} the call pipeline makes, one per call; nothing else is allocated for it. */
export class ToolCallContext<TConfig = unknown> implements CallContext<TConfig> {
  declare readonly tool: string;
  declare readonly meta: CallMeta;
  declare auth: AuthInfo | undefined;
  declare readonly env: Readonly<Record<string, unknown>> | undefined;
  declare config: TConfig;
  #signal: AbortSignal | SignalSource;
  #sink: CallSink;
  #values: Map<symbol, unknown> | undefined;
  #lastProgress = -Infinity;
  readonly #logger: ServerLogger | undefined;
  #caller: string | undefined;
  #budgets: Budgets | undefined;
  #waitUntil: ((work: Promise<unknown>) => void) | undefined;
  static {
    // Every CallContext is one of these: the pipeline makes them all (createContext).
    loggerOf = (ctx) => (ctx as ToolCallContext).#logger;
    setConfig = (ctx, config) => {
      (ctx as ToolCallContext).config = config;
    };
    budgetCallerOf = (ctx, key) => {
      const own = ctx as ToolCallContext;
      return key === undefined ? own.#caller ?? callerOf(own.auth) ?? "" : (own.#caller = key);
    };
    budgetsOfCall = (ctx, budgets) => {
      const own = ctx as ToolCallContext;
      return budgets === undefined ? own.#budgets : (own.#budgets = budgets);
    };
    waitUntilOf = (ctx, waitUntil) => {
      const own = ctx as ToolCallContext;
      return waitUntil === undefined ? own.#waitUntil : (own.#waitUntil = waitUntil);
    };
  }
  #resultMeta: Record<string, unknown> | undefined;
  #client: ClientView | undefined;

  /**
   * Creates a call context; the call pipeline does this, handlers only receive it.
   *
   * @param tool The tool name.
   * @param signal The cancellation signal, or what holds it (e.g. the `Request`), read only if asked for.
   * @param meta The caller's metadata.
   * @param sink Where progress, logs and questions for the client go.
   * @param host What came with the request: the authenticated caller, the platform's values and
   *   `waitUntil`, the caller the budgets counted it against.
   * @param logger The server's logger, which `ctx.log()` records also go to.
   * @param budgets The server's budgets, which what the call holds may count against.
   */
  constructor(
    tool: string,
    signal: AbortSignal | SignalSource,
    meta: CallMeta,
    sink: CallSink = NO_SINK,
    host?: Host,
    logger?: ServerLogger,
    budgets?: Budgets,
  ) {
    this.tool = tool;
    this.#signal = signal;
    this.meta = meta;
    // Set here rather than through the accessors below: one construction per call, no calls after it.
    this.auth = host?.auth;
    this.env = host?.env;
    this.config = undefined as TConfig;
    this.#sink = sink;
    this.#logger = logger;
    this.#caller = host?.caller;
    this.#budgets = budgets;
    this.#waitUntil = host?.waitUntil;
  }

  get signal(): AbortSignal {
    const signal = this.#signal;
    // Runtimes build `Request.signal` on first access: read it only when a handler asks.
    return signal instanceof AbortSignal ? signal : (this.#signal = signal.signal);
  }

  progress(progress: number, total?: number, message?: string): void {
    if (!(progress >= this.#lastProgress)) return;
    this.#lastProgress = progress;
    this.#sink.progress?.(progress, total, message);
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    this.#sink.log?.(level, data, logger);
    if (this.#logger !== undefined) logCall(this.#logger, this.tool, level, data, logger, this.get(TRACE_PARENT));
  }

  requestInput(key: string, request: InputRequest): Promise<unknown> {
    const sink = this.#sink;
    const refused = cannotAsk(sink, this.meta, request);
    return refused === undefined ? sink.input!(key, request) : Promise.reject(refused);
  }

  elicit(key: string, form: FormElicitation): Promise<ElicitResult>;
  elicit(key: string, page: UrlElicitation): Promise<UrlElicitResult>;
  elicit(key: string, request: FormElicitation | UrlElicitation): Promise<ElicitResult | UrlElicitResult> {
    if (request.mode === "url") return this.#elicitUrl(key, request);
    return this.requestInput(key, {
      method: "elicitation/create",
      params: { mode: "form", message: request.message, requestedSchema: request.requestedSchema },
    }) as Promise<ElicitResult>;
  }

  async #elicitUrl(key: string, page: UrlElicitation): Promise<UrlElicitResult> {
    // The id must name the same elicitation in every input round of the call.
    const elicitationId = page.elicitationId ?? await this.step(`${key}#elicitationId`, () => crypto.randomUUID());
    const params = urlElicitationParams(page, elicitationId);
    const answer = await this.requestInput(key, { method: "elicitation/create", params }) as ElicitResult;
    return { action: answer.action, elicitationId };
  }

  completeElicitation(elicitationId: string): void {
    this.#sink.completeElicitation?.(elicitationId);
  }

  sample(key: string, params: SampleParams): Promise<CreateMessageResult> {
    return this.requestInput(key, {
      method: "sampling/createMessage",
      params: params as unknown as Record<string, unknown>,
    }) as Promise<CreateMessageResult>;
  }

  roots(key: string): Promise<ListRootsResult> {
    return this.requestInput(key, { method: "roots/list", params: {} }) as Promise<ListRootsResult>;
  }

  requestResource(key: string, request: ResourceRequest): Promise<ResourceContents> {
    return this.requestInput(key, resourceRequestOf(request)) as Promise<ResourceContents>;
  }

  step<T>(key: string, run: () => T | Promise<T>): Promise<T> {
    const sink = this.#sink;
    return (sink.step === undefined ? Promise.resolve().then(run) : sink.step(key, run)) as Promise<T>;
  }

  promise<S>(options: PromiseOptions<S>): ToolPromise<S> {
    return new PendingPromise(options);
  }

  defer(work?: unknown, options: DeferOptions = {}): ToolPromise<never> {
    if (typeof work !== "function") {
      // The tool's declared work (`.defer()`), started with this input: it runs with a context of its own.
      return new PendingPromise<never>({ ...options, state: undefined as never }, undefined, undefined, { work });
    }
    const promise = new PendingPromise<never>(
      { ...options, state: undefined as never },
      work as (signal: AbortSignal) => unknown,
    );
    // Once the work runs, the request that started it is over: its questions go to the job (a task's
    // `input_required`, answered by `tasks/update` or `redeem`), its progress and logs to whoever follows it.
    promise["~bind"] = (sink) => {
      this.#sink = sink;
    };
    return promise;
  }

  get client(): ClientView {
    return this.#client ??= clientViewOf(this.meta, this.#sink);
  }

  validate<S extends StandardSchemaV1>(schema: S, value: unknown): InferSchemaOutput<S> {
    return validateValue(schema, value);
  }

  resultMeta(meta: Readonly<Record<string, unknown>>): this {
    checkResultMeta(meta);
    this.#resultMeta = { ...this.#resultMeta, ...meta };
    return this;
  }

  /** The keys `resultMeta()` added, for the pipeline and the bindings. */
  get "~resultMeta"(): Readonly<Record<string, unknown>> | undefined {
    return this.#resultMeta;
  }

  get<T>(key: ContextKey<T>): T {
    const values = this.#values;
    return values !== undefined && values.has(key.id) ? values.get(key.id) as T : key.defaultValue;
  }

  set<T>(key: ContextKey<T>, value: T): this {
    (this.#values ??= new Map()).set(key.id, value);
    return this;
  }
}
