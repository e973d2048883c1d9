/**
 * What a client does under every public method: it sends requests over its transport under a deadline
 * (the idle and total timeouts), builds each request's context, and runs calls to their end (promises
 * redeemed, input rounds answered, tasks polled). `Client` is the public face of it.
 *
 * @module
 */
import { inheritTally } from "./response-bound.ts";
import type { ToolError } from "../errors/error.ts";
import { type LoopEnv, type Send, settle, type Settled } from "./call-loop.ts";
import type { ClientOptions } from "./client-options.ts";
import { Deadline } from "./deadline.ts";
import { clientError, failureCodeOf, rpcError } from "./errors.ts";
import { baseHeaders } from "./http.ts";
import { ListCursor } from "./list-cursor.ts";
import { capabilitiesOf } from "./client-capabilities.ts";
import type { InputHandlers } from "./input.ts";
import { type CallResult, callResultOf, completeResult, resultValue, toolFailureOf } from "./read-result.ts";
import { retryingTransport } from "./retry.ts";
import type { ClientInfo, LogEntry, Progress, Reply, RequestContext, ToolListing, Transport } from "./transport.ts";
import { TASKS_EXTENSION } from "./transports/mcp-client-wire.ts";
import { SDK_VERSION } from "../internal/version.ts";
import type { CallHandle, CallOptions, RequestOptions } from "./client-types.ts";

/** A call to run: the tool, its arguments and options, whether it streams, and the reply it resumes from. */
export type RunArgs = [
  name: string,
  args: Record<string, unknown>,
  options: CallOptions,
  stream?: boolean,
  start?: Reply,
];

/** The callbacks one request reports to. */
type Callbacks = {
  onProgress?: (p: Progress) => void;
  onPartial?: (p: unknown) => void;
  onLog?: (l: LogEntry) => void;
  logLevel?: string;
  traceContext?: Readonly<Record<string, string>>;
  onElicit?: InputHandlers["onElicit"];
  onSample?: InputHandlers["onSample"];
  onRoots?: InputHandlers["onRoots"];
  capabilities?: Record<string, unknown>;
};

/** The client's input handlers, with a call's own in place of them where it has some. */
function handlersOf(client: InputHandlers, call: Callbacks): InputHandlers {
  const { onElicit = client.onElicit, onSample = client.onSample, onRoots = client.onRoots } = call;
  return { ...client, onElicit, onSample, onRoots };
}

const DEFAULT_CLIENT_INFO: ClientInfo = { name: "@mcplite/sdk", version: SDK_VERSION };

/** Runs a client's requests and calls over its transport. */
export class CallRunner {
  /** The transport, traced and retrying as the options say. */
  readonly transport: Transport;
  readonly #options: ClientOptions;
  readonly #capabilities: Record<string, unknown>;
  readonly #onListing: ((listing: ToolListing) => void) | undefined;
  readonly #onNotification: NonNullable<RequestContext["onNotification"]>;

  /**
   * @param transport The transport.
   * @param options The client's options.
   * @param onListing Keeps a tool list the transport read on its own (see `RequestContext.onListing`).
   * @param heard The handlers of the other notifications heard on a request's stream, by method
   *   (`RequestContext.onNotification`).
   */
  constructor(
    transport: Transport,
    options: ClientOptions,
    onListing?: (listing: ToolListing) => void,
    heard?: ReadonlyMap<string, Set<(params: Record<string, unknown>) => void>>,
  ) {
    this.#onListing = onListing;
    this.#onNotification = (method, params) => heard?.get(method)?.forEach((handler) => handler(params));
    // Retries wrap the traced transport once: each attempt is traced as the request it is.
    const traced = options.telemetry === undefined ? transport : options.telemetry.instrument(transport);
    this.transport = retryingTransport(traced, options.retry);
    this.#options = options;
    const capabilities: Record<string, unknown> = { ...capabilitiesOf(options), ...options.capabilities };
    // SEP-2133: `{}` declares none; the legacy handshake leaves it out then.
    capabilities.extensions = {
      ...capabilities.extensions as Record<string, unknown> | undefined,
      ...options.extensions,
      ...(options.tasks !== false && { [TASKS_EXTENSION]: {} }),
    };
    this.#capabilities = capabilities;
  }

