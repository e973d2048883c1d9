/**
 * `tools/list` and `tools/call` over MCP. `runTool` is the one place where a call's outcome becomes
 * the wire's result: a `CallToolResult`, an `InputRequiredResult` (2026-07-28) or a `CreateTaskResult`
 * (2026-07-28, tasks extension).
 *
 * @module
 */
import { CallContext } from "../../core/call-context.ts";
import { dispatch } from "../../core/dispatch.ts";
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import type { ToolCall } from "../../core/middleware.ts";
import type { CallOutcome, PromiseOutcome } from "../../core/outcome.ts";
import { failureResult } from "../../core/result.ts";
import { drainStream } from "../../core/stream.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { REDEEM_TOOL } from "../../tool/redeem-tool.ts";
import { describeTool } from "../../tool/tool-def.ts";
import { checkParamHeaders } from "./headers.ts";
import { inputRequiredResult, roundFor } from "./input-required.ts";
import { listReply } from "./pagination.ts";
import type { Channel, McpContext, McpMethod, McpRequest } from "./request.ts";
import { callMetaOf, sinkFor } from "./sink.ts";
import { createTaskResult, declaresTasks, tasksRequired } from "./tasks.ts";

/**
 * Lists the tools, one page per request; pages are built once per change of the tool table.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The reply.
 */
export const toolsList: McpMethod = (ctx, request) =>
  listReply(ctx, request, "mcp:tools", "tools", () => [...ctx.core.registry.tools].map((t) => describeTool(t, false)));

/**
 * Calls a tool. On 2026-07-28 the `Mcp-Param-*` headers are checked against the arguments first. A
 * tool whose `taskSupport` is `"required"` is refused (-32021) before it runs unless the request
 * declared the tasks extension. The answer is JSON unless the call reports progress, logs or asks the
 * client something (2025) while the client accepts SSE.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The reply.
 * @throws {ProtocolError} `invalid_params` for a malformed call, `header_mismatch` for a bad
 *   `Mcp-Param-*` header, `missing_capability` for a task-only tool without the extension.
 */
export const toolsCall: McpMethod = (ctx, request) => {
  const { name, arguments: args } = request.rpc.params;
  if (typeof name !== "string") throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
  }
  const input = (args ?? {}) as Record<string, unknown>; // the suite calls no-argument tools without `arguments`
  const tool = ctx.core.registry.get(name);
  if (tool !== undefined && request.envelope.era === "modern") {
    checkParamHeaders(tool.paramHeaders, input, request.http.headers);
  }
  if (tool?.longRunning?.taskSupport === "required" && !declaresTasks(request.envelope)) {
    throw tasksRequired(`Tool ${name}`);
  }
  return { kind: "run", run: (channel) => runTool(ctx, request, channel, name, input) };
};

/**
 * Runs a call to its result. Invalid arguments become an `isError` result naming the paths, as MCP
 * wants, so the model can correct itself; a streaming tool's partials become progress notifications
 * when the request carries a progress token. On 2026-07-28 the call runs in an input round: the
 * request's `inputResponses` answer the handler's questions, its `requestState` is checked first.
 */
async function runTool(
  ctx: McpContext,
  request: McpRequest,
  channel: Channel,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const registry = ctx.core.registry;
  const sink = sinkFor(ctx, request, channel);
  const round = roundFor(request, sink);
  const call: ToolCall = {
    name,
    arguments: args,
    ctx: new CallContext(name, channel, callMetaOf(request), round ?? sink),
    round,
  };
  let outcome: CallOutcome;
  try {
    const first = await dispatch(registry, call);
    outcome = first.kind === "stream" ? await drainStream(registry, call, first, partialsFor(request, channel)) : first;
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ErrorCode.InvalidArguments) {
      return failureResult(error.message) as unknown as Record<string, unknown>;
    }
    throw error;
  }
  return callToolResult(ctx, request, call, outcome);
}

/**
 * Translates an outcome into the wire's result.
 *
 * - `answer` / `failure`: the `CallToolResult` as is (`isError` on a failure).
 * - `promise`: for a 2026-07-28 request that declared the tasks extension, a `CreateTaskResult`;
 *   otherwise MCP has no promise result, so the token travels in a complete result, as text for the
 *   model and as `structuredContent`, for the `redeem` tool.
 * - `input_required`: produced only when a call carries an input round, i.e. on 2026-07-28: the
 *   revision's `InputRequiredResult`. The 2025 revisions ask over the stream instead and never get one.
 */
function callToolResult(
  ctx: McpContext,
  request: McpRequest,
  call: ToolCall,
  outcome: CallOutcome,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  switch (outcome.kind) {
    case "answer":
    case "failure":
      return outcome.result as unknown as Record<string, unknown>;
    case "promise":
      return request.envelope.era === "modern" && declaresTasks(request.envelope)
        ? createTaskResult(ctx, outcome, call.ctx.auth?.subject)
        : promiseResult(outcome);
    case "input_required":
      if (request.envelope.era !== "modern") throw new Error("an input round reached a 2025-era call, which asks over its stream");
      return inputRequiredResult(outcome);
    default:
      return assertNever(outcome);
  }
}

/** A promise for a client without tasks: a complete result telling the model how to redeem it. */
function promiseResult(outcome: PromiseOutcome): Record<string, unknown> {
  const { token, retryAfterMs, expiresAt, estimatedCompletion } = outcome;
  const structuredContent: Record<string, unknown> = { promise: token, retryAfterMs, expiresAt };
  if (estimatedCompletion !== undefined) structuredContent.estimatedCompletion = estimatedCompletion;
  const text = `Not done yet. Call the "${REDEEM_TOOL}" tool with {"promise": ${JSON.stringify(token)}} ` +
    `in about ${Math.ceil(retryAfterMs / 1000)} s (the token expires at ${expiresAt}).`;
  return { content: [{ type: "text", text }], structuredContent };
}

function partialsFor(request: McpRequest, channel: Channel): (partial: unknown) => void {
  const progressToken = request.envelope.progressToken;
  if (progressToken === undefined || !channel.streaming) return ignore;
  let count = 0;
  return (partial) =>
    channel.notify("notifications/progress", {
      progressToken,
      progress: ++count,
      message: typeof partial === "string" ? partial : JSON.stringify(partial),
    });
}

function ignore(): void {}
