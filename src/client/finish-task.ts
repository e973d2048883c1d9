/**
 * Finishing an MCP task: `tasks/get` every `pollIntervalMs` until it ends, and `tasks/cancel` when the
 * caller gives up. The tasks extension carries the result and the input requests in `tasks/get`, and
 * takes the answers with `tasks/update`; MCP 2025-11-25 (Tasks) carries neither: its `tasks/result`
 * gives the result, and while the task is `input_required` it blocks, delivering the server's
 * requests (elicitation, sampling) on its stream, which the transport answers, until the task ends.
 *
 * @module
 */
import type { Deadline } from "./deadline.ts";
import { clientError, errorFromRpc } from "./errors.ts";
import { answerInputs, type InputHandlers } from "./input.ts";
import { completeResult, taskFrom } from "./read-result.ts";
import type { Reply, TaskInfo } from "./transport.ts";

/** What task polling needs. */
export interface TaskEnv {
  /** The call's clock and signal. */
  readonly deadline: Deadline;
  /** The user's input handlers. */
  readonly handlers: InputHandlers;
  /** The poll interval when the task gives none, in ms. */
  readonly pollIntervalMs: number;
  /** Sends `tasks/get`, `tasks/update` or `tasks/result` under the call's signal. */
  readonly request: (method: string, params: Record<string, unknown>) => Promise<Reply>;
  /** Sends `tasks/cancel` (on its own short clock: the call's signal is aborted by then). */
  readonly cancel: (taskId: string) => Promise<void>;
}

/** The shortest poll interval honoured, in ms. */
const MIN_POLL_MS = 10;

/**
 * Polls a task until it ends; returns its result when it completed.
 *
 * @param task The task as the server first described it.
 * @param env The clock, handlers and requests.
 * @returns The original request's result (e.g. a `CallToolResult`).
 * @throws {McpliteError} The task's error when it failed; code `cancelled` when it was cancelled.
 */
export async function finishTask(task: TaskInfo, env: TaskEnv): Promise<Record<string, unknown>> {
  const { deadline } = env;
  let current = task;
  const answered = new Set<string>();
  const onAbort = () => void env.cancel(current.taskId).catch(() => {});
  deadline.signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      switch (current.status) {
        case "completed":
          return typeof current.result === "object" && current.result !== null
            ? current.result
            : await resultOf(current.taskId, env);
        case "failed":
          // MCP 2025-11-25: a failed tool call's result (isError) or error comes from tasks/result.
          if (current.error === undefined) return await resultOf(current.taskId, env);
          throw errorFromRpc(current.error, { method: "tasks/get", wire: "mcp" });
        case "cancelled":
          throw clientError("cancelled", `Task ${current.taskId} was cancelled`, { data: current });
        case "input_required": {
          if (current.inputRequests === undefined) return await resultOf(current.taskId, env);
          const pending = Object.entries(current.inputRequests ?? {}).filter(([key]) => !answered.has(key));
          if (pending.length > 0) {
            const answers = await deadline.pause(
              answerInputs(Object.fromEntries(pending), env.handlers, deadline.signal),
            );
            await env.request("tasks/update", { taskId: current.taskId, inputResponses: answers });
            for (const [key] of pending) answered.add(key);
            current = await get(current.taskId, env);
            continue;
          }
          break;
        }
      }
      await deadline.sleep(Math.max(MIN_POLL_MS, current.pollIntervalMs ?? env.pollIntervalMs));
      current = await get(current.taskId, env);
    }
  } finally {
    deadline.signal.removeEventListener("abort", onAbort);
  }
}

async function get(taskId: string, env: TaskEnv): Promise<TaskInfo> {
  return taskFrom(completeResult("tasks/get", await env.request("tasks/get", { taskId })));
}

/** MCP 2025-11-25, Tasks: `tasks/result` answers once the task ends, with what the request would have. */
async function resultOf(taskId: string, env: TaskEnv): Promise<Record<string, unknown>> {
  return completeResult("tasks/result", await env.request("tasks/result", { taskId }));
}
