/**
 * `defineTool()`: the immutable fluent builder that turns a name, schemas and a handler into a {@link Tool}.
 *
 * @module
 */
import type { ToolPromise } from "../core/call/tool-promise.ts";
import { checkScopes } from "../core/definitions/scopes.ts";
import { assertToolName } from "../core/definitions/tool.ts";
import { finishTool, type ToolFields } from "./finish-tool.ts";
import type { WorkContext } from "../core/long-running/work-context.ts";
import type { EndEventFits } from "../core/definitions/event.ts";
import type {
  HandlerReturn,
  LongRunningOptions,
  StreamHandler,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolHandler,
  ToolUiOptions,
  ToolView,
} from "../core/definitions/tool.ts";
import { compileSchema } from "../core/schema.ts";
import type { CompiledSchema, InferSchemaInput, InferSchemaOutput, NotAShape, SchemaInput } from "../core/schema.ts";
import { isObject } from "../internal/is-object.ts";
import { checkIcons, type Icon } from "../core/definitions/icon.ts";

const EMPTY_INPUT: CompiledSchema = Object.freeze({
  jsonSchema: Object.freeze({ type: "object", properties: {} }),
  validate: (value: unknown) =>
    isObject(value)
      ? { ok: true as const, value }
      : { ok: false as const, issues: [{ path: "", message: "Expected an object" }] },
});

interface BuilderState {
  readonly name: string;
  readonly category?: string;
  readonly title?: string;
  readonly description?: string;
  readonly input: CompiledSchema;
  readonly output?: CompiledSchema;
  readonly annotations?: ToolAnnotations;
  readonly meta?: Record<string, unknown>;
  readonly icons?: readonly Icon[];
  readonly scopes?: readonly string[];
  readonly config?: CompiledSchema;
  readonly longRunning?: LongRunningOptions;
  readonly view?: ToolView;
  readonly work?: (input: unknown, work: WorkContext) => unknown;
}

/**
 * The fluent builder `defineTool()` returns. Every method returns a new builder, so a partial
 * builder can be shared safely.
 *
 * @typeParam TName The tool name.
 * @typeParam TInput What the caller sends.
 * @typeParam TArgs What the handler receives.
 * @typeParam TOutput The structured result.
 * @typeParam TConfig The configuration handlers read as `ctx.config`.
 * @typeParam TLongRunning What a handler's `ctx.defer()` may start (`ToolContext`): `.longRunning()` lets it defer
 *   inline work, unless it asks for `retry`, which only declared work (`.defer()`) can honour.
 */
export class ToolBuilder<
  TName extends string,
  TInput = Record<string, never>,
  TArgs = Record<string, never>,
  TOutput = unknown,
  TConfig = unknown,
  TLongRunning extends boolean | "inline" | "declare" = false,
