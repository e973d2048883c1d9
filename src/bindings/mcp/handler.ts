/**
 * The MCP binding over HTTP (MCP 2026-07-28, Streamable HTTP): one POST endpoint serving the stateless
 * 2026-07-28 revision natively and the 2025 revisions as a shim, chosen per request. A request goes:
 * body → the MCP dispatch (routing: era, envelope, mirrored headers, method; the method, with a channel
 * to the client) → JSON, 304 or SSE, by the HTTP carrier (`reply.ts`). A DELETE ends a 2025 session.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { registryOf } from "../../core/mod.ts";
import * as longRunning from "../../jobs/mod.ts";
import { DelayQueue } from "../../internal/delay-queue.ts";
import {
  acceptsEventStream,
  answerJson,
  type Binding,
  type Host,
  normalisePath,
  type Route,
  type ServerCore,
} from "../../server/mod.ts";
import { jsonRpcErrorResponse } from "../jsonrpc-error.ts";
import type { JsonRpcId } from "../jsonrpc.ts";
import { respondBatch } from "./batch.ts";
import { META, SESSION_HEADER } from "./envelope.ts";
import { type McpOptions, type McpSettings, resolveMcpSettings } from "./mcp-options.ts";
import { paramHeadersOf } from "./param-headers.ts";
import { PendingRequests } from "./pending.ts";
import { respondHttp } from "./reply.ts";
import type { respondThrough } from "./http-messages.ts";
import { messagesOf } from "../../message-middleware/message-feature.ts";
import type { McpContext } from "./mcp-request.ts";
import { SessionTable } from "./sessions.ts";
import type { StreamsSupport } from "./session-streams.ts";
import { legacyErrorToWire } from "../../errors/mcp-codes.ts";

const ALLOWED_METHODS = { allow: "POST, DELETE" };
/**
 * How soon a held call's answer becomes a stream, so its headers go out long before a proxy's
 * response-header timeout; a hold that ends sooner still answers plain JSON.
 */
const HELD_KEEP_ALIVE_MS = 1_000;
// The code as its literal (ErrorCode.MethodNotAllowed): a bundler keeps a call whose arguments read a property, so
// a server that imports this module but not the binding (the lite entry re-exports it) would bundle the error.
const NOT_ALLOWED = /* @__PURE__ */ new ProtocolError(
  "method_not_allowed",
  "Method not allowed: use POST (or DELETE, ending a session)",
);

/**
 * Creates the MCP binding, one of `createServer()`'s default bindings: the stateless 2026-07-28
 * revision, and the 2025 revisions (`initialize` and the rest) as a compatible shim, at one path.
 *
 * @param options The path, page size, caching hints, 2025 session limit, and how long a call waits for
 *   long-running work for a client without the tasks extension (`holdMs`).
 * @returns The binding, for `createServer({ bindings })`.
 * @throws {TypeError} When an option is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool, mcpBinding } from "../../../mod.ts";
 * const server = createServer({ name: "demo", version: "1.0.0", bindings: [mcpBinding({ path: "/api/mcp", pageSize: 50 })] })
 *   .tool(defineTool("ping").handle(() => "pong"));
 * const response = await server.fetch(new Request("http://localhost/api/mcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
 * }));
 * assert.equal((await response.json()).result.tools[0].name, "ping");
 * ```
 */
export function mcpBinding(options: McpOptions = {}): Binding {
  const path = normalisePath(options.path ?? "/mcp");
  const settings = resolveMcpSettings(options);
  return function mcp(core) {
    const registry = registryOf(core);
    longRunning.overrideHold(registry, "mcp", settings.holdMs); // MCP over stdio and WebSocket reads it too
    const ctx = createMcpContext(core, settings);
    // Before a message could be dispatched: the HTTP method, the body, or a refused batch.
    const failed = (error: unknown) =>
      jsonRpcErrorResponse(
        null,
        error,
        legacyErrorToWire,
        ctx.report,
        error === NOT_ALLOWED ? ALLOWED_METHODS : undefined,
      );
    // No promise where nothing is pending: a body already held (Bun) and a synchronous tool answer at once.
    const handle = (http: Request, host: Host) => {
      // A 2025 session ends with its client's DELETE, and a request with its id is then answered 404
      // (MCP 2025-11-25, Transports: Session Management); 2026-07-28 has no sessions.
      // Until a session ended here, a POST has nothing to check: no header read on the hot path.
      const { sessions } = ctx, other = http.method !== "DELETE";
      const ended = (!other || sessions.someEnded) && sessions.end(http.headers.get(SESSION_HEADER), other);
      if (ended) return new Response(null, { status: ended });
      return answerJson(http, core.options, NOT_ALLOWED, (body) => {
        // The message middleware served extensions installed (`.intercept()`), with their runner: one property read.
        const messages = messagesOf(registry);
        if (messages) return (messages.http as typeof respondThrough)(ctx, http, host, body, messages.chain);
        if (Array.isArray(body)) return respondBatch(ctx, http, host, body);
        return respondHttp(ctx, http, host, body, acceptsEventStream(http));
      }, failed);
    };
    const refuse = (error: ProtocolError, id: JsonRpcId = null) =>
      jsonRpcErrorResponse(id, error, legacyErrorToWire, ctx.report);
    const route: Route = { handle, refuse, methods: "POST, DELETE", jsonRpc: true, remote: "streamable-http" };
    return {
      // A 2025 session held here (`sessionStreams()`) serves the route: its GET stream, its calls' streams resumed.
      routes: new Map([[path, (options.sessionStreams as StreamsSupport | undefined)?.(ctx, route) ?? route]]),
      // x-mcp-header declarations fail when the tool is registered, not on its first call.
      checkTool: (tool) => void paramHeadersOf(tool),
    };
  };
}

/**
 * Creates the binding's state for a server.
 *
 * @param core The server's registry and options.
 * @param settings The MCP options, resolved.
 * @returns The binding's state.
 */
export function createMcpContext(core: ServerCore, settings: McpSettings): McpContext {
  const { name, version } = core.options;
  return {
    core,
    settings,
    serverInfo: Object.freeze({ [META.serverInfo]: Object.freeze({ name, version }) }),
    sessions: new SessionTable(settings.sessionLimit),
    pending: new PendingRequests(),
    inFlight: new longRunning.InFlight(),
    report: (error) => registryOf(core).runtime.onError?.(error),
    keepAlive: core.options.heartbeatMs > 0 ? new DelayQueue(core.options.heartbeatMs) : undefined,
    heldKeepAlive: core.options.heartbeatMs > 0
      ? new DelayQueue(Math.min(HELD_KEEP_ALIVE_MS, core.options.heartbeatMs))
      : undefined,
  };
}
