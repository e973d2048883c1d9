/**
 * A remote tool as a tool of ours: listed with the remote's own JSON Schemas, verbatim (as the OpenAPI
 * import defines tools from JSON Schema), and called through the client, with the caller's signal,
 * progress and log messages carried across the second hop.
 *
 * @module
 */
import type { LogLevel } from "../core/call/call-sink.ts";
import { ProtocolError, ToolError } from "../errors/error.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import type { LogEntry, Progress, ToolInfo } from "../client/transport.ts";
import { defineTool } from "../tool/define-tool.ts";
import { type AnswerBudget, answerBudget } from "./answer-budget.ts";
import { askCaller } from "./ask-caller.ts";
import { forwardOptions } from "./forward-read.ts";
import type { HopOptions } from "./hop-options.ts";
import type { Remote } from "./remote.ts";
import { remoteError } from "./remote-error.ts";
import { servableIcons } from "./remote-icons.ts";
import { answerOf, cancelRemote, pollRemote, type RemoteHandle, resultOf } from "./remote-handle.ts";

/**
 * Defines the tool that forwards calls of one remote tool.
 *
 * @param info The tool as the remote lists it.
 * @param remote The remote.
 * @param hop How the second hop goes.
 * @param longRunning Whether the remote may answer it with a promise or a task, which becomes ours.
 * @returns The tool.
 * @throws {TypeError} When the remote's name or schema is not one a tool of ours can have.
 */
export function proxiedTool(info: ToolInfo, remote: Remote, hop: HopOptions, longRunning: boolean): AnyTool {
  let builder = defineTool(info.name).input(info.inputSchema);
  if (info.description !== undefined) builder = builder.describe(info.description);
  if (info.title !== undefined) builder = builder.title(info.title);
  if (info["@type"] !== undefined) builder = builder.type(info["@type"]);
  if (info.annotations !== undefined) builder = builder.annotations(info.annotations);
  if (info._meta !== undefined) builder = builder.meta(info._meta);
  const icons = servableIcons(info.icons);
  if (icons !== undefined) builder = builder.icons(icons);
  const output = info.outputSchema === undefined ? builder : builder.output(info.outputSchema);
  const failed = (error: unknown, budget?: AnswerBudget): never => {
    const answered = budget?.answerFor(error);
    // Refused for the budgets: the remote is well. A line past the bound ended a stdio child: start another.
    if (answered !== undefined && !(answered instanceof ToolError)) throw answered;
    remote.failed(error);
    if (answered !== undefined) throw answered;
    const mapped = remoteError(error, hop.retryAfterMs, hop.name);
    if (mapped instanceof ProtocolError && mapped.code === "unknown_tool") hop.stale();
    throw mapped;
  };
  const tool = output.handle(async (args, ctx) => {
    const budget = answerBudget(ctx);
    try {
      const options = {
        ...forwardOptions(ctx, budget.signal),
        onProgress: (p: Progress) => ctx.progress(p.progress, p.total, p.message),
        onLog: (entry: LogEntry) => ctx.log(entry.level as LogLevel, entry.data, entry.logger),
        // The caller's own level, asked of the remote per call (an MCP 2026-07-28 remote sends none unasked).
        ...(ctx.meta.logLevel === undefined ? {} : { logLevel: ctx.meta.logLevel }),
        ...askCaller(ctx),
      };
      // A tool the remote may answer with a promise or a task: its handle becomes ours; any other is
      // followed to its end here (a handle it answers anyway is redeemed or polled by the client).
      return await hop.withClient(
        ctx,
        async (client) =>
          longRunning
            ? answerOf(await client.call(info.name, args, { ...options, wait: false }), ctx, client.wire)
            : resultOf(await client.callTool(info.name, args, options), client.wire),
      );
    } catch (error) {
      return failed(error, budget);
    }
  });
  if (!longRunning) return tool;
  return tool
    .redeem(async (state, ctx) => {
      const budget = answerBudget(ctx);
      try {
        return await hop.withClient(ctx, (client) => pollRemote(client, state as RemoteHandle, ctx, budget.signal));
      } catch (error) {
        return failed(error, budget); // the client too: a stdio remote waiting to be started again refuses it
      }
    })
    // With the credentials the task was started with: the remote knows a task by its caller (its token, its
    // session). Cooperative (MCP 2025-11-25, Tasks): a task that ended meanwhile refuses it, which is no failure.
    .cancel(async (state, ctx) => {
      try {
        await hop.withClient(ctx, (client) => cancelRemote(client, state as RemoteHandle));
      } catch {
        // nothing to undo here
      }
    });
}