> {
  readonly #state: BuilderState;

  /**
   * Creates a builder; use {@link defineTool} instead.
   *
   * @param state The definition so far.
   */
  constructor(state: BuilderState) {
    this.#state = Object.freeze(state);
  }

  #with<I, A, O, C = TConfig, L extends boolean | "inline" | "declare" = TLongRunning>(
    patch: Partial<BuilderState>,
  ): ToolBuilder<TName, I, A, O, C, L> {
    return new ToolBuilder<TName, I, A, O, C, L>({ ...this.#state, ...patch });
  }

  /**
   * Sets the MCP-lite `@type` category (e.g. `"query"`, `"action"`).
   *
   * @param category The category.
   * @returns A new builder.
   */
  type(category: string): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    return this.#with({ category });
  }

  /**
   * Sets a human-readable title.
   *
   * @param title The title.
   * @returns A new builder.
   */
  title(title: string): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    return this.#with({ title });
  }

  /**
   * Sets the description the model reads to decide when to call the tool.
   *
   * @param description The description.
   * @returns A new builder.
   */
  describe(description: string): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    return this.#with({ description });
  }

  /**
   * Sets the input schema. Its JSON Schema is computed now; a schema that has none fails here, naming
   * the property.
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns A new builder whose handler receives the schema's output type.
   * @throws {TypeError} When the schema cannot be expressed as a JSON Schema object, or is a raw shape
   *   (`{ city: v.string() }`: wrap it in `v.object()`).
   */
  input<S extends SchemaInput>(
    schema: S & NotAShape<S>,
  ): ToolBuilder<TName, InferSchemaInput<S>, InferSchemaOutput<S>, TOutput, TConfig, TLongRunning> {
    return this.#with({ input: objectSchema(schema, `tool "${this.#state.name}" input`) });
  }

  /**
   * Sets the output schema: the handler's value becomes `structuredContent` and the schema is listed
   * as `outputSchema`.
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns A new builder whose handler must return the schema's type.
   * @throws {TypeError} When the schema cannot be expressed as a JSON Schema object, or is a raw shape
   *   (`{ city: v.string() }`: wrap it in `v.object()`).
   */
  output<S extends SchemaInput>(
    schema: S & NotAShape<S>,
  ): ToolBuilder<TName, TInput, TArgs, InferSchemaOutput<S>, TConfig, TLongRunning> {
    return this.#with({
      output: objectSchema(schema, `tool "${this.#state.name}" output`, "MCP requires an object schema"),
    });
  }

  /**
   * Sets MCP's behaviour hints (`readOnlyHint`, `destructiveHint`, …).
   *
   * @param annotations The hints.
   * @returns A new builder.
   */
  annotations(annotations: ToolAnnotations): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    return this.#with({ annotations: { ...this.#state.annotations, ...annotations } });
  }

  /**
   * Sets free-form metadata, listed as the tool's `_meta`.
   *
   * @param meta The metadata.
   * @returns A new builder.
   */
  meta(meta: Record<string, unknown>): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    return this.#with({ meta: { ...this.#state.meta, ...meta } });
  }

  /**
   * Sets the icons a client may show for the tool (MCP 2025-11-25, `Icon`), listed as its `icons` on
   * MCP and MCP-lite, and as its operation's `x-icons` in the OpenAPI document.
   *
   * @param icons The icons: `https:` URLs or image `data:` URIs (`http:` only on localhost).
   * @returns A new builder.
   * @throws {TypeError} For a refused `src` (`javascript:`, `file:`, `http:` off loopback, a `data:` URI
   *   that is not an image or is over 64 KiB), a MIME type that is not `image/*`, a size that is neither
   *   `WxH` nor `"any"`, or an unknown theme.
   *
   * @example
   * ```ts
   * import { defineTool } from "./define-tool.ts";
   * const search = defineTool("search")
   *   .icons([{ src: "https://example.com/search.svg", mimeType: "image/svg+xml", sizes: ["any"] }])
   *   .handle(() => "found");
   * ```
   */
  icons(icons: readonly Icon[]): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    return this.#with({ icons: checkIcons(icons, `tool "${this.#state.name}"`) });
  }

  /**
   * Requires OAuth scopes (MCP 2025-11-25, Authorization, Scope Challenge Handling): a caller whose
   * token lacks one does not see the tool in lists, and calling it answers 403 `insufficient_scope`
   * naming what it needs, so the client can ask for more (step-up). Calls with no authenticated caller
   * are refused too (`server.call()` passes one with `{ auth }`).
   *
   * @param scopes The scopes, all required.
   * @returns A new builder.
   * @throws {TypeError} For an empty or malformed scope (RFC 6749 §3.3: printable ASCII, no space, `"` or `\`).
   *
   * @example
   * ```ts
   * import { defineTool } from "./define-tool.ts";
   * const remove = defineTool("delete_doc").scopes("docs:write").handle(() => "deleted");
   * ```
   */
  scopes(...scopes: string[]): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    return this.#with({
      scopes: checkScopes([...(this.#state.scopes ?? []), ...scopes], `tool "${this.#state.name}"`),
    });
  }

  /**
   * Declares the tool's configuration: settings supplied by the environment (credentials, units,
   * defaults) that the model never generates. Handlers read them, typed, as `ctx.config`. On MCP and
   * MCP-lite they come from the server's `settings`; on Webtools from the caller's `config`, listed as
   * the webtool's `configSchema` and `defaultConfig` (the server's `settings` still win there).
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns A new builder whose handler reads the schema's output type as `ctx.config`.
   * @throws {TypeError} When the schema cannot be expressed as a JSON Schema object, or is a raw shape
   *   (`{ city: v.string() }`: wrap it in `v.object()`).
   *
   * @example
   * ```ts
   * import * as v from "valibot";
   * import { defineTool } from "./define-tool.ts";
   *
   * const weather = defineTool("weather")
   *   .input(v.object({ city: v.string() }))
   *   .config(v.object({ apiKey: v.string(), units: v.optional(v.picklist(["metric", "imperial"]), "metric") }))
   *   .handle(({ city }, ctx) => `${city}: 21 degrees (${ctx.config.units})`);
   * ```
   */
  config<S extends SchemaInput>(
    schema: S & NotAShape<S>,
  ): ToolBuilder<TName, TInput, TArgs, TOutput, InferSchemaOutput<S>, TLongRunning> {
    return this.#with({ config: objectSchema(schema, `tool "${this.#state.name}" config`) });
  }

  /**
   * Finishes the tool with a handler. Its `ctx.defer()` compiles only after `.longRunning()`.
   *
   * @param handler Receives the validated arguments and the call context.
   * @returns The tool.
   */
  handle<R extends ReturnType<ToolHandler<TArgs, TOutput, TConfig>>>(
    handler: (args: TArgs, ctx: ToolContext<TConfig, TLongRunning>) => R,
  ): Tool<
    TName,
    TInput,
    TArgs,
    TOutput,
    Awaited<R> extends infer V ? V extends ToolPromise<infer S> ? S : never : never
  > {
    return this.#finish("handle", handler as unknown as ToolHandler<unknown, unknown>) as Tool<
      TName,
      TInput,
      TArgs,
      TOutput,
      Awaited<R> extends infer V ? V extends ToolPromise<infer S> ? S : never : never
    >;
  }

  /**
   * Shows the tool's results in an interactive view (MCP Apps, SEP-1865): the tool is listed with
   * `_meta.ui = { resourceUri, visibility }` (and the flat `ui/resourceUri` older hosts read), and
   * registering it registers the view's `ui://` resource. A host that renders apps calls the tool, reads
   * the view and hands it the tool's input and result; any other client sees a plain tool.
   *
   * @param view The view, from `defineApp()` (`@mcplite/sdk/apps`).
   * @param options Who may call the tool (`visibility`, default `["model", "app"]`).
   * @returns A new builder.
   * @throws {TypeError} For a view without HTML, or an empty or unknown visibility.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { defineApp } from "../assembly/served-apps.ts";
   * import { defineTool } from "./define-tool.ts";
   *
   * const board = defineApp("ui://scores/board").html("<!doctype html><p>Scores</p>");
   * const refresh = defineTool("refresh_scores").describe("Reloads the scores")
   *   .ui(board, { visibility: ["app"] })
   *   .handle(() => ({ scores: [3, 1] }));
   * assert.deepEqual(refresh.meta?.ui, { resourceUri: "ui://scores/board", visibility: ["app"] });
   * ```
   */
  ui(view: ToolView, options: ToolUiOptions = {}): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, TLongRunning> {
    // The view writes the metadata, so that a server without apps carries none of that code.
    return this.#with({ meta: { ...this.#state.meta, ...view.toolMeta(this.#state.name, options) }, view });
  }

  /**
   * Declares that the tool may answer "not done yet" (`ctx.promise()` with `.redeem()`, or
   * `ctx.defer()`); the server then lists the `redeem` system tool. `.redeem()` implies it.
   *
   * @param options The TTL of its tokens, its default `retry_after_ms`, whether MCP clients must use tasks,
   *   whether its deferred work runs again when it throws or its instance stops (`retry`, at least once), how long
   *   one run of that work may take (`timeoutMs`, default 15 minutes), and, on a queue, its flow control
   *   (`concurrency`, `rateLimit`, `dedupe`, `priority`), whose keys read the arguments as `.input()` typed them;
   *   `endEvent`, an event the server raises once when a call's work ends (its payload must accept a `TaskEnded`:
   *   the id the caller holds, the tool, the status; it does not compile otherwise).
   * @returns A new builder. The server that adds the tool checks the options (`server.tool()` throws a `TypeError`
   *   when `taskSupport` is not `"optional"` or `"required"`; a `RangeError` for `retry.attempts` outside 1–100,
   *   a `retry.backoff` in ms outside 0–3 600 000, or `timeoutMs` outside 1–2 147 483 647). A call of a tool whose
   *   `endEvent` the server does not serve (`server.event()`) fails as the server's error, its work cancelled (or not
   *   started, on a server serving no events).
   *
   * @example
   * ```ts
   * import { defineTool } from "./define-tool.ts";
   * const crawl = defineTool("crawl")
   *   .longRunning({ retryAfterMs: 2000 })
   *   .handle((_args, ctx) => ctx.defer(async () => ({ pages: 42 })));
   * // idempotent work, run again (3 runs in all) when it throws, or on a live instance if its instance stops
   * // ended as timed out (deadline_exceeded) if a run takes over 10 minutes; only declared work (.defer()) can
   * // start again on another instance, so a tool with retry declares its work
   * const reindex = defineTool("reindex")
   *   .longRunning({ retry: { attempts: 3, backoff: 1000 }, timeoutMs: 10 * 60_000 })
   *   .defer(async () => ({ indexed: true }));
   * ```
   *
   * @example An event raised when a call's work ends (docs/guides/events.md, "Task events")
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createServer } from "../../mod.ts";
   * import { defineEvent } from "../events/mod.ts";
   * import { defineTool } from "./define-tool.ts";
   *
   * const ended = defineEvent("export.ended").payload(v.object({ taskId: v.string(), status: v.string() }));
   * const exportAll = defineTool("export_all")
   *   .longRunning({ endEvent: ended }) // raised with the task id (or promise token) the caller holds
   *   .defer(async () => ({ rows: 1_000 }));
   * const server = createServer({ name: "exports", version: "1.0.0" }).event(ended).tool(exportAll);
   * assert.equal((await server.call("export_all", {})).kind, "promise"); // its end raises export.ended
   * ```
   */
  longRunning<const O extends LongRunningOptions<TArgs> = Record<never, never>>(
    options?: O & LongRunningOptions<TArgs> & EndEventFits<O>, // its keys' arguments typed as the tool's
  ): ToolBuilder<TName, TInput, TArgs, TOutput, TConfig, O extends { readonly retry: object } ? "declare" : "inline"> {
    return this.#with({ longRunning: { ...options } }) as never; // the signature's type: what ctx.defer() may start
  }

  /**
   * Finishes the tool with its declared work (implies `.longRunning()`): each call answers with a promise (an MCP
   * task) whose job runs `work` with the call's arguments, here or, with a queue, on a worker, which runs only the
   * work. Its steps (`work.step()`) and sleeps (`work.sleep()`) are journaled in the result store: with `retry`, a
   * start after its worker stopped resumes after the last completed step. `.handle()` puts a handler first, on
   * the instance that takes the call; its `ctx.defer(input)` starts the work with `input`.
   *
   * @param work Receives the input and the {@link WorkContext}; returns the result, as a handler does.
   * @returns The tool, and `.handle()` to put a handler before the work.
   * @throws {TypeError} When `work` is not a function.
   *
   * @example Work in steps, a handler first
   * ```ts
   * import * as v from "valibot";
   * import { defineTool } from "./define-tool.ts";
   *
   * const report = defineTool("report").input(v.object({ id: v.string() })).longRunning({ retry: { attempts: 3 } })
   *   .defer(async ({ id }, work) => ({ rows: (await work.step("fetch", () => [id])).length }));
   * const approved = defineTool("approved_report")
   *   .input(v.object({ id: v.string() }))
   *   .defer((input: { id: string; by: string }) => `report ${input.id}, approved by ${input.by}`)
   *   .handle(({ id }, ctx) => ctx.defer({ id, by: ctx.auth?.subject ?? "anyone" }));
   * ```
   */
  defer<TIn = TArgs>(
    work: (input: TIn, work: WorkContext<TConfig>) => HandlerReturn<TOutput> | Promise<HandlerReturn<TOutput>>,
  ): Tool<TName, TInput, TArgs, TOutput, never> & {
    /**
     * Puts a handler before the work; its `ctx.defer(input)` starts the work (default input: the arguments).
     *
     * @param handler Receives the validated arguments and the call context.
     * @returns The tool.
     */
    handle(
      handler: (args: TArgs, ctx: ToolContext<TConfig, true>) => ReturnType<ToolHandler<TArgs, TOutput, TConfig>>,
    ): Tool<TName, TInput, TArgs, TOutput, never>;
  } {
    if (typeof work !== "function") throw new TypeError(`tool "${this.#state.name}": .defer() needs a function`);
    const declared = this.#with<TInput, TArgs, TOutput, TConfig, true>({
      longRunning: this.#state.longRunning ?? {},
      work: work as (input: unknown, work: WorkContext) => unknown,
    });
    const tool = declared.#finish("handle", deferArguments);
    return Object.freeze({
      ...tool,
      handle: (handler: (args: TArgs, ctx: ToolContext<TConfig, true>) => unknown) =>
        declared.#finish("handle", handler as unknown as ToolHandler<unknown, unknown>),
    }) as never; // the signature's type: the finished tool, and `.handle()`
  }

  /**
   * Finishes the tool with a streaming handler: each yielded value is sent as a partial (an SSE
   * `message`); the final result is the generator's return value, or else the partials joined.
   *
   * @param handler An async generator function.
   * @returns The tool.
   */
  stream(handler: StreamHandler<TArgs, TOutput, TConfig>): Tool<TName, TInput, TArgs, TOutput> {
    return this.#finish("stream", handler as StreamHandler<unknown, unknown>);
  }

  #finish(
    mode: "handle" | "stream",
    run: ToolHandler<unknown, unknown> | StreamHandler<unknown, unknown>,
  ): Tool<TName, TInput, TArgs, TOutput> {
    if (typeof run !== "function") throw new TypeError(`tool "${this.#state.name}": the handler must be a function`);
    const s = this.#state;
    const tool: ToolFields = {
      name: s.name,
      category: s.category,
      title: s.title,
      description: s.description,
      input: s.input,
      output: s.output,
      annotations: s.annotations,
      meta: s.meta,
      ...(s.icons === undefined ? {} : { icons: s.icons }),
      ...(s.scopes === undefined ? {} : { scopes: s.scopes }),
      ...(s.config === undefined ? {} : { config: s.config }),
      ...(s.longRunning === undefined ? {} : { longRunning: s.longRunning }),
      ...(s.work === undefined ? {} : { work: s.work }),
      ...(s.view === undefined ? {} : { resources: [s.view.resource], extensions: s.view.extensions }),
      mode,
      run,
    };
    return finishTool(tool) as Tool<TName, TInput, TArgs, TOutput>;
  }
}

