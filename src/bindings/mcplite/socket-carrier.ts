/**
 * MCP-lite over stdio (MCP-lite spec v0.042 §8.2 names stdio "for CLI tools and local integrations";
 * the README's "MCP-lite over stdio" section specifies it): the messages of `POST /mcp-lite/v1/calltools`
 * (§4.2), one per line. A request that sets `params._meta.stream` to `true` also receives, before its
 * response, notifications tied to it by `requestId`: `notifications/partial` (the SSE `message`
 * event's `{partial}`, §4.3), `notifications/progress` and `notifications/message` (the `progress` and
 * `log` events). Such a call that starts deferred work (`ctx.defer()`) follows it for up to `mcp.holdMs` (else the server's `holdMs`):
 * the job's progress, then its result, instead of a promise (§5.3, server-pushed updates).
 *
 * @module
 */
import type { AuthInfo, Registry } from "../core/mod.ts";
import { PUSH_MS, runRequest } from "../core/mod.ts";
import { isObject } from "../internal/is-object.ts";
import {
  type JsonRpcId,
  notificationMessage,
  parseJsonRpcRequest,
  resultMessage,
  serialisedResultMessage,
} from "../bindings/jsonrpc.ts";
import { jsonRpcErrorMessage } from "../bindings/jsonrpc-error.ts";
import type { InFlight, Scope } from "../bindings/mcp/in-flight.ts";
import { listBody } from "../bindings/mcplite/envelope.ts";
import { liteCall, liteMessages } from "../bindings/mcplite/dispatch.ts";
import { liteCallMeta } from "../bindings/mcplite/lite-caller.ts";
import { errorCodeToWire } from "../bindings/mcplite/status.ts";
import type { Host, ServerCore } from "../server/binding-contract.ts";
import type { MessageOut } from "./message-out.ts";

/**
 * Tells whether a message is MCP-lite rather than MCP: a `tools/list` or `tools/call` request
 * without MCP's per-request envelope, on a connection where no MCP session was opened.
 *
 * @param message The parsed message.
 * @returns Whether MCP-lite answers it.
 */
export function isLiteMessage(message: unknown): boolean {
  if (!isObject(message)) return false;
  const method = message.method;
  if (method !== "tools/call" && method !== "tools/list") return false;
  const meta = isObject(message.params) ? message.params._meta : undefined;
  return !(isObject(meta) && "io.modelcontextprotocol/protocolVersion" in meta);
}

/** One stdio connection's MCP-lite carrier. */
export class LiteOverStdio {
  readonly #core: ServerCore;
  readonly #out: MessageOut;
  readonly #inFlight: InFlight;
  readonly #scope: Scope;
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
   * @param inFlight The table of running requests.
   * @param scope The connection's scope in it (shared with its MCP requests).
   * @param host The caller and platform values of the connection.
   * @param holdMs How long a streamed call follows the deferred work it started (`mcp.holdMs`, else the server's).
   * @param piped Whether the connection is a pipe (stdio) rather than a TCP socket (a WebSocket).
   * @param headers The headers of the connection (a WebSocket's upgrade request), seen by every request.
   */
  constructor(
    core: ServerCore,
    out: MessageOut,
    inFlight: InFlight,
    scope: Scope,
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
    this.#out = out;
    this.#inFlight = inFlight;
    this.#scope = scope;
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
      const registry = this.#core.registry;
      if (rpc.method === "tools/list") {
        if (registry.runtime.middleware.length === 0) return this.#out.send(listLine(registry, id, this.#host.auth));
        const meta = liteCallMeta(new Headers(this.#headers), id, rpc.params, this.#piped);
        const listing = {
          method: rpc.method,
          params: rpc.params,
          meta,
          signal: new AbortController(),
          host: this.#host,
        };
        runRequest(registry, listing, (ctx) => listLine(registry, id, ctx.auth)).then(
          (line) => this.#out.send(line),
          (error) => {
            this.#fail(id, error);
          },
        );
        return;
      }
      const running = this.#inFlight.start(this.#scope, id);
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

/** The `tools/list` answer: the same list body the HTTP binding serves (the caller's tools), cached per change. */
function listLine(registry: Registry, id: JsonRpcId, auth: AuthInfo | undefined): string {
  return serialisedResultMessage(id, listBody(registry, auth));
}
