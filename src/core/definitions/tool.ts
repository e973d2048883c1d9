/**
 * The finished tool definition that `defineTool()` produces, and the types inferred from it.
 *
 * @module
 */
import type { CallContext } from "../call/call-context.ts";
import type { Extension } from "./extension.ts";
import type { ContentBlock, ToolResult } from "../results/result.ts";
import type { Icon } from "./icon.ts";
import type { PromiseOptions, ToolPromise } from "../call/tool-promise.ts";
import type { CompiledSchema, JsonSchema } from "../schema.ts";
import type { AnyResource } from "./resource.ts";
import type { WorkContext } from "../long-running/work-context.ts";
import type { PromiseRetry } from "./retry-options.ts";
import type { AuthInfo } from "../call/host.ts";
import type { EndEvent } from "./event.ts";

/** MCP's tool annotations: hints about behaviour, never trusted for security. */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /** The tool may make destructive updates. */
  destructiveHint?: boolean;
  /** Calling the tool twice with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool talks to an open world of external entities. */
  openWorldHint?: boolean;
  /** Other hints. */
  [key: string]: unknown;
}

/**
 * What a handler may return: the output value, a string, content blocks, a complete result, or a
 * pending answer (`ctx.promise()`, `ctx.defer()`).
 */
export type HandlerReturn<TOut> =
  | TOut
  | ToolResult
  | ContentBlock
  | ContentBlock[]
  | string
  | void
  | ToolPromise<unknown>;

/**
 * How a long-running tool's promises behave (`.longRunning()`; `.redeem()` implies it).
 *
 * @typeParam TArgs The tool's arguments, as its flow control's keys read them.
 */
export interface LongRunningOptions<TArgs = never> {
  /** How long its promise tokens (and deferred results) last, in ms (default: the server's, one hour). */
  ttlMs?: number;
  /** The default `retry_after_ms` of its promises, and `pollIntervalMs` of its MCP tasks (default: the server's, 1 000). */
  retryAfterMs?: number;
  /**
   * Whether an MCP client must declare the tasks extension (`io.modelcontextprotocol/tasks`) to call
   * it. `"optional"` (the default): a client that did not gets the promise as a result that tells the
   * model to call `redeem`. `"required"`: such a call is refused with -32021 before the handler runs.
   * MCP-lite, which has promises of its own, ignores it.
   */
  taskSupport?: "optional" | "required";
  /**
   * At-least-once delivery of its deferred work: work that throws a retryable error, or whose worker or instance
   * stopped, is run again under the same promise, at most `attempts` runs in all (an integer from 1 to 100; deaths and
   * errors share them), `backoff` apart (default 0). Steps the work journaled (`work.step()`) are not run again. A
   * thrown error waits its backoff as a durable sleep (on a queue, in the queue). A stopped worker's job the queue
   * delivers again (BullMQ's stalled-job check); without a queue, the instance that next reads it (a `redeem`,
   * `tasks/get`) once its lease lapsed, with a shared `resultStore`. Without it, delivery is at most once.
   */
  retry?: PromiseRetry;
  /**
   * How long one run of its `ctx.defer()` work may take, in ms (default 900 000: 15 minutes; from 1 to
   * 2 147 483 647). Past it the work's signal aborts, and the call ends as failed with
   * `deadline_exceeded` (`data.reason: "timeout"`), which callers read as a timeout, not as the tool's failure;
   * the job's slot (a worker's, or the server's `jobs` budget) is free at once, even if the work ignores its
   * signal. The entry's end (`ttlMs`) ends the work too, and nothing is written for it then.
   */
  timeoutMs?: number;
  /**
   * Per-key concurrency of its queued jobs (`createServer({ queue })`): at most `limit` (1–1 000) run at once per key
   * (`key` of the call's arguments and caller; default one key for the tool), across every worker and instance
   * sharing the queue and result store. A slot is a lease in the store (the server's `leaseMs`), so a worker killed
   * holding one frees it once the lease lapses; a job over its key's limit waits in the queue, holding no worker slot.
   */
  concurrency?: { readonly limit: number; key?(input: TArgs, auth: AuthInfo | undefined): string };
  /**
   * A rate limit of its queued jobs: at most `limit` (1–1 000) starts per key in any `periodMs` (1–86 400 000), across
   * every worker sharing the queue and result store; a job over it waits in the queue, holding no worker slot. A job
   * counts once, however often it wakes or starts again.
   */
  rateLimit?: {
    readonly limit: number;
    readonly periodMs: number;
    key?(input: TArgs, auth: AuthInfo | undefined): string;
  };
  /**
   * Deduplication of its queued jobs (BullMQ's `deduplication`): a call whose key is that of a job not yet finished
   * (or, with `ttlMs`, added less than `ttlMs` ago) joins that job, and is answered its result. Put the caller in the
   * key when callers must not share results.
   */
  dedupe?: { key(input: TArgs, auth: AuthInfo | undefined): string; readonly ttlMs?: number };
  /**
   * The order of its queued jobs among waiting ones (BullMQ's `priority`): an integer from 1 (first) to 2 097 152, or
   * one of the call's arguments; jobs without a priority are taken before any with one, as BullMQ takes them.
   */
  priority?: number | ((input: TArgs) => number);
  /**
   * An event (`defineEvent()`, served with `server.event()`) raised once when a call's deferred work ends: completed,
   * failed (thrown, timed out, lost with its instance) or cancelled, in process or on a queue's worker (which must
   * serve it too). Its payload is a `TaskEnded`: the id the caller holds (the MCP task id when the call became a task,
   * else the promise token), the tool, the status and, when failed, the error's message; never the result. Subscribers
   * get it by webhook, poll or push as any event. Only the work of `ctx.defer()` and `.defer()` ends so: a
   * continuation (`ctx.promise()` and `.redeem()`) has no work of the server's to end.
   */
  endEvent?: EndEvent;
}

