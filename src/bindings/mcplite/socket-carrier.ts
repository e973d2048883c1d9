/**
 * MCP-lite over stdio and WebSocket (MCP-lite spec v0.042 §8.2): every method of MCP-lite's table
 * (`methods.ts`), one JSON-RPC message per line or frame. A call with `params._meta.stream` also gets
 * `notifications/partial`, `/progress` and `/message` tied to it by `requestId` (§4.3), and follows deferred
 * work for up to `mcpLiteBinding({ holdMs })` (§5.3, server-pushed updates).
 * Why: docs/concepts/long-running.md#mcp-lite-over-stdio-and-websocket
 *
 * @module
 */
import type { AuthInfo, Registry, SignalSource } from "../../core/mod.ts";
import { registryOf, runRequest } from "../../core/mod.ts";
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
import { type LiteGet, type LiteList, liteMethod } from "./methods.ts";
import { liteCall, liteMessages } from "./dispatch.ts";
import { liteCallMeta } from "./lite-caller.ts";
import { errorCodeToWire } from "../../errors/mcplite-codes.ts";
import type { Host, ServerCore } from "../../server/mod.ts";

/** Where a connection's messages go (a line on stdout, a WebSocket frame): one whole JSON-RPC message a call. */
export interface LiteOut {
  /**
   * Sends one message.
   *
   * @param message The serialised JSON-RPC message.
   */
  send(message: string): void;
}

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

/** One socket connection's MCP-lite carrier: what `isLiteMessage()` chose, answered by the method table. */
export class LiteSocketCarrier {
  readonly #core: ServerCore;
  readonly #out: LiteOut;
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
   * @param out The connection's output.
   * @param track Enters a request in the connection's table of running requests (shared with its MCP requests).
   * @param host The caller and platform values of the connection.
   * @param holdMs How long a streamed call follows the deferred work it started (`mcpLiteBinding({ holdMs })`, else the server's).
   * @param piped Whether the connection is a pipe (stdio) rather than a TCP socket (a WebSocket).
   * @param headers The headers of the connection (a WebSocket's upgrade request), seen by every request.
   */
  constructor(
    core: ServerCore,
    out: LiteOut,
    track: (id: JsonRpcId) => TrackedRequest,
    host: Host,
    holdMs: number,
    piped = true,
    headers?: Headers,
  ) {
    this.#piped = piped;
    this.#headers = headers;
    this.#host = host;
    this.#holdMs = holdMs;
    this.#core = core;
    this.#out = out;
    this.#track = track;
    this.#report = (error) => registryOf(core).runtime.onError?.(error);
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
      const registry = registryOf(this.#core);
      const method = liteMethod(rpc.method);
      if (method?.kind === "list") {
        if (registry.runtime.middleware.length === 0) {
          return this.#out.send(listLine(method, registry, id, this.#host.auth));
        }
        const meta = liteCallMeta(new Headers(this.#headers), id, rpc.params, this.#piped);
        const listing = {
          method: rpc.method,
          params: rpc.params,
          meta,
          signal: new AbortController(),
          host: this.#host,
        };
        runRequest(registry, listing, (ctx) => listLine(method, registry, id, ctx.auth)).then(
          (line) => this.#out.send(line),
          (error) => {
            this.#fail(id, error);
          },
        );
        return;
      }
      if (method?.kind === "get") return this.#get(method, rpc, id);
      const running = this.#track(id);
      // Its own headers per request (a copy of the connection's): a handler may set some on ctx.meta.headers.
      const meta = liteCallMeta(new Headers(this.#headers), id, rpc.params, this.#piped);
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
      const messages = liteMessages(registry, call, stream ? this.#holdMs : 0, this.#core.options.version);
      // MCP 2025-11-25, Cancellation: no answer to a cancelled request.
      running.settles((async () => {
        try {
          for await (const message of messages) {
            if (running.cancelled) continue;
            if (message.kind === "result") this.#out.send(resultMessage(id, message.result));
            else if (stream && message.kind !== "held") {
              this.#out.send(notificationMessage(NOTIFICATION[message.kind], { requestId: id, ...message.params }));
            }
          }
        } catch (error) {
          if (!running.cancelled) this.#fail(id, error);
        }
      })());
    } catch (error) {
      this.#fail(id, error);
    }
  }

  /** `prompts/get`: one answer, none once cancelled. */
  #get(method: LiteGet, rpc: JsonRpcRequest, id: JsonRpcId): void {
    const running = this.#track(id);
    const meta = liteCallMeta(new Headers(this.#headers), id, rpc.params, this.#piped);
    const answering = method.answer(
      registryOf(this.#core),
      rpc,
      { meta, signal: running, host: this.#host },
      this.#core.options.version,
    );
    running.settles(answering.then(
      (result) => running.cancelled || this.#out.send(resultMessage(id, result)),
      (error) => running.cancelled || this.#fail(id, error),
    ));
  }

  #fail(id: JsonRpcId, error: unknown): void {
    this.#out.send(jsonRpcErrorMessage(id, error, errorCodeToWire, this.#report));
  }
}

/** The JSON-RPC notification of each message a streamed call sends while it runs. */
const NOTIFICATION = {
  partial: "notifications/partial",
  progress: "notifications/progress",
  log: "notifications/message",
} as const;

const decoder = /* @__PURE__ */ new TextDecoder();

/** A listing's answer: the same body the HTTP binding serves (for the caller), cached per change. */
function listLine(method: LiteList, registry: Registry, id: JsonRpcId, auth: AuthInfo | undefined): string {
  return serialisedResultMessage(id, method.text?.(registry, auth) ?? decoder.decode(method.bytes(registry, auth)));
}
