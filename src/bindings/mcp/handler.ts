/**
 * The MCP binding: one POST endpoint serving the stateless 2026-07-28 revision natively and the 2025
 * revisions statelessly, chosen per request. JSON or SSE per the client's `Accept`.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import { idOf, type JsonRpcId, parseJsonRpcRequest, resultMessage } from "../../internal/jsonrpc.ts";
import { createSseStream } from "../../internal/sse.ts";
import { acceptsEventStream, readJson } from "../../server/read-json.ts";
import { JSON_HEADERS, type RouteHandler, type Routes, type ServerCore, SSE_HEADERS } from "../../server/server-core.ts";
import { errorToWire, jsonRpcErrorResponse, type StatusTable } from "../jsonrpc-error.ts";
import {
  type Envelope,
  isModern,
  META,
  parseLegacyEnvelope,
  parseModernEnvelope,
  PROTOCOL_VERSION_HEADER,
} from "./envelope.ts";
import { discover, initialize, ping } from "./lifecycle.ts";
import type { McpMethod } from "./request.ts";
import { legacyErrorToWire, modernErrorToWire } from "./status.ts";
import { toolsCall, toolsList } from "./tools.ts";

/** Methods of the stateless 2026-07-28 revision. */
const MODERN_METHODS = new Map<string, McpMethod>([
  ["server/discover", discover],
  ["tools/list", toolsList],
  ["tools/call", toolsCall],
]);

/** Methods of the 2025 revisions, served without sessions. */
const LEGACY_METHODS = new Map<string, McpMethod>([
  ["initialize", initialize],
  ["ping", ping],
  ["tools/list", toolsList],
  ["tools/call", toolsCall],
]);

const POST_ONLY = { allow: "POST" };
const ACCEPTED = new Response(null, { status: 202 });

/**
 * Creates the MCP route of a server.
 *
 * @param core The server's registry and options.
 * @param path The endpoint path, e.g. `/mcp`.
 * @returns The routes.
 */
export function createMcpRoutes(core: ServerCore, path: string): Routes {
  const { registry, options } = core;
  const report = (error: unknown) => registry.onError?.(error);
  const { name, version } = options;
  const serverInfo = { [META.serverInfo]: { name, version } };

  const handleMcp: RouteHandler = async function handleMcp(request) {
    let id: JsonRpcId = null;
    let table: StatusTable = legacyErrorToWire;
    try {
      if (request.method !== "POST") {
        throw new ProtocolError(ErrorCode.MethodNotAllowed, "Method not allowed: this endpoint is stateless, use POST");
      }
      const body = await readJson(request, options);
      if (Array.isArray(body)) throw new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: batches are not supported");
      id = idOf(body);
      const rpc = parseJsonRpcRequest(body);
      const header = request.headers.get(PROTOCOL_VERSION_HEADER);
      const modern = isModern(rpc, header);
      if (modern) table = modernErrorToWire;
      const envelope = modern ? parseModernEnvelope(rpc, header) : parseLegacyEnvelope(rpc, header);
      if (rpc.id === undefined) return ACCEPTED.clone(); // notifications need no answer
      const method = (modern ? MODERN_METHODS : LEGACY_METHODS).get(rpc.method);
      if (method === undefined) throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${rpc.method}`);
      const reply = await method(core, { rpc, envelope, http: request, sse: acceptsEventStream(request) });
      if ("result" in reply) {
        return new Response(resultMessage(id, finish(reply.result, envelope)), { headers: JSON_HEADERS });
      }
      return streamReply(reply.stream, request, id, envelope, table);
    } catch (error) {
      return jsonRpcErrorResponse(id, error, table, report, isNotAllowed(error) ? POST_ONLY : undefined);
    }
  };

  /** Adds what every 2026-07-28 result carries: `resultType` and the server's identity. */
  function finish(result: Record<string, unknown>, envelope: Envelope): Record<string, unknown> {
    if (envelope.era !== "modern") return result;
    const meta = result._meta as Record<string, unknown> | undefined;
    return { ...result, resultType: "complete", _meta: meta === undefined ? serverInfo : { ...meta, ...serverInfo } };
  }

  function streamReply(
    run: (notify: (method: string, params: Record<string, unknown>) => void, signal: AbortSignal) => Promise<
      Record<string, unknown>
    >,
    request: Request,
    id: JsonRpcId,
    envelope: Envelope,
    table: StatusTable,
  ): Response {
    const cancel = new AbortController();
    const signal = AbortSignal.any([request.signal, cancel.signal]);
    const body = createSseStream(async (writer) => {
      const notify = (method: string, params: Record<string, unknown>) =>
        writer.event(JSON.stringify({ jsonrpc: "2.0", method, params }));
      try {
        writer.event(resultMessage(id, finish(await run(notify, signal), envelope)));
      } catch (error) {
        const wire = errorToWire(error, table, report);
        writer.event(JSON.stringify({
          jsonrpc: "2.0",
          id,
          error: wire.data === undefined
            ? { code: wire.code, message: wire.message }
            : { code: wire.code, message: wire.message, data: wire.data },
        }));
      }
    }, {
      heartbeatMs: options.heartbeatMs,
      onCancel: () => cancel.abort(new Error("the client closed the stream")),
    });
    return new Response(body, { headers: SSE_HEADERS });
  }

  return new Map([[path, handleMcp]]);
}

function isNotAllowed(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ErrorCode.MethodNotAllowed;
}
