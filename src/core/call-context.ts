/**
 * The context every handler receives as its second argument: the cancellation signal, progress and
 * logging, the caller's metadata and what middleware learned about the caller. Always explicit, never
 * ambient (no AsyncLocalStorage).
 *
 * @module
 */
import type {
  CallSink,
  CreateMessageResult,
  ElicitResult,
  InputMethod,
  InputRequest,
  ListRootsResult,
  LogLevel,
  ResourceRequest,
} from "./call-sink.ts";
import type { ResourceContents } from "./result.ts";
import type { AuthInfo, Host } from "./host.ts";

export type { AuthInfo } from "./host.ts";
import { ErrorCode, ProtocolError, ToolError } from "./error.ts";
import type { InferSchemaOutput, StandardSchemaV1 } from "./schema.ts";
import { validateStandard } from "./standard-result.ts";
import { type DeferOptions, type PromiseOptions, ToolPromise } from "./tool-promise.ts";
import { isObject } from "../internal/is-object.ts";
import { logTo, type ServerLogger, serverWarning } from "./logger.ts";
import { TRACE_PARENT, withTraceIds } from "./trace-context.ts";

/**
 * The experimental MCP client capability that says the client answers `resources/request` (MCP-lite's
 * `request-for-more-resource`).
 */
export const RESOURCE_REQUESTS = "io.mcplite/resourceRequests";

/** The wires a call can arrive on. */
export type Wire = "mcp-lite" | "mcp" | "webtools" | "openapi" | "grpc" | "in-process";

/** Who the client says it is (MCP `clientInfo`). */
export interface ClientInfo {
  /** The client's name. */
  name: string;
  /** The client's version. */
  version: string;
  /** Other fields the client sent (title, description, websiteUrl, icons). */
  [key: string]: unknown;
}

/**
 * Gives one of the server's own warnings from inside a request (request middleware has the context,
 * not the server): to the server's `logger`, else once per process to `console.warn`.
 *
 * @param ctx The request's context.
 * @param message The warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext, warnServer } from "./call-context.ts";
 * const warnings: unknown[] = [];
 * const logger = { debug() {}, info() {}, warn: (m: unknown) => void warnings.push(m), error() {} };
 * const meta = { wire: "in-process" as const, headers: new Headers() };
 * warnServer(createContext({ name: "t", signal: AbortSignal.abort(), meta }, undefined, logger), "mcplite: careful");
 * assert.deepEqual(warnings, ["mcplite: careful"]);
 * ```
 */
export function warnServer(ctx: CallContext, message: string): void {
  serverWarning(loggerOf(ctx), message);
}

/** Reads a context's server logger; set by {@link CallContext}'s static block, which sees its private field. */
let loggerOf: (ctx: CallContext) => ServerLogger | undefined;

/** What is known about the caller of this request. */
export interface CallMeta {
  /** The wire the call came in on. */
  readonly wire: Wire;
  /** The protocol version of the request, when the wire has one. */
  readonly protocolVersion?: string;
  /** The client's self-description, when sent. */
  readonly clientInfo?: ClientInfo;
  /** The capabilities the client declared for this request (MCP). */
  readonly clientCapabilities?: Record<string, unknown>;
  /**
   * The content types the client renders as MCP Apps (`text/html;profile=mcp-app`), from its
   * `extensions["io.modelcontextprotocol/ui"].mimeTypes` (SEP-1865); `undefined` when it declared none,
   * so a tool with a view can answer a client without one in text alone.
   */
  readonly appMimeTypes?: readonly string[];
  /** The HTTP request headers (empty for in-process calls). */
  readonly headers: Headers;
  /** The JSON-RPC id of the request, when there is one. */
  readonly requestId?: string | number | null;
  /** The caller's session id, when the wire carries one (Webtools `sessionId`, MCP 2025 `Mcp-Session-Id`). */
  readonly sessionId?: string;
  /**
   * The request's own `_meta` (MCP and MCP-lite `params._meta`), where it sent one: W3C Trace Context
   * (`traceparent`, `tracestate`) and `baggage` travel there (MCP SEP-414), beside the progress token.
   */
  readonly requestMeta?: Readonly<Record<string, unknown>>;
  /**
   * How the request reached the server, as OpenTelemetry's `network.transport` names it: `pipe` for
   * stdio; absent over TCP (HTTP, HTTP/2, a WebSocket) and in process.
   */
  readonly transport?: "pipe";
}

