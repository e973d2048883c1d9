/**
 * MCP-lite over a socket (MCP-lite spec v0.042 §8.2: stdio "for CLI tools and local integrations", and
 * WebSocket; the README's "MCP-lite over stdio" section specifies it): the JSON-RPC messages of the HTTP
 * binding (§4.2), one per line or frame, every method of MCP-lite's table (`methods.ts`). A call that sets
 * `params._meta.stream` to `true` also receives, before its response, notifications tied to it by
 * `requestId`: `notifications/partial` (the SSE `message` event's `{partial}`, §4.3), `notifications/progress`
 * and `notifications/message` (the `progress` and `log` events). Such a call that starts deferred work
 * (`ctx.defer()`) follows it for up to `mcp.holdMs` (else the server's `holdMs`): the job's progress, then its
 * result, instead of a promise (§5.3, server-pushed updates).
 *
 * @module
 */
import type { AuthInfo, CallMeta, SignalSource } from "../../core/mod.ts";
import { PUSH_MS, runRequest } from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import {
  type JsonRpcId,
  type JsonRpcRequest,
  notificationMessage,
  parseJsonRpcRequest,
  resultMessage,
  serialisedResultMessage,
} from "../jsonrpc.ts";
import { jsonRpcErrorMessage } from "../jsonrpc-error.ts";
import type { Host, ServerCore } from "../../server/binding-contract.ts";
import { liteCall, liteMessages } from "./dispatch.ts";
import { liteCallMeta } from "./lite-caller.ts";
import { type LiteGet, type LiteList, liteMethod } from "./methods.ts";
import { errorCodeToWire } from "./status.ts";

/**
 * A request of the connection, in its table of running requests: a `notifications/cancelled` naming it,
 * or the connection's end, aborts its signal.
 */
export interface TrackedRequest extends SignalSource {
  /** Whether the client cancelled it (then nothing answers it: MCP 2025-11-25, Cancellation). */
  readonly cancelled: boolean;
  /**
   * Hands over the work that answers it; it leaves the table when that settles.
   *
   * @param work The work.
   */
  settles(work: Promise<unknown>): void;
  /** Takes it out of the table (it never started). */
  end(): void;
}

/** One socket's MCP-lite: what `isLiteMessage()` chose, answered by the method table. */
export class LiteSocketCarrier {
  readonly #core: ServerCore;
  readonly #send: (message: string) => void;
  readonly #track: (id: JsonRpcId) => TrackedRequest;
  readonly #report: (error: unknown) => void;
  readonly #host: Host;
  readonly #holdMs: number;
  readonly #headers: Headers | undefined;
  readonly #piped: boolean;

  /**
   * Creates the carrier of one connection.
   *
   * @param core The server's registry and options.
   * @param send Sends one message on the connection.
   * @param track Enters a request in the connection's table of running requests (shared with its MCP requests).
   * @param host The caller and platform values of the connection.
   * @param holdMs How long a streamed call follows the deferred work it started (`mcp.holdMs`, else the server's).
   * @param piped Whether the connection is a pipe (stdio) rather than a TCP socket (a WebSocket).
   * @param headers The headers of the connection (a WebSocket's upgrade request), seen by every request.
   */
  constructor(
    core: ServerCore,
    send: (message: string) => void,
    track: (id: JsonRpcId) => TrackedRequest,
    host: Host,
    holdMs: number = PUSH_MS,
    piped = true,
    headers?: Headers,
  ) {
    this.#piped = piped;
    this.#headers = headers;
    this.#host = host;
    this.#holdMs = holdMs;
    this.#core = core;
    this.#send = send;
    this.#track = track;
    this.#report = (error) => core.registry.runtime.onError?.(error);
  }

  /**
   * Handles one MCP-lite request and writes its answer.
   *
   * @param message The parsed message.
   */
  receive(message: unknown): void {
    let id: JsonRpcId = null;
    try {
      const rpc = parseJsonRpcRequest(message);
      id = rpc.id ?? null;
      const method = liteMethod(rpc.method);
      if (method?.kind === "list") return this.#list(method, rpc, id);
      if (method?.kind === "get") return this.#get(method, rpc, id);
      this.#call(rpc, id);
    } catch (error) {
      this.#fail(id, error);
    }
  }

  /** A listing, inside the request middleware (skipped where there is none: the list is sent at once). */
  #list(method: LiteList, rpc: JsonRpcRequest, id: JsonRpcId): void {
    const registry = this.#core.registry;
    const line = (auth: AuthInfo | undefined) =>
      serialisedResultMessage(id, method.text?.(registry, auth) ?? decoder.decode(method.bytes(registry, auth)));
    if (registry.runtime.middleware.length === 0) return this.#send(line(this.#host.auth));
    const listing = {
      method: rpc.method,
      params: rpc.params,
      meta: this.#meta(id, rpc),
      signal: new AbortController(),
      host: this.#host,
    };
    runRequest(registry, listing, (ctx) => line(ctx.auth)).then(
      (answer) => this.#send(answer),
      (error) => this.#fail(id, error),
    );
  }

  /** `prompts/get`: one answer, unless cancelled. */
  #get(method: LiteGet, rpc: JsonRpcRequest, id: JsonRpcId): void {
    const running = this.#track(id);
    const caller = { meta: this.#meta(id, rpc), signal: running, host: this.#host };
    running.settles(
      method.answer(this.#core.registry, rpc, caller, this.#core.options.version).then(
        (result) => running.cancelled || this.#send(resultMessage(id, result)),
        (error) => running.cancelled || this.#fail(id, error),
      ),
    );
  }

  /** `tools/call` (or a method MCP-lite does not serve, which `liteCall()` refuses). */
  #call(rpc: JsonRpcRequest, id: JsonRpcId): void {
    const running = this.#track(id);
    const meta = this.#meta(id, rpc);
    // A streamed call sends its partials, progress and logs, and follows the deferred work it started
    // (MCP-lite spec v0.042 §5.3, pushed updates); another sends its response only.
    const stream = isObject(rpc.params._meta) && rpc.params._meta.stream === true;
    let call;
    try {
      call = liteCall(rpc, meta, running, this.#host);
    } catch (error) {
      running.end();
      throw error;
    }
    const messages = liteMessages(this.#core.registry, call, stream ? this.#holdMs : 0, this.#core.options.version);
    // MCP 2025-11-25, Cancellation: no answer to a cancelled request.
    running.settles((async () => {
      try {
        for await (const message of messages) {
          if (running.cancelled) continue;
          if (message.kind === "result") this.#send(resultMessage(id, message.result));
          else if (stream && message.kind !== "held") {
            this.#send(notificationMessage(NOTIFICATION[message.kind], { requestId: id, ...message.params }));
          }
        }
      } catch (error) {
        if (!running.cancelled) this.#fail(id, error);
      }
    })());
  }

  /** The request's caller: its own headers (a copy of the connection's), which a handler may add to. */
  #meta(id: JsonRpcId, rpc: JsonRpcRequest): CallMeta {
    return liteCallMeta(new Headers(this.#headers), id, rpc.params, this.#piped);
  }

  #fail(id: JsonRpcId, error: unknown): void {
    this.#send(jsonRpcErrorMessage(id, error, errorCodeToWire, this.#report));
  }
}

const decoder = /* @__PURE__ */ new TextDecoder();

/** The JSON-RPC notification of each message a streamed call sends while it runs. */
const NOTIFICATION = {
  partial: "notifications/partial",
  progress: "notifications/progress",
  log: "notifications/message",
} as const;