/** The handler of a tool with declared work and no handler of its own: every call starts the work. */
const deferArguments: ToolHandler<unknown, unknown> = (args, ctx) => ctx.defer(args);

/**
 * Starts the definition of a tool.
 *
 * @param name The tool name: 1–64 characters of `[A-Za-z0-9_.-]`.
 * @returns A fluent builder.
 * @throws {TypeError} When the name is invalid.
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * import { defineTool } from "./define-tool.ts";
 *
 * const add = defineTool("add")
 *   .describe("Adds two numbers")
 *   .input(v.object({ a: v.number(), b: v.number() }))
 *   .output(v.object({ sum: v.number() }))
 *   .handle(({ a, b }) => ({ sum: a + b }));
 * ```
 */
export function defineTool<TName extends string>(name: TName): ToolBuilder<TName> {
  assertToolName(name);
  return new ToolBuilder<TName>({ name, input: EMPTY_INPUT });
}

/** A tool's input, output or config schema, which describes an object (`type: "object"`), or a `TypeError` says so. */
function objectSchema(schema: SchemaInput, where: string, rule = "the schema must describe an object"): CompiledSchema {
  const compiled = compileSchema(schema, where);
  if (compiled.jsonSchema.type !== "object") throw new TypeError(`${where}: ${rule} (type "object")`);
  return compiled;
}