  /** Runs a call to its complete result, whatever `wait` says. */
  async runToEnd(...[name, args, options, stream, start]: RunArgs): Promise<CallResult> {
    const outcome = await this.run(name, args, { ...options, wait: true }, stream, start);
    if (outcome.kind !== "complete") throw rpcError(`The call ended as a ${outcome.kind}`, { data: outcome });
    return outcome.result;
  }

  /** Runs a call to a complete result (or, with `wait: false`, to a handle). */
  async run(
    ...[name, args, options, stream = false, start]: RunArgs
  ): Promise<{ kind: "complete"; result: CallResult } | CallHandle<unknown>> {
    return await this.timed(options, async (deadline) => {
      const ctx = this.context(deadline, options, undefined, stream);
      const call: Send = (round) => this.transport.callTool({ name, arguments: args, ...round }, ctx);
      const redeem = (token: string): Send => (round) =>
        this.transport.callTool({ name: "redeem", arguments: { promise: token }, ...round }, ctx);
      const handlers = handlersOf(this.#options, options);
      const settled = await settle(start ?? call, this.#loopEnv(deadline, options.wait !== false, redeem, handlers));
      if (settled.kind === "complete") return { kind: "complete", result: callResultOf(settled.result) };
      if (options.wait === false) return handleOf(name, settled);
      if (settled.kind === "promise") throw rpcError("A promise could not be redeemed", { data: settled });
      // A task's polling loads with the first call that became one.
      const { finishTask } = await import("./loaded-on-demand.ts");
      const result = await finishTask(settled.task, {
        deadline,
        handlers,
        pollIntervalMs: this.#options.pollIntervalMs ?? 1000,
        request: (method, params) => this.#send(method, params, ctx),
        cancel: (taskId) => this.#cancelTask(taskId),
      });
      return { kind: "complete", result: callResultOf(result) };
    });
  }

  /**
   * Sends a request and returns its complete result: as the server answers it, or, with `rounds:
   * "answer"`, after answering its input rounds (`resources/read`, `prompts/get`); with `notify`, a
   * notification instead, resolving with nothing.
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    rounds: "answer" | "none" | "notify" = "none",
  ): Promise<Record<string, unknown>> {
    return await this.timed(options, async (deadline) => {
      const ctx = this.context(deadline, { traceContext: options.traceContext });
      if (rounds === "notify") (ctx as { notification?: true }).notification = true;
      const own = options.onNotification;
      if (own) {
        (ctx as { onNotification?: RequestContext["onNotification"] }).onNotification = (method, heard) => {
          this.#onNotification(method, heard);
          own(method, heard);
        };
        (ctx as { hearsNotifications?: true }).hearsNotifications = true;
      }
      const send: Send = (round) => this.#send(method, { ...params, ...round }, ctx);
      return completeResult(
        method,
        await (rounds === "answer" ? settle(send, this.#loopEnv(deadline, true)) : send({})),
      );
    });
  }

  /** Sends a list request, page after page (at most 100), and returns every item. */
  async listAll(method: string, key: string, options: RequestOptions): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    const walk = new ListCursor(method);
    let cursor: string | undefined;
    do {
      const result = await this.request(method, cursor === undefined ? {} : { cursor }, options);
      const list = result[key];
      if (!Array.isArray(list)) throw rpcError(`${method} returned no ${key} array`, { data: result });
      items.push(...list);
      cursor = walk.next(result);
    } while (cursor !== undefined);
    return items;
  }

  /** Runs work under a deadline made from the request's and the client's timeouts; the abort wins. */
  async timed<R>(options: RequestOptions, work: (deadline: Deadline) => Promise<R>): Promise<R> {
    const deadline = new Deadline({
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.#options.timeoutMs ?? 60_000,
      maxTimeoutMs: options.maxTimeoutMs ?? this.#options.maxTimeoutMs,
    });
    inheritTally(options.signal, deadline.signal); // the caller's count of the answers' bytes, if any
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

  /** The context of one request: its signal, the client's capabilities and handlers, its callbacks. */
  context(deadline: Deadline, callbacks: Callbacks, etag?: string, stream = false): RequestContext {
    const options = this.#options;
    const logLevel = callbacks.logLevel ?? options.logLevel;
    return {
      signal: deadline.signal,
      activity: () => deadline.touch(),
      capabilities: this.#capabilities,
      ...(callbacks.capabilities === undefined ? {} : { callCapabilities: callbacks.capabilities }),
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      ...(logLevel === undefined ? {} : { logLevel }),
      stream: stream || callbacks.onPartial !== undefined,
      ...(callbacks.onProgress ? { onProgress: callbacks.onProgress } : {}),
      ...(callbacks.onPartial ? { onPartial: callbacks.onPartial } : {}),
      ...(callbacks.onLog ? { onLog: callbacks.onLog } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      ...(callbacks.traceContext ? { traceContext: callbacks.traceContext } : {}),
      answer: (request) =>
        deadline.pause(
          import("./loaded-on-demand.ts").then((m) =>
            m.answerInput(request, handlersOf(options, callbacks), deadline.signal)
          ),
        ),
      ...(options.onElicitationComplete ? { onElicitationComplete: options.onElicitationComplete } : {}),
      ...(etag === undefined ? {} : { etag }),
      ...(this.#onListing ? { onListing: this.#onListing } : {}),
      onNotification: this.#onNotification,
    };
  }

  /** The `authorization` header the requests carry, the key of the tool cache. */
  async authKey(): Promise<string | undefined> {
    const headers = this.#options.headers;
    return headers === undefined ? undefined : (await baseHeaders(headers)).get("authorization") ?? undefined;
  }

  #send(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    const transport = this.transport;
    if (transport.request === undefined) {
      throw clientError("unsupported", `${method} is not available over ${transport.wire}`);
    }
    return transport.request(method, params, ctx);
  }

  async #cancelTask(taskId: string): Promise<void> {
    await this.request("tasks/cancel", { taskId }, { timeoutMs: 5000, maxTimeoutMs: 5000 });
  }

  #loopEnv(
    deadline: Deadline,
    wait: boolean,
    redeem?: (token: string) => Send,
    handlers: InputHandlers = this.#options,
  ): LoopEnv {
    return {
      deadline,
      handlers,
      maxRounds: this.#options.maxInputRounds ?? 10,
      wait,
      ...(redeem ? { redeem } : {}),
      backoff: this.#options.redeemBackoff ?? {},
    };
  }
}

/** A call's value: the result's value, or its failure thrown (or, with `failure: "value"`, returned). */
export function finish(name: string, result: CallResult, options: { failure?: "throw" | "value" }): unknown {
  const failure: ToolError | undefined = toolFailureOf(name, result);
  if (failure === undefined) return resultValue(result);
  throwRefusal(failure);
  if (options.failure === "value") return failure;
  throw failure;
}

/**
 * Throws a failed result that answers a refusal (bad arguments) as the error every other wire answers it with. MCP sends them
 * to the model as an `isError` result (MCP 2025-11-25, Tools: error handling), which a server of ours marks
 * with the code (`_meta["io.mcplite/errorCode"]`); MCP-lite (-32602), gRPC (`INVALID_ARGUMENT`) and Webtools
 * (`SCHEMA_ERROR`) answer an error. So `call()` throws a `ProtocolError` with code `invalid_arguments` on every
 * wire, `failure: "value"` or not (it returns failures of the tool, not of the call), the result kept as its
 * `cause`; so with any other refusal a server of ours marks a result with.
 *
 * @param failure The failed result, as a {@link ToolError}.
 * @throws {ProtocolError} When the server named the failure a refusal (`invalid_arguments`).
 */
export function throwRefusal(failure: ToolError | undefined): void {
  if (failure?.result === undefined) return;
  const code = failureCodeOf(failure.result);
  if (code === "tool_error") return;
  throw rpcError(failure.message, { data: { code, tool: failure.tool }, cause: failure }, code);
}

function handleOf(tool: string, settled: Settled): CallHandle<unknown> {
  switch (settled.kind) {
    case "promise": {
      const { kind: _, ...rest } = settled;
      return { kind: "promise", tool, ...rest };
    }
    case "task": { // MCP's form of a promise (MCP 2025-11-25, Tasks): one handle, whichever wire
      const { taskId, status, pollIntervalMs } = settled.task;
      return {
        kind: "promise",
        tool,
        token: taskId,
        status,
        ...(pollIntervalMs === undefined ? {} : { retryAfterMs: pollIntervalMs }),
      };
    }
    default:
      return { kind: "complete", tool, result: callResultOf(settled.result) };
  }
}
