/**
 * The typed client. It infers tool names, arguments and results from the server's type and finishes
 * every call by itself: promises redeemed, input rounds answered, tasks polled, with a signal and
 * timeouts on every request.
 *
 * @module
 */
import { createSkillsApi, type SkillsApi } from "./skills.ts";
import type { ClientAuth } from "./http.ts";
import { type Backoff, type LoopEnv, type Send, settle, type Settled } from "./call-loop.ts";
import { Deadline } from "./deadline.ts";
import { ClientError, ClientErrorCode, RpcError, type ToolFailedError } from "./errors.ts";
import { createToolStream } from "./tool-stream.ts";
import { baseHeaders, type FetchLike, type HeadersOption } from "./http.ts";
import { answerInput, capabilitiesOf, type InputHandlers } from "./input.ts";
import { type CallResult, callResultOf, resultValue, toolFailureOf } from "./result.ts";
import { retryingTransport, type RetryOptions } from "./retry.ts";
import { finishTask } from "./tasks.ts";
import { ToolCache } from "./tool-cache.ts";
import type {
  ClientInfo,
  ClientTelemetry,
  LogEntry,
  Progress,
  Reply,
  RequestContext,
  ToolInfo,
  Transport,
} from "./transport.ts";
import { TASKS_EXTENSION } from "./transports/mcp-wire.ts";
import { SDK_VERSION } from "../internal/version.ts";
import type {
  CallHandle,
  CallOptions,
  RequestOptions,
  ToolInput,
  ToolName,
  ToolOutput,
  ToolProxy,
  ToolStream,
  UntypedTools,
} from "./types.ts";

/** Options of {@link createClient}. */
export interface ClientOptions extends InputHandlers {
  /**
   * The wire: `auto` (default: the URL's path decides, a bare origin is probed: MCP-lite, then MCP),
   * `mcp-lite` (the URL is the base; a bare origin gets `/mcp-lite/v1`), `mcp` (the URL is the endpoint).
   */
  transport?: "auto" | "mcp-lite" | "mcp";
  /** The fetch function (default: the global one), e.g. to add retries or a proxy. */
  fetch?: FetchLike;
  /** Headers for every request, e.g. `{ authorization: "Bearer …" }`, or a function giving fresh ones. */
  headers?: HeadersOption;
  /**
   * OAuth for protected servers (MCP Authorization): `oauth({…})` for a user's consent,
   * `clientCredentials({…})` for machines. Wraps the fetch every HTTP request goes through.
   */
  auth?: ClientAuth;
  /** The MCP revision to speak (default 2026-07-28, falling back to the 2025 handshake). */
  protocolVersion?: string;
  /** Who the client is (MCP `clientInfo`). */
  clientInfo?: ClientInfo;
  /** More client capabilities to declare, merged over those the handlers imply. */
  capabilities?: Record<string, unknown>;
  /**
   * Handle tasks (default `true`): declare the MCP tasks extension, so servers may answer with tasks,
   * and on MCP 2025-11-25 call a tool that requires a task as one (Tasks: tool-level negotiation).
   */
  tasks?: boolean;
  /** The MCP log level to ask for; log messages reach `onLog`. */
  logLevel?: string;
  /** The idle timeout of every request, in ms (default 60 000; 0 disables it). */
  timeoutMs?: number;
  /** The total timeout of every request, in ms (default none). */
  maxTimeoutMs?: number;
  /** The task poll interval when the server gives none, in ms (default 1 000). */
  pollIntervalMs?: number;
  /** The most input rounds one request may take (default 10). */
  maxInputRounds?: number;
  /** The backoff between redeems when the server gives no delay. */
  redeemBackoff?: Backoff;
  /** Receives warnings, e.g. a tool dropped for an invalid `x-mcp-header`. */
  onWarning?: (message: string) => void;
  /**
   * Retries of requests the server refused as unavailable (503 with `Retry-After`, -32603 with
   * `data.reason: "unavailable"`, gRPC `UNAVAILABLE`), after the wait it names: reads, `tasks/get`,
   * MCP-lite redeems, and calls refused before they ran; never a `tools/call` that may have run.
   * Default: 3 attempts, 10 s of waiting in all; `false` turns retries off.
   */
  retry?: RetryOptions | false;
  /**
   * Traces every request the client sends and carries the trace context to the server: `otelClient()`
   * from `@mcplite/sdk/otel` (OpenTelemetry, per the semantic conventions for MCP).
   */
  telemetry?: ClientTelemetry;
}