/**
 * The principal that signed state (promise tokens, task ids, `requestState`) is bound to: the subject
 * and, when known, the client acting for it, so a token minted for one is refused for another.
 *
 * @param auth The caller.
 * @returns Its binding key, or `undefined` for an anonymous caller.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { callerOf } from "./call-context.ts";
 * assert.equal(callerOf({ subject: "ada" }), "ada");
 * assert.notEqual(callerOf({ subject: "ada", clientId: "a" }), callerOf({ subject: "ada", clientId: "b" }));
 * assert.equal(callerOf(undefined), undefined);
 * ```
 */
export function callerOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  const { subject, clientId } = auth;
  return clientId === undefined ? subject : JSON.stringify([subject ?? null, clientId]);
}

/** A typed key for per-call values set by middleware (as Connect's `createContextKey`). */
export interface ContextKey<T> {
  /** The unique identity of the key. */
  readonly id: symbol;
  /** The value returned when none was set. */
  readonly defaultValue: T;
}

/**
 * Creates a typed key for values that middleware hands to handlers.
 *
 * @param defaultValue The value returned when none was set.
 * @param description A name for debugging.
 * @returns The key.
 *
 * @example
 * ```ts
 * import { createContextKey } from "./call-context.ts";
 * const tenantKey = createContextKey("public", "tenant");
 * // in middleware: ctx.set(tenantKey, "acme"); in a handler: ctx.get(tenantKey)
 * ```
 */
export function createContextKey<T>(defaultValue: T, description?: string): ContextKey<T> {
  return { id: Symbol(description), defaultValue };
}

/** Something that holds a cancellation signal, such as a `Request`. */
export interface SignalSource {
  /** The signal. */
  readonly signal: AbortSignal;
}

const NO_SINK: CallSink = {};

/** What a call's context is made of: every decoded request (a call, a handler's, a method's) carries it. */
export interface ContextSource {
  /** The name the context carries as `ctx.tool`: the tool or prompt name, the resource URI, the method. */
  readonly name: string;
  /** The cancellation signal, or what holds it (e.g. the `Request`), read only if asked for. */
  readonly signal: AbortSignal | SignalSource;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** What came with the request: the platform's values (`ctx.env`) and the authenticated caller (`ctx.auth`). */
  readonly host?: Host;
}

/**
 * Creates the context of a decoded request: the one way the pipeline makes a {@link CallContext}.
 *
 * @param source The request: its name, signal, caller and platform values.
 * @param sink Where progress, logs and questions for the client go (an input round, or the wire's sink).
 * @param logger The server's logger, which `ctx.log()` records also go to.
 * @returns The context.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./call-context.ts";
 * const ctx = createContext({ name: "add", signal: AbortSignal.abort(), meta: { wire: "in-process", headers: new Headers() } });
 * assert.equal(ctx.tool, "add");
 * assert.equal(ctx.signal.aborted, true);
 * ```
 */
export function createContext(source: ContextSource, sink?: CallSink, logger?: ServerLogger): CallContext {
  const host = source.host;
  return new CallContext(source.name, source.signal, source.meta, sink, host?.auth, host?.env, logger);
}

/** What a handler knows of the client: who it says it is and what it declared (`ctx.client`). */
export interface ClientView {
  /** The client's self-description (MCP `clientInfo`), when sent. */
  readonly info: ClientInfo | undefined;
  /**
   * The capabilities it declared: on MCP 2026-07-28 with this request, on the 2025 revisions in
   * `initialize` (when this instance holds the session); `undefined` on wires that declare none.
   */
  readonly capabilities: Readonly<Record<string, unknown>> | undefined;
  /**
   * Tells whether the client supports a capability: one it declared (`elicitation`, `sampling`,
   * `roots`, an extension's identifier such as `io.modelcontextprotocol/tasks`, or an experimental one
   * such as `io.mcplite/resourceRequests`, the request for more resource), or, on a wire where
   * the client declares none (MCP-lite, gRPC, in process), whether this call can ask it for that input.
   *
   * @param capability The capability.
   * @returns Whether it is supported.
   */
  supports(capability: "elicitation" | "sampling" | "roots" | (string & Record<never, never>)): boolean;
}

/**
 * Tells whether a `_meta` key is one MCP reserves (MCP 2025-06-18, Basic: `_meta`): its prefix has a
 * `modelcontextprotocol` or `mcp` label (`io.modelcontextprotocol/serverInfo`).
 */
