/**
 * What is known about the caller of a request: the wire it came in on, the client's self-description
 * and declared capabilities, the headers; and the principal signed state is bound to.
 *
 * @module
 */
import type { AuthInfo, Host } from "./host.ts";
import type { LogLevel } from "./call-sink.ts";

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
   * The least severe log level the caller takes (MCP: a request's `_meta` `io.modelcontextprotocol/logLevel`, else,
   * on the 2025 revisions, its session's `logging/setLevel`, else `debug`); absent where the caller asked for no
   * log messages (an MCP 2026-07-28 request without one) or the wire has no level.
   */
  readonly logLevel?: LogLevel;
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
 * import { callerOf } from "./call-meta.ts";
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

/** Something that holds a cancellation signal, such as a `Request`. */
export interface SignalSource {
  /** The signal. */
  readonly signal: AbortSignal;
}

/** A signal source whose signal, built on first use by the call's context, never aborts (a call with no caller's). */
export const NEVER_ABORTED: SignalSource = {
  get signal(): AbortSignal {
    return new AbortController().signal;
  },
};

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
