/**
 * A remote long-running call as one of ours: the remote's MCP-lite promise token or MCP task id is the
 * state of our own promise (signed into our token, MCP-lite spec v0.042 §3.6), so `redeem` and `tasks/get`
 * on our side each poll the remote once: a `redeem` of its token, or its `tasks/get` (MCP
 * 2026-07-28, tasks extension; `tasks/result` on MCP 2025-11-25, Tasks).
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import { ProtocolError } from "../errors/error.ts";
import { type ToolResult, toolResult } from "../core/results/result.ts";
import type { ToolPromise } from "../core/call/tool-promise.ts";
import type { Client } from "../client/client.ts";
import type { CallHandle } from "../client/client-types.ts";
import type { CallResult } from "../client/read-result.ts";
import { errorFromRpc } from "../client/errors.ts";
import { isObject } from "../internal/is-object.ts";
import { remoteResultMeta } from "./remote-meta.ts";
import { askCaller } from "./ask-caller.ts";
import type { InputRequest } from "../client/transport.ts";

/** Our promise's state: the remote's token (`p`) or task id (`t`). */
export type RemoteHandle = { readonly p: string } | { readonly t: string };

/** The wait before the next poll when the remote names none, in ms. */
const DEFAULT_RETRY_MS = 1_000;

/**
 * Answers with a remote call's outcome: its result when it is complete, else our promise of it.
 *
 * @param handle What the remote answered (`client.call(…, { wait: false })`).
 * @param ctx The call's context.
 * @param wire The wire the remote speaks.
 * @returns The result, or our promise.
 */
export function answerOf(
  handle: CallHandle<unknown>,
  ctx: CallContext,
  wire: string,
): ToolResult | ToolPromise<RemoteHandle> {
  if (handle.kind === "complete") return resultOf(handle.result, wire);
  // A handle with a status is MCP's task (followed with tasks/get), one without MCP-lite's promise (redeemed).
  return ctx.promise<RemoteHandle>({
    state: handle.status === undefined ? { p: handle.token } : { t: handle.token },
    retryAfterMs: handle.retryAfterMs ?? DEFAULT_RETRY_MS,
  });
}

/**
 * Polls a remote long-running call once.
 *
 * @param client The client to the remote (with the credentials the call goes with).
 * @param state Our promise's state.
 * @param ctx The redeem's context.
 * @param signal The signal to send with (default the context's; one counting the answers).
 * @returns The result, or our promise again.
 * @throws {ProtocolError} When the remote task failed or was cancelled.
 */
export async function pollRemote(
  client: Client,
  state: RemoteHandle,
  ctx: CallContext,
  signal: AbortSignal = ctx.signal,
): Promise<ToolResult | ToolPromise<RemoteHandle>> {
  // What the remote's work asks meanwhile (a question listed on its job, MCP-lite's `elicitation` answer to a redeem,
  // the tasks extension's `input_required` task) is asked of our caller, as the call itself does (`askCaller`).
  const asking = askCaller(ctx);
  if ("p" in state) {
    const options = { wait: false, signal, ...asking } as const;
    return answerOf(await client.call("redeem", { promise: state.p }, options), ctx, client.wire);
  }
  let task = await client.request("tasks/get", { taskId: state.t }, { signal });
  if (task.status === "input_required" && isObject(task.inputRequests)) {
    // MCP 2026-07-28, tasks extension: the questions are in `tasks/get`, the answers go back with `tasks/update`.
    // Answering loads with the first question, as the client's own does (`loaded-on-demand.ts`).
    const { answerInputs } = await import("../client/loaded-on-demand.ts");
    const answers = await answerInputs(task.inputRequests as Record<string, InputRequest>, asking, signal);
    await client.request("tasks/update", { taskId: state.t, inputResponses: answers }, { signal });
    task = await client.request("tasks/get", { taskId: state.t }, { signal });
  }
  const status = task.status;
  if (status === "completed") {
    const result = isObject(task.result)
      ? task.result
      : await client.request("tasks/result", { taskId: state.t }, { signal });
    return resultOf(result as CallResult, client.wire);
  }
  if (status === "failed") {
    if (isObject(task.error)) throw errorFromRpc(task.error as never, { method: "tasks/get", wire: "mcp" });
    return resultOf(await client.request("tasks/result", { taskId: state.t }, { signal }) as CallResult, client.wire);
  }
  if (status === "cancelled") throw new ProtocolError("internal", `The remote task ${state.t} was cancelled`);
  const retryAfterMs = typeof task.pollIntervalMs === "number" ? task.pollIntervalMs : DEFAULT_RETRY_MS;
  return ctx.promise<RemoteHandle>({ state, retryAfterMs });
}

/**
 * Cancels a remote task (`tasks/cancel`); an MCP-lite promise has no cancellation on the wire.
 *
 * @param client The client to the remote (with the credentials the task was started with).
 * @param state Our promise's state.
 */
export async function cancelRemote(client: Client, state: RemoteHandle): Promise<void> {
  if ("t" in state) await client.request("tasks/cancel", { taskId: state.t }, { timeoutMs: 5_000 });
}

/**
 * The remote's result as ours: content, structured content, `isError` and the result's own `_meta`, as
 * the remote sent them.
 *
 * @param result The remote's result.
 * @param wire The wire the remote speaks.
 * @returns Our result.
 */
export function resultOf(result: CallResult, wire: string): ToolResult {
  const meta = remoteResultMeta(result._meta, wire);
  return toolResult({
    content: result.content ?? [],
    ...(result.structuredContent === undefined
      ? {}
      : { structuredContent: result.structuredContent as Record<string, unknown> }),
    ...(result.isError === true ? { isError: true } : {}),
    ...(meta === undefined ? {} : { _meta: meta }),
  });
}