function isReservedMetaKey(key: string): boolean {
  const slash = key.lastIndexOf("/");
  return slash > 0 &&
    key.slice(0, slash).split(".").some((label) => label === "modelcontextprotocol" || label === "mcp");
}

/**
 * Puts the keys a handler added with `ctx.resultMeta()` into a result's `_meta`.
 *
 * @param result The result.
 * @param ctx The handler's context.
 * @returns The result (the same object when nothing was added).
 */
export function withResultMeta<R extends { _meta?: Record<string, unknown> }>(result: R, ctx: CallContext): R {
  const extra = ctx["~resultMeta"];
  return extra === undefined ? result : { ...result, _meta: { ...result._meta, ...extra } };
}

/** The client capability each input method needs. */
const CAPABILITY: Readonly<Record<InputMethod, string>> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
  "resources/request": RESOURCE_REQUESTS,
};

/**
 * Whether an MCP client declared the capability an input method needs. MCP has no request for more
 * resource, so a client that answers one declares it among its experimental capabilities (MCP
 * 2025-11-25, Lifecycle: `experimental`, "non-standard experimental features").
 */
function declares(declared: Record<string, unknown>, method: InputMethod): boolean {
  const capability = CAPABILITY[method];
  if (method !== "resources/request") return isObject(declared[capability]);
  const experimental = declared.experimental;
  return isObject(experimental) && isObject(experimental[capability]);
}

/**
 * The context of one call, the handler's second argument. The call pipeline creates one per call;
 * nothing else is allocated for it.
 *
 * @typeParam TConfig The tool's configuration, as its `.config()` schema outputs it.
 */