/** Options of an MCP list request. */
export interface ListOptions extends RequestOptions {
  /** Bypass the cache (tools only). */
  fresh?: boolean;
}

/** A call to run: the tool, its arguments and options, whether it streams, and the reply it resumes from. */
type RunArgs = [name: string, args: Record<string, unknown>, options: CallOptions, stream?: boolean, start?: Reply];

const DEFAULT_CLIENT_INFO: ClientInfo = { name: "@mcplite/sdk", version: SDK_VERSION };

/**
 * A client for one server, made by `createClient()`. Typed when created as `createClient<typeof server>(…)`;
 * untyped (any tool name, object arguments, `unknown` results) otherwise.
 *
 * @typeParam T The server's tools.
 */
export class Client<T = UntypedTools> {
  /** Typed shortcuts: `client.tools.add({ a: 1, b: 2 })` is `client.call("add", { a: 1, b: 2 })`. */
  readonly tools: ToolProxy<T>;
  readonly #transport: Transport;
  readonly #options: ClientOptions;
  readonly #capabilities: Record<string, unknown>;
  readonly #cache = new ToolCache();

  /**
   * The server's Agent Skills (SEP-2640): `list()`, `get(uri)`, and `load(entry)`, which verifies
   * `SKILL.md` against the entry and reads the other files only when asked, each verified.
   */
  readonly skills: SkillsApi;

  /**
   * Creates a client; use `createClient()` instead.
   *
   * @param transport The transport.
   * @param options The options.
   */
  constructor(transport: Transport, options: ClientOptions = {}) {
    this.skills = createSkillsApi({ request: (method, params) => this.request(method, params) });
    // Retries wrap the traced transport once: each attempt is traced as the request it is.
    const traced = options.telemetry === undefined ? transport : options.telemetry.instrument(transport);
    this.#transport = retryingTransport(traced, options.retry);
    this.#options = options;
    const capabilities: Record<string, unknown> = { ...capabilitiesOf(options), ...options.capabilities };
    if (options.tasks !== false) {
      const extensions = capabilities.extensions as Record<string, unknown> | undefined;
      capabilities.extensions = { ...extensions, [TASKS_EXTENSION]: {} };
    }
    this.#capabilities = capabilities;
    this.tools = new Proxy({}, {
      get: (_, name) =>
        typeof name === "string" && name !== "then"
          ? (args: Record<string, unknown>, options?: CallOptions) =>
            this.call(name as ToolName<T>, args as never, options)
          : undefined,
    }) as ToolProxy<T>;
  }