/**
 * An interactive view a tool's results are shown in (MCP Apps, SEP-1865): its `ui://` resource and the
 * features that serve it. `defineApp()` (`@mcplite/sdk/apps`) makes one; `.ui()` attaches it to a tool.
 */
export interface ToolView {
  /** The view's `ui://` URI. */
  readonly uri: string;
  /** The resource that serves its HTML, registered with the tool. */
  readonly resource: AnyResource;
  /** The extensions serving it needs (MCP Apps, `io.modelcontextprotocol/ui`), served with the tool. */
  readonly extensions: readonly Extension[];
  /**
   * The `_meta` a tool shown in the view is listed with: `ui: { resourceUri, visibility }` and the flat
   * `ui/resourceUri` older hosts read (SEP-1865, Resource Discovery).
   *
   * @param tool The tool's name, for errors.
   * @param options Who may call the tool.
   * @returns The metadata.
   * @throws {TypeError} For an empty or unknown visibility, or a view without HTML.
   */
  toolMeta(tool: string, options: ToolUiOptions): Record<string, unknown>;
}

/** How `.ui()` shows a tool: who may call it (MCP Apps, SEP-1865, Visibility). */
export interface ToolUiOptions {
  /**
   * Who may call the tool: `"model"` (the agent), `"app"` (the view, through the host), or both, the
   * default. A host lists an app-only tool (`["app"]`) to its view and never to the model.
   */
  readonly visibility?: readonly ("model" | "app")[];
}

/** Continues a promise from its state: returns the answer, or another promise. */
export type RedeemHandler<TState, TOut> = (
  state: TState,
  ctx: CallContext,
) => HandlerReturn<TOut> | ToolPromise<TState> | Promise<HandlerReturn<TOut> | ToolPromise<TState>>;

/** Cancels the work behind a promise, from its state. */
export type CancelHandler<TState> = (state: TState, ctx: CallContext) => unknown;

/**
 * The context a tool's handler receives from `.handle()`: the {@link CallContext}, whose `defer()` compiles only
 * for what the tool can run, so deferring work it cannot is a compile error rather than a failed call. It is still
 * a `CallContext`: helpers typed with one accept it.
 *
 * @typeParam TConfig The tool's configuration (`ctx.config`).
 * @typeParam TLongRunning What `ctx.defer()` may start: `true`, the tool's declared work (`.defer().handle()`) or
 *   inline work; `"inline"`, inline work only (`.longRunning()` without `retry`: no declared work to hand input to);
 *   `"declare"`, nothing (`.longRunning({ retry })`: only declared work can start again); `false`, nothing (no
 *   `.longRunning()`).
 */