export class CallContext<TConfig = unknown> {
  /** The name of the tool being called. */
  readonly tool: string;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The authenticated caller: set by the server's authentication, or by middleware. */
  auth: AuthInfo | undefined;
  /**
   * What the platform handed `server.fetch` as its second argument: a Worker's `env` (its bindings and
   * variables), or what a framework route passed on (e.g. Hono's `c.env` with values its middleware set).
   * `undefined` on Deno.serve, Bun.serve and in process.
   */
  readonly env: Readonly<Record<string, unknown>> | undefined;
  /**
   * The validated configuration (`.config()` on the tool and the server): environment-supplied settings
   * the model never generates. On MCP and MCP-lite it comes from the server's `settings`; on Webtools
   * from the caller's `config` (the server's `settings` still win). `undefined` when nothing declares one.
   */
  config: TConfig;
  #signal: AbortSignal | SignalSource;
  #sink: CallSink;
  #values: Map<symbol, unknown> | undefined;
  #lastProgress = -Infinity;
  readonly #logger: ServerLogger | undefined;
  static {
    loggerOf = (ctx) => ctx.#logger;
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
   * @param auth The authenticated caller, if known.
   * @param env What the platform handed `fetch` besides the request, if anything.
   * @param logger The server's logger, which `ctx.log()` records also go to.
   */
  constructor(
    tool: string,
    signal: AbortSignal | SignalSource,
    meta: CallMeta,
    sink: CallSink = NO_SINK,
    auth?: AuthInfo,
    env?: Readonly<Record<string, unknown>>,
    logger?: ServerLogger,
  ) {
    this.tool = tool;
    this.#signal = signal;
    this.meta = meta;
    this.auth = auth;
    this.env = env;
    this.config = undefined as TConfig;
    this.#sink = sink;
    this.#logger = logger;
  }

  /**
   * Aborted when the caller goes away or cancels.
   *
   * Where the runtime does not report a disconnect, it is noticed late or not at all. On Deno
   * (2.9.5; run with `--unstable-no-legacy-abort`, or the signal also aborts after every successful
   * answer), `Deno.serve` over HTTP/1.1 misses a client that disconnects while a plain JSON answer is
   * pending when the request body did not arrive with its headers in the server's first read: in
   * practice a request over about 512 bytes (an MCP-lite body over ~250 bytes from `fetch`, nearly
   * every MCP 2026-07-28 call). SSE answers notice it on their next write: an MCP call notices it at
   * its first keep-alive (`heartbeatMs`), an MCP-lite call asked for as `text/event-stream` at once.
   * HTTP/2 requests to Deno and every request to Bun are not affected (`tests/server/cancellation.test.ts`
   * shows each case).
   */
  get signal(): AbortSignal {
    const signal = this.#signal;
    // Runtimes build `Request.signal` on first access: read it only when a handler asks.
    return signal instanceof AbortSignal ? signal : (this.#signal = signal.signal);
  }

  /**
   * Reports progress. Values never go backwards: a lower value than the last one is ignored.
   *
   * @param progress The progress so far.
   * @param total The total, if known.
   * @param message A human-readable message.
   */
  progress(progress: number, total?: number, message?: string): void {
    if (!(progress >= this.#lastProgress)) return;
    this.#lastProgress = progress;
    this.#sink.progress?.(progress, total, message);
  }

  /**
   * Logs a message to the client, if the wire and the client's log level allow it, and to the server's
   * `logger` (whatever the level), with the tool's name and, where telemetry middleware traces the
   * request, its `trace_id` and `span_id`.
   *
   * @param level The severity.
   * @param data The message or structured data.
   * @param logger The logger name.
   */
  log(level: LogLevel, data: unknown, logger?: string): void {
    this.#sink.log?.(level, data, logger);
    const own = this.#logger;
    if (own === undefined) return;
    const fields: Record<string, unknown> = { tool: this.tool };
    if (logger !== undefined) fields.logger = logger;
    logTo(own, level, data, withTraceIds(fields, this.get(TRACE_PARENT)));
  }

  /**
   * Asks the client for input through the wire's channel; `key` names the question, unique within the
   * call, so an answer can be matched to it across rounds.
   *
   * @param key The question's key.
   * @param request The client method and its params.
   * @returns The client's answer.
   * @throws {ProtocolError} `missing_capability` when the wire cannot ask the client.
   */
  requestInput(key: string, request: InputRequest): Promise<unknown> {
    const sink = this.#sink;
    const capability = CAPABILITY[request.method];
    const declared = this.meta.clientCapabilities;
    // Where the wire says what the client declared (MCP), never ask for more (-32021).
    if (sink.input === undefined || (declared !== undefined && !declares(declared, request.method))) {
      const message = sink.input === undefined
        ? `This call cannot ask the client for input (${request.method})`
        : `The client did not declare the ${capability} capability`;
      const required = request.method === "resources/request"
        ? { experimental: { [capability]: {} } }
        : { [capability]: {} };
      return Promise.reject(
        new ProtocolError(ErrorCode.MissingCapability, message, { data: { requiredCapabilities: required } }),
      );
    }
    return sink.input(key, request);
  }

  /**
   * Asks the user to fill in a form (MCP elicitation, form mode).
   *
   * @param key The question's key, unique within the call.
   * @param form The message and the JSON Schema of the form (flat object of primitives, per MCP).
   * @returns The user's answer.
   */
  elicit(key: string, form: { message: string; requestedSchema: Record<string, unknown> }): Promise<ElicitResult> {
    return this.requestInput(key, {
      method: "elicitation/create",
      params: { mode: "form", message: form.message, requestedSchema: form.requestedSchema },
    }) as Promise<ElicitResult>;
  }

  /**
   * Asks the client's model for a completion (MCP sampling).
   *
   * @param key The question's key, unique within the call.
   * @param params MCP `sampling/createMessage` params (`messages`, `maxTokens`, …).
   * @returns The sampled message.
   */
  sample(key: string, params: Record<string, unknown>): Promise<CreateMessageResult> {
    return this.requestInput(key, { method: "sampling/createMessage", params }) as Promise<CreateMessageResult>;
  }

  /**
   * Asks the client for its roots (MCP roots).
   *
   * @param key The question's key, unique within the call.
   * @returns The roots.
   */
  roots(key: string): Promise<ListRootsResult> {
    return this.requestInput(key, { method: "roots/list", params: {} }) as Promise<ListRootsResult>;
  }

  /**
   * Asks the client for a resource the handler needs to go on (MCP-lite's `request-for-more-resource`,
   * MCP-lite spec v0.042 §3.3, as the README's MCP-lite section defines it): on MCP-lite and gRPC the call
   * ends with that response type, `input_requests` and a signed `request_state`, and the handler runs
   * again with the contents once the client calls back with them (as an elicitation round). On MCP, only
   * a client that declared the experimental `io.mcplite/resourceRequests` capability is asked; others
   * refuse the call with `missing_capability` (-32021).
   *
   * @param key The request's key, unique within the call.
   * @param request What is needed (`description`), and where it might be (`uri`, `mimeTypes`).
   * @returns The resource's contents: `{ uri, mimeType?, text }` or `{ uri, mimeType?, blob }` (base64).
   * @throws {ProtocolError} `missing_capability` when the wire or the client cannot answer.
   *
   * @example
   * ```ts ignore
   * const file = await ctx.requestResource("spec", { description: "The spec to check against", mimeTypes: ["text/markdown"] });
   * if ("text" in file) return lint(file.text);
   * ```
   */
  requestResource(key: string, request: ResourceRequest): Promise<ResourceContents> {
    const params: Record<string, unknown> = { description: request.description };
    if (request.uri !== undefined) params.uri = request.uri;
    if (request.mimeTypes !== undefined) params.mimeTypes = [...request.mimeTypes];
    return this.requestInput(key, { method: "resources/request", params }) as Promise<ResourceContents>;
  }

  /**
   * Runs a step with side effects once per call. Where the wire answers questions by calling again
   * (MCP-lite, MCP 2026), the handler runs again from the top on each round; a step that completed in
   * an earlier round returns its recorded value instead of running again. The value must be JSON; it
   * travels in the sealed `requestState` (signed only with `tokens: { seal: false }`).
   *
   * @param key The step's key, unique within the call.
   * @param run The step.
   * @returns The step's value.
   *
   * @example
   * ```ts ignore
   * const order = await ctx.step("reserve", () => reserveStock(args.sku)); // runs once
   * const ok = await ctx.elicit("confirm", { message: `Buy ${args.sku}?`, requestedSchema });
   * ```
   */
  step<T>(key: string, run: () => T | Promise<T>): Promise<T> {
    const sink = this.#sink;
    return (sink.step === undefined ? Promise.resolve().then(run) : sink.step(key, run)) as Promise<T>;
  }

  /**
   * Answers "not done yet": the client gets a promise token and redeems it later through the `redeem`
   * tool, which runs this tool's `.redeem()` handler with `state` on whichever instance receives it.
   * The state is sealed into the token (signed only with `tokens: { seal: false }`); nothing is kept here.
   *
   * @param options The state and timing.
   * @returns The pending answer, for the handler to return.
   *
   * @example
   * ```ts ignore
   * .handle(async (args, ctx) => ctx.promise({ state: { job: await startJob(args) }, retryAfterMs: 2000 }))
   * .redeem(async ({ job }, ctx) => (await jobResult(job)) ?? ctx.promise({ state: { job }, retryAfterMs: 2000 }))
   * ```
   */
  promise<S>(options: PromiseOptions<S>): ToolPromise<S> {
    return new ToolPromise(options);
  }

  /**
   * Answers "not done yet" while `work` runs on in this process; its result waits in the server's
   * `ResultStore` and the client redeems the token to get it. The tool must be `.longRunning()`
   * (declared before `.handle()`, or this does not compile). The signal aborts when the promise is
   * cancelled (`redeem` with `cancel: true`, MCP `tasks/cancel`), not when this request ends. Inside the work, `ctx.elicit()` and friends park the job until the
   * client answers: an MCP task turns `input_required` (answered with `tasks/update`), and redeeming
   * the promise asks the questions on the `redeem` call. Progress and logs of the work reach a streaming call
   * that follows the job (MCP-lite SSE, gRPC `CallToolStream`, stdio with `_meta.stream`: MCP-lite spec
   * v0.042 §5.3, server-pushed updates); otherwise they go nowhere.
   *
   * @param work The work.
   * @param options The timing.
   * @returns The pending answer, for the handler to return.
   */
  defer(work: (signal: AbortSignal) => unknown, options: DeferOptions = {}): ToolPromise<never> {
    const promise = new ToolPromise<never>({ ...options, state: undefined as never }, work);
    // Once the work runs, the request that started it is over: its questions go to the job (a task's
    // `input_required`, answered by `tasks/update` or `redeem`), its progress and logs to whoever follows it.
    promise["~bind"] = (sink) => {
      this.#sink = sink;
    };
    return promise;
  }

  /** What the client said of itself and declared; `ctx.client.supports("elicitation")`. */
  get client(): ClientView {
    if (this.#client !== undefined) return this.#client;
    const { clientInfo, clientCapabilities } = this.meta;
    const sink = this.#sink;
    const inputs = new Set(Object.values(CAPABILITY));
    return this.#client = {
      info: clientInfo,
      capabilities: clientCapabilities,
      supports(capability) {
        if (clientCapabilities === undefined) return inputs.has(capability) && sink.input !== undefined;
        if (isObject(clientCapabilities[capability])) return true;
        // An extension's identifier, or a non-standard feature (the request for more resource) declared
        // as experimental (MCP 2025-11-25, Lifecycle: `experimental`).
        const { extensions, experimental } = clientCapabilities;
        return (isObject(extensions) && isObject(extensions[capability])) ||
          (isObject(experimental) && isObject(experimental[capability]));
      },
    };
  }

  /**
   * Validates a value the handler holds (a fetched record, a sampled answer) against a schema, as the
   * arguments were: the value as the schema outputs it, or a `ToolError` (the call's failure, which the
   * model sees) naming each failing path.
   *
   * @param schema A synchronous Standard Schema (valibot's schemas are ones).
   * @param value The value.
   * @returns The value, as the schema outputs it.
   * @throws {ToolError} When the value does not match: `Invalid value: path: message; …`, the issues in its data.
   * @throws {TypeError} For an async schema (validate it with valibot's `parseAsync` instead).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createContext } from "./call-context.ts";
   * const ctx = createContext({ name: "t", signal: AbortSignal.abort(), meta: { wire: "in-process", headers: new Headers() } });
   * assert.deepEqual(ctx.validate(v.object({ id: v.number() }), { id: 7 }), { id: 7 });
   * assert.throws(() => ctx.validate(v.object({ id: v.number() }), { id: "7" }), /Invalid value: id: /);
   * ```
   */
  validate<S extends StandardSchemaV1>(schema: S, value: unknown): InferSchemaOutput<S> {
    const checked = validateStandard(schema, value);
    if (checked instanceof Promise) {
      checked.catch(() => {});
      throw new TypeError("ctx.validate() takes a synchronous schema; use valibot's parseAsync for an async one");
    }
    if (!checked.ok) {
      const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
      throw new ToolError(`Invalid value: ${detail}`, { data: { issues: checked.issues } });
    }
    return checked.value as InferSchemaOutput<S>;
  }

  /**
   * Adds keys to this call's result `_meta` (per-call metadata such as a cache status), on the wires
   * whose results carry one (MCP, MCP-lite); a tool's answer or failure, a resource read's or a
   * prompt's result. The wire's own keys (MCP-lite's `response_type`…, MCP's `serverInfo`) win over
   * these; keys in MCP's reserved namespaces are refused.
   *
   * @param meta The keys to add.
   * @returns This context.
   * @throws {TypeError} For a key MCP reserves (a prefix with a `modelcontextprotocol` or `mcp` label).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer, defineTool } from "../../mod.ts";
   * const cached = defineTool("cached").handle((_, ctx) => {
   *   ctx.resultMeta({ "example.com/cache": "hit" });
   *   return "from cache";
   * });
   * const outcome = await createServer({ name: "demo", version: "1.0.0" }).tool(cached).call("cached", {});
   * assert.equal(outcome.kind === "answer" && outcome.result._meta?.["example.com/cache"], "hit");
   * ```
   */
  resultMeta(meta: Readonly<Record<string, unknown>>): this {
    for (const key of Object.keys(meta)) {
      if (isReservedMetaKey(key)) throw new TypeError(`ctx.resultMeta(): "${key}" is in a namespace MCP reserves`);
    }
    this.#resultMeta = { ...this.#resultMeta, ...meta };
    return this;
  }

  /** The keys `resultMeta()` added, for the pipeline and the bindings. */
  get "~resultMeta"(): Readonly<Record<string, unknown>> | undefined {
    return this.#resultMeta;
  }

  /**
   * Reads a value set by middleware.
   *
   * @param key The key.
   * @returns The value, or the key's default.
   */
  get<T>(key: ContextKey<T>): T {
    const values = this.#values;
    return values !== undefined && values.has(key.id) ? values.get(key.id) as T : key.defaultValue;
  }

  /**
   * Sets a value for the handler (from middleware).
   *
   * @param key The key.
   * @param value The value.
   * @returns This context.
   */
  set<T>(key: ContextKey<T>, value: T): this {
    (this.#values ??= new Map()).set(key.id, value);
    return this;
  }
}
