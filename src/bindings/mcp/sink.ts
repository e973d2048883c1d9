/**
 * What a handler reports while it runs (progress, logs, questions for the client), wired to the
 * request's channel according to its era. Tools, prompts and resource reads all use this one sink.
 *
 * @module
 */
import { appMimeTypesOf } from "../../internal/mcp-apps-wire.ts";
import { type CallMeta, type CallSink, type InputRequest, LOG_LEVELS, type runHandler } from "../../core/mod.ts";
import type { Channel, McpContext, McpRequest } from "./mcp-request.ts";
import { roundOf } from "./input-required.ts";
import { PARTIAL_NOTIFICATION } from "../../internal/mcp-wire.ts";
import { isObject } from "../../internal/is-object.ts";

type HandlerRequest = Parameters<typeof runHandler>[1];
type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Describes the caller for the handler's `ctx.meta`.
 *
 * @param request The request.
 * @returns The call metadata.
 */
export function callMetaOf(request: McpRequest): CallMeta {
  const { envelope, headers, rpc, session } = request;
  const meta: { -readonly [K in keyof CallMeta]: CallMeta[K] } = {
    wire: "mcp",
    protocolVersion: envelope.protocolVersion,
    clientInfo: envelope.clientInfo,
    clientCapabilities: envelope.clientCapabilities,
    appMimeTypes: appMimeTypesOf(envelope.clientCapabilities),
    headers,
    requestId: rpc.id,
  };
  const sent = rpc.params._meta;
  if (envelope.logLevel !== undefined) meta.logLevel = envelope.logLevel;
  if (isObject(sent)) meta.requestMeta = sent;
  if (session !== null) meta.sessionId = session;
  if (request.piped) meta.transport = "pipe";
  return meta;
}

/** The sink of one MCP request, with the partials of a streaming tool. */
export interface McpSink extends CallSink {
  /**
   * Sends a streaming tool's partial as a `notifications/partial` when the request asked for partials,
   * and drops it otherwise (the final result holds it). It never touches the progress counter.
   *
   * @param partial What the tool yielded.
   */
  partial(partial: unknown): void;
}

/**
 * Builds the sink of a running request. Progress needs the request's `progressToken`, and goes out
 * on one counter per request that only ever increases (MCP 2025-11-25, Progress: "the progress value
 * MUST increase with each notification"): a value not above the last one sent is dropped. That counter,
 * its totals and messages are the author's alone: MCP has no partial results, so a streaming tool's
 * partials go out as `notifications/partial` only to a request that asked for them
 * (`_meta["io.mcplite/partials"]`, which our client sets), tied to it by its progress token. Logs go out at the envelope's level or above (2026:
 * only when the request set one). Questions for the client go out as server→client requests on the
 * 2025 revisions; the 2026-07-28 revision never sends requests on a stream: it asks through
 * input-required results (SEP-2322), whose round wraps this sink. Either way the context asks only
 * for capabilities the client declared (-32021 otherwise).
 *
 * @param ctx The binding.
 * @param request The request.
 * @param channel Its channel.
 * @returns The sink, or `undefined` when nothing can reach the client.
 */
export function sinkFor(ctx: McpContext, request: McpRequest, channel: Channel): McpSink | undefined {
  if (!channel.streaming) return undefined;
  const { progressToken, logLevel, era, protocolVersion, partials } = request.envelope;
  if (progressToken === undefined && logLevel === undefined && era === "modern") return undefined; // nothing to send
  const threshold = logLevel === undefined ? Infinity : LOG_LEVELS.indexOf(logLevel);
  let last = -Infinity;
  const progress = (value: number, total: number | undefined, message: string | undefined) => {
    if (progressToken === undefined || !(value > last)) return;
    last = value;
    // serialised: JSON leaves out an undefined `total` or `message`
    channel.notify("notifications/progress", { progressToken, progress: value, total, message });
  };
  const sink: McpSink = {
    progress,
    partial: (partial) => {
      if (partials && progressToken !== undefined) channel.notify(PARTIAL_NOTIFICATION, { progressToken, partial });
    },
    log: logLevel === undefined ? undefined : (level: LogLevel, data, logger) => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      channel.notify("notifications/message", logger === undefined ? { level, data } : { level, logger, data });
    },
  };
  if (era === "legacy") {
    sink.input = (_key, input) =>
      ctx.pending.ask(channel, request.session, input.method, paramsFor(input, protocolVersion));
    // MCP 2025-11-25, Elicitation: URL mode's completion, on the stream of the call that asked.
    if (protocolVersion >= "2025-11-25") {
      sink.completeElicitation = (elicitationId) =>
        channel.notify("notifications/elicitation/complete", { elicitationId });
    }
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

/**
 * What a handler run by the pipeline (`resources/read`, `prompts/get`) needs of an MCP request besides
 * its own name and arguments: the caller, the signal, the sink and the input round.
 *
 * @param ctx The binding.
 * @param request The request.
 * @param channel The channel to the client.
 * @returns The shared fields of a `HandlerRequest`.
 */
export function handlerCallerOf(
  ctx: McpContext,
  request: McpRequest,
  channel: Channel,
): Pick<HandlerRequest, "params" | "meta" | "signal" | "sink" | "round" | "host"> {
  return {
    params: request.rpc.params,
    meta: callMetaOf(request),
    signal: channel,
    sink: sinkFor(ctx, request, channel),
    round: roundOf(request),
    host: request.host,
  };
}
