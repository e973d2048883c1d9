/**
 * `tools/list` and `tools/call` over MCP.
 *
 * @module
 */
import { CallContext, type CallMeta, type CallSink, LOG_LEVELS, type LogLevel } from "../../core/call-context.ts";
import { dispatch } from "../../core/dispatch.ts";
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import type { ToolCall } from "../../core/middleware.ts";
import type { Registry } from "../../core/registry.ts";
import { failureResult, type ToolResult } from "../../core/result.ts";
import { drainStream } from "../../core/stream.ts";
import { describeTool } from "../../tool/tool-def.ts";
import type { McpMethod, McpReply, McpRequest, Notify } from "./request.ts";

/**
 * Lists the tools. The array is built once per change of the tool table.
 *
 * @param core The server.
 * @returns The result.
 */
export const toolsList: McpMethod = (core) => {
  const tools = core.registry.memo("mcp:tools", () => [...core.registry.tools].map((t) => describeTool(t, false)));
  return { result: { tools, ttlMs: 0, cacheScope: "public" } };
};

/**
 * Calls a tool. Answers as SSE when the client accepts it and the call has something to say before
 * its result (progress, logs, partials); otherwise as one JSON response.
 *
 * @param core The server.
 * @param request The request.
 * @returns The reply.
 * @throws {ProtocolError} `invalid_params` for a malformed call, `unknown_tool` for an unknown tool.
 */
export const toolsCall: McpMethod = (core, request) => {
  const { name, arguments: args } = request.rpc.params;
  if (typeof name !== "string") throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
  }
  const { envelope, http } = request;
  const meta: CallMeta = {
    wire: "mcp",
    protocolVersion: envelope.protocolVersion,
    clientInfo: envelope.clientInfo,
    clientCapabilities: envelope.clientCapabilities,
    headers: http.headers,
    requestId: request.rpc.id,
  };
  const talks = envelope.progressToken !== undefined || envelope.logLevel !== undefined ||
    core.registry.get(name)?.mode === "stream";
  if (!request.sse || !talks) {
    return callTool(core.registry, { name, arguments: args ?? {}, ctx: new CallContext(name, http.signal, meta) })
      .then(asReply);
  }
  return {
    stream: (notify, signal) => {
      const ctx = new CallContext(name, signal, meta, sinkFor(request, notify));
      let count = 0;
      const onPartial = envelope.progressToken === undefined ? undefined : (partial: unknown) =>
        notify("notifications/progress", {
          progressToken: envelope.progressToken,
          progress: ++count,
          message: typeof partial === "string" ? partial : JSON.stringify(partial),
        });
      return callTool(core.registry, { name, arguments: args ?? {}, ctx }, onPartial) as unknown as Promise<
        Record<string, unknown>
      >;
    },
  };
};

function asReply(result: ToolResult): McpReply {
  return { result: result as unknown as Record<string, unknown> };
}

/**
 * Runs a call to its result. Invalid arguments become an `isError` result naming the paths, as MCP
 * wants, so the model can correct itself.
 */
async function callTool(registry: Registry, call: ToolCall, onPartial?: (partial: unknown) => void): Promise<ToolResult> {
  try {
    const outcome = await dispatch(registry, call);
    if (outcome.kind !== "stream") return outcome.result;
    return (await drainStream(registry, call, outcome, onPartial ?? ignore)).result;
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ErrorCode.InvalidArguments) return failureResult(error.message);
    throw error;
  }
}

function ignore(): void {}

function sinkFor(request: McpRequest, notify: Notify): CallSink {
  const { progressToken, logLevel } = request.envelope;
  const threshold = logLevel === undefined ? Infinity : LOG_LEVELS.indexOf(logLevel);
  return {
    progress: progressToken === undefined ? undefined : (progress, total, message) => {
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      notify("notifications/progress", params);
    },
    log: (level: LogLevel, data, logger) => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      notify("notifications/message", logger === undefined ? { level, data } : { level, logger, data });
    },
  };
}
