/**
 * Routes one JSON-RPC message of the MCP binding to its method, after the checks of its era. Carrier
 * neutral: the HTTP handler and any other carrier hand it the message and what the transport saw.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import type { StatusTable } from "../../errors/jsonrpc-codes.ts";
import { registryOf } from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import { idOf, type JsonRpcId, parseJsonRpcRequest } from "../jsonrpc.ts";
import {
  type Envelope,
  isModern,
  parseLegacyEnvelope,
  parseModernEnvelope,
  PROTOCOL_VERSION_HEADER,
} from "./envelope.ts";
import type { Carrier } from "./carrier.ts";
import { featureMethod } from "./feature-methods.ts";
import { checkStandardHeaders } from "./headers.ts";
import { cancelScope } from "./cancel-scope.ts";
import { discover, initialize, ping, setLevel } from "./lifecycle.ts";
import { subscriptionsListen } from "./subscriptions-listen.ts";
import { throughMiddleware } from "./request-middleware.ts";
import type { Channel, McpContext, McpMethod, McpRequest } from "./mcp-request.ts";
import { modernErrorToWire } from "../../errors/mcp-codes.ts";
import { tasksCancel, tasksGet, tasksUpdate } from "./tasks.ts";
import { toolsCall, toolsList } from "./tools.ts";
import { echoed } from "../../internal/echo.ts";

/**
 * Methods of the stateless 2026-07-28 revision that every server serves; resources, prompts,
 * completion and skills come with the definitions that need them (`feature.ts`). Removed ones
 * (`initialize`, `ping`, `tasks/result`, `tasks/list`…) are absent: 404.
 */
export const MODERN_METHODS: ReadonlyMap<string, McpMethod> = new Map([
  ["server/discover", discover],
  ["tools/list", toolsList],
  ["tools/call", toolsCall],
  ["subscriptions/listen", subscriptionsListen],
  ["tasks/get", tasksGet],
  ["tasks/update", tasksUpdate],
  ["tasks/cancel", tasksCancel],
]);

/** Methods of the 2025 revisions that every server serves; the rest come as on 2026-07-28. */
export const LEGACY_METHODS: ReadonlyMap<string, McpMethod> = new Map([
  ["initialize", initialize],
  ["ping", ping],
  ["logging/setLevel", setLevel],
  ["tools/list", toolsList],
  ["tools/call", toolsCall],
]);

/** Where an error about a message goes: its id and the era's status table, learnt as parsing goes. */
export interface ErrorTarget {
  /** The request id, once read. */
  id: JsonRpcId;
  /** The era's table. */
  table: StatusTable;
}

/** A routed request, with its method. */
export interface Routed {
  /** The request. */
  readonly request: McpRequest;
  /** Its method. */
  readonly method: McpMethod;
}

/**
 * Routes one JSON-RPC message: answers to server→client questions and notifications are consumed
 * here; requests are checked in the order the 2026-07-28 revision gives (envelope -32602, version
 * header -32020, version -32022, mirrored headers -32020, method -32601).
 *
 * @param ctx The binding.
 * @param message The parsed message.
 * @param carrier What carries it.
 * @param target Receives the id and the era's table as they become known; the channel of a notification
 *   an extension declared.
 * @returns The request and its method, or `undefined` when there is nothing to answer.
 * @throws {ProtocolError} For every protocol error, mapped through `target.table` by the caller.
 */
export function route(
  ctx: McpContext,
  message: unknown,
  carrier: Carrier,
  target: ErrorTarget & Channel,
): Routed | undefined {
  target.id = idOf(message);
  if (isAnswer(message)) {
    if (!ctx.pending.answer(message, carrier.session)) {
      throw new ProtocolError(
        "invalid_request",
        "Invalid Request: no question with this id is pending here",
      );
    }
    return undefined;
  }
  const rpc = parseJsonRpcRequest(message);
  const http = carrier.headers;
  const header = http?.get(PROTOCOL_VERSION_HEADER);
  const modern = isModern(rpc, header ?? null);
  let envelope: Envelope;
  // A session is a 2025 revision's (MCP 2025-11-25, Transports: Session Management); 2026-07-28 has none.
  let session: string | null = null;
  if (modern) {
    target.table = modernErrorToWire;
    envelope = parseModernEnvelope(rpc, header, ctx.core.options.protocolVersions);
    if (http !== undefined && rpc.id !== undefined) checkStandardHeaders(rpc, http);
  } else {
    session = carrier.session;
    envelope = parseLegacyEnvelope(rpc, header ?? null, ctx.sessions.get(session), ctx.core.options.protocolVersions);
  }
  const registry = registryOf(ctx.core);
  // Each request on a carrier without headers gets its own (a copy of its connection's, as a WebSocket's
  // upgrade request): a handler may set some on ctx.meta.headers.
  const request = {
    rpc,
    envelope,
    headers: http ?? new Headers(carrier.connectionHeaders),
    sse: carrier.streaming,
    session,
    piped: carrier.piped === true,
    host: carrier.host,
  };
  if (rpc.id === undefined) {
    if (rpc.method === "notifications/cancelled") {
      const scope = cancelScope(carrier, envelope.era, session);
      if (scope !== undefined) ctx.inFlight.cancel(scope, rpc.params);
    } else {
      // A notification an extension declared runs, unanswered (SEP-2133); others change nothing here.
      const notified = featureMethod(registry, rpc.method, modern);
      if (notified?.notification) notified(ctx, request, target);
    }
    return undefined;
  }
  const method = (modern ? MODERN_METHODS : LEGACY_METHODS).get(rpc.method) ??
    featureMethod(registry, rpc.method, modern);
  if (method === undefined) {
    throw new ProtocolError("method_not_found", `Method not found: ${echoed(rpc.method)}`);
  }
  return { request, method: throughMiddleware(registry, rpc.method, method) };
}

/** Tells whether a message is a JSON-RPC response (a client's answer to a server→client request). */
function isAnswer(message: unknown): message is Record<string, unknown> {
  return isObject(message) && !("method" in message) && ("result" in message || "error" in message);
}
