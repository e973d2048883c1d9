/**
 * A promise for an MCP client without the tasks extension (every 2025 client; a 2026-07-28 request
 * that did not declare it). MCP has no pending result for such a client, and a tool's `outputSchema`
 * must hold for every result it gets (MCP 2025-06-18, Tools: "Servers MUST provide structured results
 * that conform to this schema"; the official SDKs reject any other). So the server holds the call:
 * it follows the promise as a task, on the client's behalf, until the work ends, and answers the
 * tool's real result; the call stays connected meanwhile (SSE keep-alives, see `reply.ts`). On the
 * 2025 revisions a question the work asks goes to the client on the call's stream. Past `holdMs`, or
 * when the work waits for input this request cannot give (2026-07-28 without tasks), the call answers
 * the promise as text that tells the model to call `redeem`: for a tool with an output schema as an
 * `isError` result without `structuredContent`, the one pending answer such a schema admits.
 *
 * @module
 */
import {
  askAll,
  type CallContext,
  createContext,
  failureResult,
  isUnavailable,
  type PromiseOutcome,
  ProtocolError,
  type Registry,
  type ToolResult,
} from "../../core/mod.ts";
import { REDEEM_TOOL } from "../../tool/redeem-tool.ts";
import { cancelTask, createTask, getTask, type TaskView, updateTask, waitOnTask } from "./promise-task.ts";
import type { Channel, McpContext, McpRequest } from "./request.ts";
import { callMetaOf, type McpSink } from "./sink.ts";

/**
 * Follows a promise until the work ends or the server's `holdMs` passes.
 *
 * @param ctx The binding.
 * @param request The `tools/call` request.
 * @param channel Its channel; when the client goes away, the work is cancelled (nobody holds its token).
 * @param sink Its sink: on the 2025 revisions, the way questions reach the client.
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
  const holdMs = ctx.settings.holdMs;
  if (holdMs === 0) return pendingResult(ctx, name, outcome);
  const registry = ctx.core.registry;
  const deadline = Date.now() + holdMs;
  const caller = createContext(
    { name, signal: channel, meta: callMetaOf(request), host: request.host },
    sink,
    registry.runtime.logger,
  );
  let task: TaskView = await createTask(registry, outcome);
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return pendingResult(ctx, name, outcome);
      await waitOnTask(registry, task.taskId, caller, Math.min(task.pollIntervalMs, left));
      try {
        task = await getTask(registry, task.taskId, caller);
      } catch (error) {
        if (!isUnavailable(error)) throw error;
        continue; // the store is out of reach: hold on, the work may still finish and be stored
      }
      switch (task.status) {
        case "working":
          break;
        case "input_required":
          if (sink?.input === undefined) return pendingResult(ctx, name, outcome); // redeem asks in a round
          await answer(registry, task, caller);
          break;
        case "completed":
          return task.result!;
        case "failed":
          throw new ProtocolError(task.error!.code, task.error!.message, { data: task.error!.data });
        case "cancelled":
          return failureResult("This promise was cancelled");
      }
    }
  } catch (error) {
    if (channel.signal.aborted) await cancelTask(registry, task.taskId, caller).catch(ctx.report);
    throw error;
  }
}

/** Asks the task's questions on the call's stream and hands the answers over; a refusal fails the call (as redeem's). */
async function answer(registry: Registry, task: TaskView, caller: CallContext): Promise<void> {
  const { answers, refused } = await askAll(caller, task.requests ?? {});
  if (Object.keys(answers).length > 0) await updateTask(registry, task.taskId, answers, caller);
  if (refused !== undefined) throw refused;
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
  if (ctx.core.registry.get(name)?.output !== undefined) return { content: [{ type: "text", text }], isError: true };
  const structuredContent: Record<string, unknown> = { promise: token, retryAfterMs, expiresAt };
  if (estimatedCompletion !== undefined) structuredContent.estimatedCompletion = estimatedCompletion;
  return { content: [{ type: "text", text }], structuredContent };
}
