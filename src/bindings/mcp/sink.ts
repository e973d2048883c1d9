/**
 * What a handler reports while it runs (progress, logs, questions for the client), wired to the
 * request's channel according to its era. Tools, prompts and resource reads all use this one sink.
 *
 * @module
 */
import { type CallMeta, type CallSink, type InputRequest, LOG_LEVELS, type LogLevel } from "../../core/call-context.ts";
import type { Channel, McpContext, McpRequest } from "./request.ts";

/**
 * Describes the caller for the handler's `ctx.meta`.
 *
 * @param request The request.
 * @returns The call metadata.
 */
export function callMetaOf(request: McpRequest): CallMeta {
  const { envelope, http, rpc } = request;
  return {
    wire: "mcp",
    protocolVersion: envelope.protocolVersion,
    clientInfo: envelope.clientInfo,
    clientCapabilities: envelope.clientCapabilities,
    headers: http.headers,
    requestId: rpc.id,
  };
}

/**
 * Builds the sink of a running request. Progress needs the request's `progressToken`; logs go out at
 * the envelope's level or above (2026: only when the request set one); questions for the client go
 * out as server→client requests on the 2025 revisions. The 2026-07-28 revision never sends requests
 * on a stream: it asks through input-required results (SEP-2322), whose round (see
 * `input-required.ts`) wraps this sink. Either way the context asks only for capabilities the client
 * declared (-32021 otherwise).
 *
 * @param ctx The binding.
 * @param request The request.
 * @param channel Its channel.
 * @returns The sink, or `undefined` when nothing can reach the client.
 */
export function sinkFor(ctx: McpContext, request: McpRequest, channel: Channel): CallSink | undefined {
  if (!channel.streaming) return undefined;
  const { progressToken, logLevel, era, protocolVersion } = request.envelope;
  const threshold = logLevel === undefined ? Infinity : LOG_LEVELS.indexOf(logLevel);
  const sink: CallSink = {
    progress: progressToken === undefined ? undefined : (progress, total, message) => {
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      channel.notify("notifications/progress", params);
    },
    log: logLevel === undefined ? undefined : (level: LogLevel, data, logger) => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      channel.notify("notifications/message", logger === undefined ? { level, data } : { level, logger, data });
    },
  };
  if (era === "legacy") {
    sink.input = (_key, input) =>
      ctx.pending.ask(channel, request.session, input.method, paramsFor(input, protocolVersion));
  }
  return sink;
}

/** Form-mode elicitation before 2025-11-25 had no `mode` field. */
function paramsFor(input: InputRequest, protocolVersion: string): Record<string, unknown> {
  if (input.method !== "elicitation/create" || protocolVersion >= "2025-11-25" || input.params.mode !== "form") {
    return input.params;
  }
  const { mode: _mode, ...params } = input.params;
  return params;
}
