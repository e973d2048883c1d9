/**
 * A remote tool as a tool of ours: listed with the remote's own JSON Schemas, verbatim (as the OpenAPI
 * import defines tools from JSON Schema), and called through the client, with the caller's signal,
 * progress and log messages carried across the second hop.
 *
 * @module
 */
import type { LogLevel } from "../core/call-sink.ts";
import { ErrorCode, ProtocolError } from "../core/error.ts";
import { toolResult } from "../core/result.ts";
import type { AnyTool } from "../core/tool.ts";
import type { ToolInfo } from "../client/transport.ts";
import { defineTool } from "../tool/define-tool.ts";
import { callerTrace } from "./caller-trace.ts";
import type { HopOptions } from "./hop-options.ts";
import type { Remote } from "./remote.ts";
import { remoteError } from "./remote-error.ts";

/**
 * Defines the tool that forwards calls of one remote tool.
 *
 * @param info The tool as the remote lists it.
 * @param remote The remote.
 * @param hop How the second hop goes.
 * @returns The tool.
 * @throws {TypeError} When the remote's name or schema is not one a tool of ours can have.
 */
export function proxiedTool(info: ToolInfo, remote: Remote, hop: HopOptions): AnyTool {
  let builder = defineTool(info.name).input(info.inputSchema);
  if (info.description !== undefined) builder = builder.describe(info.description);
  if (info.title !== undefined) builder = builder.title(info.title);
  if (info["@type"] !== undefined) builder = builder.type(info["@type"]);
  if (info.annotations !== undefined) builder = builder.annotations(info.annotations);
  if (info._meta !== undefined) builder = builder.meta(info._meta);
  const output = info.outputSchema === undefined ? builder : builder.output(info.outputSchema);
  return output.handle(async (args, ctx) => {
    try {
      const trace = callerTrace(ctx);
      const result = await remote.client.callTool(info.name, args, {
        signal: ctx.signal,
        ...(trace === undefined ? {} : { traceContext: trace }),
        onProgress: (p) => ctx.progress(p.progress, p.total, p.message),
        onLog: (entry) => ctx.log(entry.level as LogLevel, entry.data, entry.logger),
      });
      return toolResult({
        content: result.content ?? [],
        ...(result.structuredContent === undefined
          ? {}
          : { structuredContent: result.structuredContent as Record<string, unknown> }),
        ...(result.isError === true ? { isError: true } : {}),
      });
    } catch (error) {
      remote.failed(error);
      const answered = remoteError(error, hop.retryAfterMs);
      if (answered instanceof ProtocolError && answered.code === ErrorCode.UnknownTool) hop.stale();
      throw answered;
    }
  });
}