  /** The wire in use (`auto` until discovery has run). */
  get wire(): string {
    return this.#transport.wire;
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
   * Calls a tool; a failed tool resolves as its {@link ToolFailedError} instead of throwing.
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
  ): Promise<ToolOutput<T, N> | ToolFailedError>;
  /**
   * Calls a tool and resolves with its value: the structured result, else its text, else its content
   * blocks. Promises are redeemed, input rounds answered and tasks polled before it resolves.
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options A signal, timeouts, and progress, partial and log callbacks.
   * @returns The value.
   * @throws {ToolFailedError} When the tool failed.
   * @throws {ClientError} For protocol, transport and timeout errors.
   */
  call<N extends keyof T & string>(name: N, args: ToolInput<T, N>, options?: CallOptions): Promise<ToolOutput<T, N>>;
  async call<N extends keyof T & string>(name: N, args: ToolInput<T, N>, options: CallOptions = {}): Promise<unknown> {
    const outcome = await this.#run(name, (args ?? {}) as Record<string, unknown>, options);
    if (outcome.kind !== "complete") return outcome;
    if (options.wait === false) return { kind: "complete", tool: name, result: outcome.result };
    return this.#finish(name, outcome.result, options);
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
    return await this.#runToEnd(name, (args ?? {}) as Record<string, unknown>, options) as CallResult<ToolOutput<T, N>>;
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
      const result = await this.#runToEnd(name, (args ?? {}) as Record<string, unknown>, {
        ...options,
        signal,
        onPartial,
      }, true);
      return this.#finish(name, result, { failure: "throw" }) as ToolOutput<T, N>;
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
    const authKey = await this.#authKey();
    if (options.fresh !== true) {
      const cached = this.#cache.fresh(authKey, Date.now());
      if (cached !== undefined) return [...cached];
    }
    return await this.#timed(options, async (deadline) => {
      const etag = options.fresh === true ? undefined : this.#cache.etag(authKey);
      let listing = await this.#transport.listTools(this.#context(deadline, {}, etag));
      if (listing.notModified && this.#cache.etag(authKey) === undefined) {
        listing = await this.#transport.listTools(this.#context(deadline, {}, undefined));
      }
      return [...this.#cache.store(listing, authKey, Date.now())];
    });
  }

  /**
   * Finishes a call started with `{ wait: false }`: redeems the promise or polls the task.
   *
   * @param handle The handle.
   * @param options A signal, timeouts and `failure`.
   * @returns The value, as {@link Client.call} gives it.
   */
  async resume<TOutput>(handle: CallHandle<TOutput>, options: Omit<CallOptions, "wait"> = {}): Promise<TOutput> {
    if (handle.kind === "complete") return this.#finish(handle.tool, handle.result, options) as TOutput;
    const reply: Reply = handle.kind === "promise"
      ? {
        kind: "promise",
        token: handle.token,
        ...(handle.retryAfterMs === undefined ? {} : { retryAfterMs: handle.retryAfterMs }),
      }
      : {
        kind: "task",
        task: {
          taskId: handle.taskId,
          status: handle.status,
          ...(handle.pollIntervalMs ? { pollIntervalMs: handle.pollIntervalMs } : {}),
        },
      };
    const result = await this.#runToEnd(handle.tool, {}, options, false, reply);
    return this.#finish(handle.tool, result, options) as TOutput;
  }

  /**
   * Cancels a task started with `{ wait: false }` (`tasks/cancel`; cooperative).
   *
   * @param handle The handle.
   * @param options A signal and timeouts.
   * @returns `true` when a cancellation was sent (MCP-lite promises have none on the wire).
   */
  async cancel(handle: CallHandle<unknown>, options: RequestOptions = {}): Promise<boolean> {
    if (handle.kind !== "task") return false;
    await this.request("tasks/cancel", { taskId: handle.taskId }, options);
    return true;
  }

  /**
   * Lists the server's resources (MCP).
   *
   * @param options A signal and timeouts.
   * @returns The resources, every page.
   */
  listResources(options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    return this.#listAll("resources/list", "resources", options);
  }

  /**
   * Lists the server's resource templates (MCP).
   *
   * @param options A signal and timeouts.
   * @returns The templates, every page.
   */
  listResourceTemplates(options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    return this.#listAll("resources/templates/list", "resourceTemplates", options);
  }

  /**
   * Reads a resource (MCP), answering input rounds like a tool call.
   *
   * @param uri The URI.
   * @param options A signal and timeouts.
   * @returns The result (`contents`).
   */
  readResource(uri: string, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    return this.#settleRequest("resources/read", { uri }, options);
  }

  /**
   * Lists the server's prompts (MCP).
   *
   * @param options A signal and timeouts.
   * @returns The prompts, every page.
   */
  listPrompts(options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
    return this.#listAll("prompts/list", "prompts", options);
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
    return this.#settleRequest("prompts/get", { name, arguments: args }, options);
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
   * const client = createClient(createServer({ name: "math", version: "1.0.0" }), { wire: "mcp" });
   * const server = await client.discover();
   * assert.equal((server?.serverInfo as { name: string }).name, "math");
   * ```
   */
  async discover(options: RequestOptions = {}): Promise<Record<string, unknown> | null> {
    const transport = this.#transport;
    if (transport.discover === undefined) return null;
    return await this.#timed(options, async (deadline) => {
      try {
        return await transport.discover!(this.#context(deadline, {}));
      } catch (error) {
        if (error instanceof ClientError && error.code === ClientErrorCode.Unsupported) return null;
        throw error;
      }
    });
  }

  /**
   * Sends any request the transport supports (MCP), and returns its result as it is.
   *
   * @param method The JSON-RPC method.
   * @param params The params.
   * @param options A signal and timeouts.
   * @returns The result.
   */
  async request(
    method: string,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<Record<string, unknown>> {
    return await this.#timed(options, async (deadline) => {
      const reply = await this.#send(method, params, this.#context(deadline, {}));
      if (reply.kind !== "complete") throw new RpcError(`${method} answered ${reply.kind}`, { data: reply });
      return reply.result;
    });
  }

  /**
   * Closes the transport: ends an MCP 2025 session and its standalone stream (which, for a client with
   * input handlers, keeps the process alive until then). Other wires hold nothing.
   */
  async close(): Promise<void> {
    await this.#transport.close?.();
  }

  /** Runs a call to its complete result, whatever `wait` says. */
  async #runToEnd(...[name, args, options, stream, start]: RunArgs): Promise<CallResult> {
    const outcome = await this.#run(name, args, { ...options, wait: true }, stream, start);
    if (outcome.kind !== "complete") throw new RpcError(`The call ended as a ${outcome.kind}`, { data: outcome });
    return outcome.result;
  }

  /** Runs a call to a complete result (or, with `wait: false`, to a handle). */
  async #run(
    ...[name, args, options, stream = false, start]: RunArgs
  ): Promise<{ kind: "complete"; result: CallResult } | CallHandle<unknown>> {
    return await this.#timed(options, async (deadline) => {
      const ctx = this.#context(deadline, options, undefined, stream);
      const call: Send = (round) => this.#transport.callTool({ name, arguments: args, ...round }, ctx);
      const redeem = (token: string): Send => (round) =>
        this.#transport.callTool({ name: "redeem", arguments: { promise: token }, ...round }, ctx);
      const settled = await settle(start ?? call, this.#loopEnv(deadline, options.wait !== false, redeem));
      if (settled.kind === "complete") return { kind: "complete", result: callResultOf(settled.result) };
      if (options.wait === false) return handleOf(name, settled);
      if (settled.kind === "promise") throw new RpcError("A promise could not be redeemed", { data: settled });
      const result = await finishTask(settled.task, {
        deadline,
        handlers: this.#options,
        pollIntervalMs: this.#options.pollIntervalMs ?? 1000,
        request: (method, params) => this.#send(method, params, ctx),
        cancel: (taskId) => this.#cancelTask(taskId),
      });
      return { kind: "complete", result: callResultOf(result) };
    });
  }

  async #settleRequest(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): Promise<Record<string, unknown>> {
    return await this.#timed(options, async (deadline) => {
      const ctx = this.#context(deadline, {});
      const send: Send = (round) => this.#send(method, { ...params, ...round }, ctx);
      const settled = await settle(send, this.#loopEnv(deadline, true));
      if (settled.kind !== "complete") throw new RpcError(`${method} answered ${settled.kind}`, { data: settled });
      return settled.result;
    });
  }

  async #listAll(method: string, key: string, options: RequestOptions): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await this.request(method, cursor === undefined ? {} : { cursor }, options);
      const list = result[key];
      if (!Array.isArray(list)) throw new RpcError(`${method} returned no ${key} array`, { data: result });
      items.push(...list);
      cursor = typeof result.nextCursor === "string" && result.nextCursor !== "" ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return items;
  }

  #send(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    const transport = this.#transport;
    if (transport.request === undefined) {
      throw new ClientError(ClientErrorCode.Unsupported, `${method} is not available over ${transport.wire}`);
    }
    return transport.request(method, params, ctx);
  }

  async #cancelTask(taskId: string): Promise<void> {
    await this.request("tasks/cancel", { taskId }, { timeoutMs: 5000, maxTimeoutMs: 5000 });
  }

  #finish(name: string, result: CallResult, options: { failure?: "throw" | "value" }): unknown {
    const failure: ToolFailedError | undefined = toolFailureOf(name, result);
    if (failure === undefined) return resultValue(result);
    if (options.failure === "value") return failure;
    throw failure;
  }

  #loopEnv(deadline: Deadline, wait: boolean, redeem?: (token: string) => Send): LoopEnv {
    return {
      deadline,
      handlers: this.#options,
      maxRounds: this.#options.maxInputRounds ?? 10,
      wait,
      ...(redeem ? { redeem } : {}),
      backoff: this.#options.redeemBackoff ?? {},
    };
  }

  async #timed<R>(options: RequestOptions, work: (deadline: Deadline) => Promise<R>): Promise<R> {
    const deadline = new Deadline({
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.#options.timeoutMs ?? 60_000,
      maxTimeoutMs: options.maxTimeoutMs ?? this.#options.maxTimeoutMs,
    });
    try {
      const result = await work(deadline);
      // An in-process server may answer a cancelled request instead of failing it: the abort wins.
      if (deadline.signal.aborted) throw deadline.signal.reason;
      return result;
    } catch (error) {
      throw deadline.signal.aborted ? deadline.signal.reason : error;
    } finally {
      deadline.dispose();
    }
  }

  #context(
    deadline: Deadline,
    callbacks: { onProgress?: (p: Progress) => void; onPartial?: (p: unknown) => void; onLog?: (l: LogEntry) => void },
    etag?: string,
    stream = false,
  ): RequestContext {
    const options = this.#options;
    return {
      signal: deadline.signal,
      activity: () => deadline.touch(),
      capabilities: this.#capabilities,
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      stream: stream || callbacks.onPartial !== undefined,
      ...(callbacks.onProgress ? { onProgress: callbacks.onProgress } : {}),
      ...(callbacks.onPartial ? { onPartial: callbacks.onPartial } : {}),
      ...(callbacks.onLog ? { onLog: callbacks.onLog } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      answer: (request) => deadline.pause(answerInput(request, options, deadline.signal)),
      ...(etag === undefined ? {} : { etag }),
    };
  }

  async #authKey(): Promise<string | undefined> {
    const headers = this.#options.headers;
    return headers === undefined ? undefined : (await baseHeaders(headers)).get("authorization") ?? undefined;
  }
}

function handleOf(tool: string, settled: Settled): CallHandle<unknown> {
  switch (settled.kind) {
    case "promise": {
      const { kind: _, ...rest } = settled;
      return { kind: "promise", tool, ...rest };
    }
    case "task": {
      const { taskId, status, pollIntervalMs, ttlMs } = settled.task;
      return {
        kind: "task",
        tool,
        taskId,
        status,
        ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
        ...(ttlMs === undefined ? {} : { ttlMs }),
      };
    }
    default:
      return { kind: "complete", tool, result: callResultOf(settled.result) };
  }
}
