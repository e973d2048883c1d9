/**
 * The typed client. It infers tool names, arguments and results from the server's type and finishes
 * every call by itself: promises redeemed, input rounds answered, tasks polled, with a signal and
 * timeouts on every request.
 *
 * @module
 */
import type { SkillsApi } from "./client-skills.ts";
import type { EventsApi, EventsOf } from "./event-types.ts";
import { McpliteError, type ToolError } from "../errors/error.ts";
import { CallRunner, finish, throwRefusal } from "./call-runner.ts";
import type { ClientOptions } from "./client-options.ts";
import { type CallResult, toolFailureOf } from "./read-result.ts";
import { createToolStream } from "./tool-stream.ts";
import { ToolCache } from "./tool-cache.ts";
import { toolProxy } from "./tool-proxy.ts";
import { onFirstUse } from "./on-first-use.ts";
import type { Reply, ToolInfo, ToolListing, Transport } from "./transport.ts";
import type {
  CallHandle,
  CallOptions,
  ListOptions,
  RequestOptions,
  ToolInput,
  ToolOutput,
  ToolProxy,
  ToolsOf,
  ToolStream,
} from "./client-types.ts";

export type { ClientOptions };

/**
 * A client for one server, made by `createClient()`. Typed when created as `createClient<typeof server>(…)`;
 * untyped (any tool name, object arguments, `unknown` results) otherwise.
 *
 * @typeParam T The server's tools.
 * @typeParam E The server's events.
 */
export class Client<T = ToolsOf<unknown>, E = EventsOf<unknown>> {
  /**
   * Typed shortcuts: `client.tools.add({ a: 1, b: 2 })` is `client.call("add", { a: 1, b: 2 })`. The names loggers,
   * `await` and test matchers read (`toJSON`, `then`, `inspect`…, `_`-names, symbols) call nothing (`ProbedName`).
   */
  readonly tools: ToolProxy<T>;
  readonly #runner: CallRunner;
  readonly #cache = new ToolCache();
  /** The storing of a list the transport read on its own (finding the wire), until it is done. */
  #handed: Promise<void> | undefined;
  /** `onNotification()`'s handlers, by method. */
  readonly #heard = new Map<string, Set<(params: Record<string, unknown>) => void>>();

  /**
   * The server's Agent Skills (SEP-2640): `list()`, `get(uri)`, and `load(entry)`, which verifies
   * `SKILL.md` against the entry and reads the other files only when asked, each verified.
   */
  readonly skills: SkillsApi;

  /**
   * MCP Events (ChatGPT's profile, SEP-3415): `list()`, `subscribe()` by webhook, `unsubscribe()`, `poll()`,
   * `stream()`.
   */
  readonly events: EventsApi<E>;

  /**
   * Creates a client; use `createClient()` instead.
   *
   * @param transport The transport.
   * @param options The options.
   */
  constructor(transport: Transport, options: ClientOptions = {}) {
    const backend = {
      request: (method: string, params: Record<string, unknown>, o?: RequestOptions) => this.request(method, params, o),
    };
    this.skills = onFirstUse((m) => m.createSkillsApi(backend), ["list", "get", "load"]);
    this.events = onFirstUse((m) => m.createEventsApi(backend), ["list", "subscribe", "unsubscribe", "poll"], [
      "stream",
    ]);
    this.#runner = new CallRunner(transport, options, (listing) => this.#keep(listing), this.#heard);
    this.tools = toolProxy((name, args, options) =>
      this.call(name as keyof T & string, args as never, options as CallOptions)
    ) as object as ToolProxy<T>;
  }

  /** The wire in use (`auto` until discovery has run). */
  get wire(): string {
    return this.#runner.transport.wire;
  }