export type ToolContext<TConfig = unknown, TLongRunning extends boolean | "inline" | "declare" = true> =
  TLongRunning extends true ? CallContext<TConfig>
    : TLongRunning extends "inline" ? Omit<CallContext<TConfig>, "defer"> & {
        /**
         * Answers "not done yet" while `work` runs on in this process (see {@link CallContext.defer}); a tool that
         * hands input to declared work declares it with `.defer()` first.
         *
         * @param work The work.
         * @param options The timing.
         * @returns The pending answer, for the handler to return.
         */
        defer(
          work: (signal: AbortSignal) => unknown,
          options?: Omit<PromiseOptions<unknown>, "state">,
        ): ToolPromise<never>;
      }
    : TLongRunning extends "declare" ? CallContext<TConfig> & {
        /** Not available: with `retry`, declare the work with `.defer()` (and hand it input from `.defer().handle()`). */
        readonly defer: never;
      }
    : CallContext<TConfig> & {
      /** Not available: declare `.longRunning()` before `.handle()` to defer work. */
      readonly defer: never;
    };

/** A plain handler; `TConfig` types `ctx.config` (from `.config()`). */
export type ToolHandler<TArgs, TOut, TConfig = unknown> = (
  args: TArgs,
  ctx: CallContext<TConfig>,
) => HandlerReturn<TOut> | Promise<HandlerReturn<TOut>>;

/** A streaming handler: each yielded value is a partial; the return value, if any, is the final result. */
export type StreamHandler<TArgs, TOut, TConfig = unknown> = (
  args: TArgs,
  ctx: CallContext<TConfig>,
) => AsyncIterable<unknown> | AsyncGenerator<unknown, HandlerReturn<TOut>, undefined>;

/**
 * A finished tool, ready to be registered with `server.tool()`.
 *
 * @typeParam TName The tool name.
 * @typeParam TInput What the caller sends.
 * @typeParam TArgs What the handler receives.
 * @typeParam TOutput The structured result.
 * @typeParam TState The continuation state of its promises (`ctx.promise({ state })`).
 */
export interface Tool<
  TName extends string = string,
  TInput = unknown,
  TArgs = unknown,
  TOutput = unknown,
  TState = unknown,
> {
  /** What the definition brings to the wires that serve it (e.g. the MCP methods that serve resources), read by each binding; opaque to you. */
  readonly features?: readonly Readonly<Record<string, unknown>>[];
  /** The extensions serving it needs (its view's, MCP Apps), served with it. */
  readonly extensions?: readonly Extension[];
  /** The tool name. */
  readonly name: TName;
  /** The MCP-lite `@type` category. */
  readonly category: string | undefined;
  /** A human-readable title. */
  readonly title: string | undefined;
  /** What the tool does, for the model. */
  readonly description: string | undefined;
  /** The input schema, compiled. */
  readonly input: CompiledSchema;
  /** The output schema, compiled, if declared. */
  readonly output: CompiledSchema | undefined;
  /** MCP annotations. */
  readonly annotations: ToolAnnotations | undefined;
  /** The configuration schema (`.config()`), compiled, if declared: settings the model never generates. */
  readonly config?: CompiledSchema;
  /** Free-form metadata sent as the tool's `_meta`. */
  readonly meta: Record<string, unknown> | undefined;
  /**
   * The icons a client may show for it (`.icons()`), checked: MCP's `Icon`s (MCP 2025-11-25; SEP-973),
   * `{ src, mimeType?, sizes?, theme? }`, the shape the server, prompts, resources and templates take too.
   */
  readonly icons?: readonly Icon[];
  /** The OAuth scopes a caller must hold to see and call the tool (`.scopes()`), if any. */
  readonly scopes?: readonly string[];
  /** `"handle"` for a plain handler, `"stream"` for a streaming one. */
  readonly mode: "handle" | "stream";
  /** The handler. */
  readonly run: ToolHandler<unknown, unknown> | StreamHandler<unknown, unknown>;
  /**
   * Phantom types for inference, never present at run time: what the caller sends (the input schema's input
   * type), what the handler receives (its output type) and what the caller gets back as structured content.
   */
  readonly "~types"?: { readonly input: TInput; readonly args: TArgs; readonly output: TOutput };
  /** Set when the tool may answer with a promise (`.longRunning()`, `.redeem()`): the server then lists `redeem`. */
  readonly longRunning?: LongRunningOptions;
  /** What each of its jobs runs, in process or on a worker (`.defer()`): its input, and the work's context. */
  readonly work?: (input: unknown, work: WorkContext) => unknown;
  /** Continues this tool's promises (`.redeem()`). */
  readonly onRedeem?: RedeemHandler<unknown, unknown>;
  /** Cancels this tool's promises (`.cancel()`). */
  readonly onCancel?: CancelHandler<unknown>;
  /** Resources registered with the tool: the `ui://` view of `.ui()` (MCP Apps). */
  readonly resources?: readonly AnyResource[];
  /**
   * Returns the tool with a continuation: redeeming one of its promise tokens runs `handler` with the
   * token's state, on whichever instance holds the secret. Implies `.longRunning()`.
   *
   * @param handler Receives the state; returns the answer or `ctx.promise()` again.
   * @returns The tool, continued.
   */
  redeem(handler: RedeemHandler<TState, TOutput>): Tool<TName, TInput, TArgs, TOutput, TState>;
  /**
   * Returns the tool with a cancellation handler, run when a client cancels one of its promises
   * (`redeem` with `cancel: true`).
   *
   * @param handler Receives the promise's state.
   * @returns The tool.
   */
  cancel(handler: CancelHandler<TState>): Tool<TName, TInput, TArgs, TOutput, TState>;
}

