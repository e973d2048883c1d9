/**
 * The MCP binding: one POST endpoint serving the stateless 2026-07-28 revision natively and the 2025
 * revisions as a shim, chosen per request. A request goes: body → era → envelope (and, on 2026, the
 * mirrored headers) → method table → reply → JSON, 304 or SSE.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import { DelayQueue } from "../../internal/delay-queue.ts";
import { acceptsEventStream, readJson } from "../../server/read-json.ts";
import type { RouteHandler, Routes, ServerCore } from "../../server/server-core.ts";
import { jsonRpcErrorResponse } from "../jsonrpc-error.ts";
import { respondBatch } from "./batch.ts";
import { META } from "./envelope.ts";
import { InFlightCalls } from "./in-flight.ts";
import { PendingRequests } from "./pending.ts";
import { respond } from "./reply.ts";
import type { McpContext } from "./request.ts";
import { type ErrorTarget, route } from "./route.ts";
import { SessionTable } from "./sessions.ts";
import { legacyErrorToWire } from "./status.ts";

const POST_ONLY = { allow: "POST" };
const NOT_ALLOWED = new ProtocolError(
  ErrorCode.MethodNotAllowed,
  "Method not allowed: this endpoint is stateless and answers POST only (no GET stream, no session to DELETE)",
);

/**
 * Creates the binding's state for a server.
 *
 * @param core The server's registry and options.
 * @returns The binding's state.
 */
export function createMcpContext(core: ServerCore): McpContext {
  const { name, version } = core.options;
  return {
    core,
    settings: core.options.mcp,
    serverInfo: Object.freeze({ [META.serverInfo]: Object.freeze({ name, version }) }),
    sessions: new SessionTable(core.options.mcp.sessionLimit),
    pending: new PendingRequests(),
    inFlight: new InFlightCalls(),
    report: (error) => core.registry.onError?.(error),
    keepAlive: core.options.heartbeatMs > 0 ? new DelayQueue(core.options.heartbeatMs) : undefined,
  };
}

/**
 * Creates the MCP route of a server.
 *
 * @param core The server's registry and options.
 * @param path The endpoint path, e.g. `/mcp`.
 * @returns The routes.
 */
export function createMcpRoutes(core: ServerCore, path: string): Routes {
  const ctx = createMcpContext(core);
  const handleMcp: RouteHandler = async function handleMcp(http) {
    const target: ErrorTarget = { id: null, table: legacyErrorToWire };
    try {
      if (http.method !== "POST") throw NOT_ALLOWED;
      const body = await readJson(http, core.options);
      if (Array.isArray(body)) return await respondBatch(ctx, http, body);
      let routed = route(ctx, http, body, target, acceptsEventStream(http));
      if (routed instanceof Promise) routed = await routed;
      if (routed === undefined) return new Response(null, { status: 202 });
      return await respond(ctx, routed.request, routed.reply, target.table);
    } catch (error) {
      return jsonRpcErrorResponse(target.id, error, target.table, ctx.report, error === NOT_ALLOWED ? POST_ONLY : undefined);
    }
  };
  return new Map([[path, handleMcp]]);
}