  /**
   * Calls a tool and returns a handle at once (`{ wait: false }`): the complete result when the
   * server answered directly, else the promise token or task to `resume()` later.
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options `wait: false`, a signal, timeouts and callbacks.
   * @returns The handle.
   */
  call<N extends keyof T & string>(
    name: N,
    args: ToolInput<T, N>,
    options: CallOptions & { wait: false },
  ): Promise<CallHandle<ToolOutput<T, N>>>;
  /**
   * Calls a tool; a failed tool resolves as its {@link ToolError} instead of throwing (refused
   * arguments still throw a `ProtocolError` (`invalid_arguments`): the call failed, not the tool).
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options `failure: "value"`, a signal, timeouts and callbacks.
   * @returns The value, or the failure.
   */
  call<N extends keyof T & string>(
    name: N,
    args: ToolInput<T, N>,
    options: CallOptions & { failure: "value" },
  ): Promise<ToolOutput<T, N> | ToolError>;
  /**
   * Calls a tool and resolves with its value: the structured result, else its text, else its content
   * blocks. Promises are redeemed, input rounds answered and tasks polled before it resolves.
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options A signal, timeouts, and progress, partial and log callbacks.
   * @returns The value.
   * @throws {ToolError} When the tool failed.
   * @throws {ProtocolError} `invalid_arguments` when the server refused the arguments, on every wire (MCP's `isError`
   *   result of a server of ours included).
   * @throws {McpliteError} For protocol (`ProtocolError`), transport and timeout errors.
   */
  call<N extends keyof T & string>(name: N, args: ToolInput<T, N>, options?: CallOptions): Promise<ToolOutput<T, N>>;
  async call<N extends keyof T & string>(name: N, args: ToolInput<T, N>, options: CallOptions = {}): Promise<unknown> {
    const outcome = await this.#runner.run(name, (args ?? {}) as Record<string, unknown>, options);
    if (outcome.kind !== "complete") return outcome;
    if (options.wait === false) {
      throwRefusal(toolFailureOf(name, outcome.result)); // as the wires that answer an error do
      return { kind: "complete", tool: name, result: outcome.result };
    }
    return finish(name, outcome.result, options);
  }

  /**
   * Calls a tool and resolves with its whole result (content blocks, structured content, `isError`),
   * as a model-facing agent wants it. A failed tool resolves with `isError: true`; it does not throw.
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options A signal, timeouts and callbacks.
   * @returns The result.
   */
  async callTool<N extends keyof T & string>(
    name: N,
    args: ToolInput<T, N>,
    options: Omit<CallOptions, "wait" | "failure"> = {},
  ): Promise<CallResult<ToolOutput<T, N>>> {
    return await this.#runner.runToEnd(name, (args ?? {}) as Record<string, unknown>, options) as CallResult<
      ToolOutput<T, N>
    >;
  }