/** Any tool, whatever its types. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<string, any, any, any, any>;

/** The arguments a caller sends to a tool. */
export type InferToolInput<T extends AnyTool> = NonNullable<T["~types"]>["input"];

/** The arguments a tool's handler receives. */
export type InferToolArgs<T extends AnyTool> = NonNullable<T["~types"]>["args"];

/** The structured result a tool gives back. */
export type InferToolOutput<T extends AnyTool> = NonNullable<T["~types"]>["output"];

/** A tool's description as listed to clients (MCP `Tool`, plus MCP-lite's `@type`). */
export interface ToolDescriptor {
  /** The tool name. */
  name: string;
  /** The MCP-lite category. */
  "@type"?: string;
  /** A human-readable title. */
  title?: string;
  /** What the tool does. */
  description?: string;
  /** The JSON Schema of the arguments. */
  inputSchema: JsonSchema;
  /** The JSON Schema of the structured result. */
  outputSchema?: JsonSchema;
  /** MCP annotations. */
  annotations?: ToolAnnotations;
  /** Icons (MCP 2025-11-25, `Icon`). */
  icons?: readonly Icon[];
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}

/**
 * The description a listing that requires one shows (MCP-lite spec v0.042 §3.9; Webtools' metadata
 * applies the same rule): the tool's own, else its title, else an empty string (`defineTool()` warns
 * about a tool with neither).
 *
 * @param tool The tool.
 * @returns The description.
 */
export function requiredDescription(tool: AnyTool): string {
  return tool.description ?? tool.title ?? "";
}

/**
 * Describes a tool as `tools/list` shows it. Runs once per tool, at registration.
 *
 * @param tool The tool.
 * @param mcpLite Whether the listing is MCP-lite's (also gRPC's): with `@type`, and always a description.
 * @returns The descriptor.
 */
export function describeTool(tool: AnyTool, mcpLite: boolean): ToolDescriptor {
  const d = { name: tool.name } as ToolDescriptor;
  if (mcpLite && tool.category !== undefined) d["@type"] = tool.category;
  if (tool.title !== undefined) d.title = tool.title;
  if (mcpLite) d.description = requiredDescription(tool);
  else if (tool.description !== undefined) d.description = tool.description;
  d.inputSchema = tool.input.jsonSchema;
  if (tool.output) d.outputSchema = tool.output.jsonSchema;
  if (tool.annotations) d.annotations = tool.annotations;
  if (tool.icons) d.icons = tool.icons;
  if (tool.meta) d._meta = tool.meta;
  return d;
}

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Checks a tool name: 1–64 characters of `[A-Za-z0-9_.-]`.
 *
 * @param name The name.
 * @throws {TypeError} When the name is invalid.
 */
export function assertToolName(name: string): void {
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw new TypeError(`invalid tool name ${JSON.stringify(name)}: use 1-64 characters of A-Z a-z 0-9 _ . -`);
  }
}
