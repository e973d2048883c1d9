/**
 * A promise for an MCP client without the tasks extension (every 2025 client; 2026-07-28 without it): MCP has no
 * pending result for it, so the server holds the call, follows the promise as a task and answers the tool's real
 * result, the work's progress and logs reaching the call meanwhile as a streamed MCP-lite call's; past `holdMs`, or
 * when the work waits for input this request cannot give, it answers the promise as text telling the model to call
 * `redeem` (MCP 2025-06-18, Tools). Why: docs/concepts/long-running.md#holding-a-call-for-a-client-without-tasks
 *
 * @module
 */
import { type CallOutcome, createContext, REDEEM_TOOL, registryOf, type ToolResult } from "../../core/mod.ts";
import * as longRunning from "../../jobs/mod.ts";
import type { Channel, McpContext, McpRequest } from "./mcp-request.ts";
import { callMetaOf, type McpSink } from "./sink.ts";

type PromiseOutcome = Extract<CallOutcome, { kind: "promise" }>;

/**
 * Follows a promise until the work ends or the hold passes (`mcp.holdMs` of the carrier, else the
 * one hold setting: `mcpBinding({ holdMs })`, else the server's `holdMs`; `core/long-running/`). The engine
 * follows the job (in this process, or on a worker through the queue) into the request's sink, as it does for a
 * streamed MCP-lite call: a request with a `progressToken` gets `notifications/progress` (MCP 2025-11-25,
 * Progress), one with a log level `notifications/message`.
 *
 * @param ctx The binding.
 * @param request The `tools/call` request.
 * @param channel Its channel; when the client goes away, the work is cancelled (nobody holds its token).
 * @param sink Its sink: where the work's progress and logs go, and on the 2025 revisions the way questions
 *   reach the client.
 * @param outcome The promise.
 * @returns The tool's result, or the promise as a result when the hold ends first.
 * @throws {ProtocolError} One the work failed with, or a refused question (as `redeem` would).
 */
export async function holdPromise(
  ctx: McpContext,
  request: McpRequest,
  channel: Channel,
  sink: McpSink | undefined,
  outcome: PromiseOutcome,
): Promise<ToolResult> {
  const name = request.rpc.params.name as string;
  const caller = createContext(
    { name, signal: channel, meta: callMetaOf(request), host: request.host },
    sink,
    registryOf(ctx.core).runtime.logger,
  );
  channel.holding(); // the headers go soon: the hold may outlast a proxy's response-header timeout
  const result = await longRunning.followPromise(registryOf(ctx.core), outcome, {
    caller,
    holdMs: ctx.settings.holdMs ?? longRunning.holdFor(ctx.core, "mcp"),
    canAsk: sink?.input !== undefined,
    watch: sink,
  });
  return result ?? pendingResult(ctx, name, outcome);
}

/**
 * The promise as a complete result that tells the model how to redeem it. For a tool without an
 * output schema, the token is also `structuredContent`, for the `redeem` tool; a tool with one gets an
 * `isError` result without it, which its schema admits.
 */
function pendingResult(ctx: McpContext, name: string, outcome: PromiseOutcome): ToolResult {
  const { token, retryAfterMs, expiresAt, estimatedCompletion } = outcome;
  const text = `Not done yet. Call the "${REDEEM_TOOL}" tool with {"promise": ${JSON.stringify(token)}} ` +
    `in about ${Math.ceil(retryAfterMs / 1000)} s (the token expires at ${expiresAt}).`;
  if (registryOf(ctx.core).get(name)?.output !== undefined) return { content: [{ type: "text", text }], isError: true };
  const structuredContent: Record<string, unknown> = { promise: token, retryAfterMs, expiresAt };
  if (estimatedCompletion !== undefined) structuredContent.estimatedCompletion = estimatedCompletion;
  return { content: [{ type: "text", text }], structuredContent };
}