  /**
   * Calls a streaming tool: iterate the returned stream for its partials; its `result` resolves with
   * the final value. Breaking out of the loop cancels the call.
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options A signal, timeouts and callbacks.
   * @returns The stream.
   */
  stream<N extends keyof T & string>(
    name: N,
    args: ToolInput<T, N>,
    options: Omit<CallOptions, "wait" | "failure" | "onPartial"> = {},
  ): ToolStream<ToolOutput<T, N>> {
    return createToolStream(options.signal, async (signal, onPartial) => {
      const result = await this.#runner.runToEnd(name, (args ?? {}) as Record<string, unknown>, {
        ...options,
        signal,
        onPartial,
      }, true);
      return finish(name, result, { failure: "throw" }) as ToolOutput<T, N>;
    });
  }

  /**
   * Lists the tools with their JSON Schemas. The list is cached per client as the server's `ttlMs`/
   * `cacheScope` (or `Cache-Control`) allow, and revalidated with its `ETag`.
   *
   * @param options A signal, timeouts, and `fresh` to bypass the cache.
   * @returns The tools.
   */
  async listTools(options: ListOptions = {}): Promise<ToolInfo[]> {
    const runner = this.#runner;
    await this.#handed;
    const authKey = await runner.authKey();
    if (options.fresh !== true) {
      const cached = this.#cache.fresh(authKey, Date.now());
      if (cached !== undefined) return [...cached];
    }
    return await runner.timed(options, async (deadline) => {
      const etag = options.fresh === true ? undefined : this.#cache.etag(authKey);
      let listing = await runner.transport.listTools(runner.context(deadline, {}, etag));
      if (listing.notModified && this.#cache.etag(authKey) === undefined) {
        listing = await runner.transport.listTools(runner.context(deadline, {}, undefined));
      }
      return [...this.#cache.store(listing, authKey, Date.now())];
    });
  }

  /** Keeps a list the transport read on its own: it answers the next `listTools()` (see {@link ToolCache.hand}). */
  #keep(listing: ToolListing): void {
    if (listing.notModified) return;
    const at = Date.now();
    this.#handed = this.#runner.authKey().then((authKey) => this.#cache.hand(listing, authKey, at), () => {});
  }

  /**
   * Finishes a call started with `{ wait: false }`: redeems its promise (polls MCP's task).
   *
   * @param handle The handle.
   * @param options A signal, timeouts and `failure`.
   * @returns The value, as {@link Client.call} gives it.
   */
  async resume<TOutput>(handle: CallHandle<TOutput>, options: Omit<CallOptions, "wait"> = {}): Promise<TOutput> {
    if (handle.kind === "complete") return finish(handle.tool, handle.result, options) as TOutput;
    const reply: Reply = handle.status === undefined
      ? {
        kind: "promise",
        token: handle.token,
        ...(handle.retryAfterMs === undefined ? {} : { retryAfterMs: handle.retryAfterMs }),
      }
      : {
        kind: "task",
        task: {
          taskId: handle.token,
          status: handle.status,
          ...(handle.retryAfterMs ? { pollIntervalMs: handle.retryAfterMs } : {}),
        },
      };
    const result = await this.#runner.runToEnd(handle.tool, {}, options, false, reply);
    return finish(handle.tool, result, options) as TOutput;
  }

  /**
   * Cancels the work of a call started with `{ wait: false }`, where its wire can: an MCP task (`tasks/cancel`;
   * cooperative).
   *
   * @param handle The handle.
   * @param options A signal and timeouts.
   * @returns `true` when a cancellation was sent (MCP-lite promises have none on the wire).
   */
  async cancel(handle: CallHandle<unknown>, options: RequestOptions = {}): Promise<boolean> {
    if (handle.kind !== "promise" || handle.status === undefined) return false;
    await this.request("tasks/cancel", { taskId: handle.token }, options);
    return true;
  }

  /**
   * Lists the server's resources (MCP; on MCP-lite, a WebSocket and gRPC, the SDK's MCP-lite extension E4).
   *
   * @param options A signal and timeouts.
   * @returns The resources, every page.
   */
  listResources(options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    return this.#runner.listAll("resources/list", "resources", options);
  }

  /**
   * Lists the server's resource templates (MCP; MCP-lite, a WebSocket and gRPC by extension E4).
   *
   * @param options A signal and timeouts.
   * @returns The templates, every page.
   */
  listResourceTemplates(options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    return this.#runner.listAll("resources/templates/list", "resourceTemplates", options);
  }

  /**
   * Reads a resource (MCP; MCP-lite, a WebSocket and gRPC by extension E4), answering input rounds like a tool call.
   *
   * @param uri The URI.
   * @param options A signal and timeouts.
   * @returns The result (`contents`).
   */
  readResource(uri: string, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    return this.#runner.request("resources/read", { uri }, options, "answer");
  }

  /**
   * Lists the server's prompts (MCP).
   *
   * @param options A signal and timeouts.
   * @returns The prompts, every page.
   */
  listPrompts(options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    return this.#runner.listAll("prompts/list", "prompts", options);
  }

  /**
   * Gets a prompt (MCP), answering input rounds like a tool call.
   *
   * @param name The prompt name.
   * @param args Its arguments.
   * @param options A signal and timeouts.
   * @returns The result (`messages`).
   */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.#runner.request("prompts/get", { name, arguments: args }, options, "answer");
  }

  /**
   * Tells who the server is (MCP): on 2026-07-28 its `server/discover` answer (`serverInfo`,
   * `capabilities`, `instructions`, `supportedVersions`), on a 2025 revision what `initialize` answered
   * (`serverInfo`, `capabilities`, `instructions`, `protocolVersion`). From a bare origin whose first
   * wire is MCP-lite, the server's MCP endpoint is asked.
   *
   * @param options A signal and timeouts.
   * @returns The description, or `null` over a wire that carries none (MCP-lite, gRPC or Webtools alone).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer } from "../../mod.ts";
   * import { createClient } from "./mod.ts";
   *
   * const client = createClient(createServer({ name: "math", version: "1.0.0" }), { transport: "mcp" });
   * const server = await client.discover();
   * assert.equal((server?.serverInfo as { name: string }).name, "math");
   * ```
   */
  async discover(options: RequestOptions = {}): Promise<Record<string, unknown> | null> {
    const runner = this.#runner;
    const transport = runner.transport;
    if (transport.discover === undefined) return null;
    return await runner.timed(options, async (deadline) => {
      try {
        return await transport.discover!(runner.context(deadline, {}));
      } catch (error) {
        if (error instanceof McpliteError && error.code === "unsupported") return null;
        throw error;
      }
    });
  }

  /**
   * Sends any request the transport carries and returns its result as it is: on MCP (both eras, HTTP and stdio),
   * and an extension's (SEP-2133, under a reverse-DNS prefix) on MCP-lite too, as JSON-RPC at `/rpc` (HTTP, stdio, a
   * WebSocket). The result is not checked: `R` only names its type (validate it where it matters).
   *
   * @typeParam R The result's type (default: any JSON object).
   * @param method The JSON-RPC method, e.g. `org.example/ledger/get`.
   * @param params The params.
   * @param options A signal and timeouts.
   * @returns The result.
   * @throws {ProtocolError} What the server answered: `method_not_found` (-32601), `invalid_params` (-32602)…
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createServer, defineExtension } from "../../mod.ts";
   * import { createClient } from "./mod.ts";
   *
   * const ledger = defineExtension("org.example/ledger")
   *   .method("org.example/ledger/get", v.object({ id: v.string() }), ({ id }) => ({ id, balance: 42 }));
   * const server = createServer({ name: "bank", version: "1.0.0" }).extension(ledger);
   * const client = createClient(server, { transport: "mcp", extensions: { "org.example/ledger": {} } });
   * const entry = await client.request<{ id: string; balance: number }>("org.example/ledger/get", { id: "a1" });
   * assert.equal(entry.balance, 42);
   * ```
   */
  async request<R extends Record<string, unknown> = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<R> {
    return await this.#runner.request(method, params, options) as R;
  }

  /**
   * Sends a notification (an extension's, SEP-2133): on MCP, both eras, over HTTP (a POST answered 202) and stdio;
   * on MCP-lite, which has none, as a request to `/rpc` whose result is empty (this SDK's servers run it so).
   *
   * @param method The JSON-RPC method, e.g. `org.example/ledger/touched`.
   * @param params The params.
   * @param options A signal and timeouts.
   * @returns When the server took it.
   * @throws {McpliteError} `unsupported` over a wire that carries none (gRPC, Webtools).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createServer, defineExtension } from "../../mod.ts";
   * import { createClient } from "./mod.ts";
   *
   * const touched: string[] = [];
   * const ledger = defineExtension("org.example/ledger")
   *   .notification("org.example/ledger/touched", v.object({ id: v.string() }), ({ id }) => void touched.push(id));
   * const client = createClient(createServer({ name: "bank", version: "1.0.0" }).extension(ledger), { transport: "mcp" });
   * await client.notify("org.example/ledger/touched", { id: "a1" }).then(() => new Promise((ok) => setTimeout(ok, 10)));
   * assert.deepEqual(touched, ["a1"]); // the server ran it after its 202
   * ```
   */
  async notify(method: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<void> {
    await this.#runner.request(method, params, options, "notify");
  }

  /**
   * Hears a notification the server sends (an extension's, SEP-2133) on a request's own stream while it runs: its
   * SSE answer over HTTP (all MCP 2026-07-28 allows), the connection over stdio. One sent outside any request (a
   * 2025 standalone stream, stdio between requests) is not heard; MCP-lite carries none. Handlers run in order added.
   *
   * @param method The notification's method, e.g. `org.example/ledger/changed`.
   * @param handler Receives its params.
   * @returns A function that removes the handler.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createServer, defineExtension } from "../../mod.ts";
   * import { createClient } from "./mod.ts";
   *
   * const ledger = defineExtension("org.example/ledger")
   *   .method("org.example/ledger/get", v.object({ id: v.string() }), async ({ id }, ctx) => {
   *     await ctx.notify("org.example/ledger/changed", { id });
   *     return { id };
   *   });
   * const client = createClient(createServer({ name: "bank", version: "1.0.0" }).extension(ledger), { transport: "mcp" });
   * const changed: unknown[] = [];
   * const stop = client.onNotification("org.example/ledger/changed", (params) => changed.push(params.id));
   * await client.request("org.example/ledger/get", { id: "a1" }).finally(stop);
   * assert.deepEqual(changed, ["a1"]);
   * ```
   */
  onNotification(method: string, handler: (params: Record<string, unknown>) => void): () => void {
    const handlers = this.#heard.get(method) ?? new Set();
    this.#heard.set(method, handlers.add(handler));
    return () => void handlers.delete(handler);
  }

  /**
   * Closes the transport: ends an MCP 2025 session and its standalone stream (which, for a client with
   * input handlers, keeps the process alive until then). Other wires hold nothing.
   */
  async close(): Promise<void> {
    await this.#runner.transport.close?.();
  }
}
