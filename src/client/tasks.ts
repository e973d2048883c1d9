/**
 * Finishing an MCP task (tasks extension): `tasks/get` every `pollIntervalMs` until it completes,
 * answering `input_required` with `tasks/update`, and `tasks/cancel` when the caller gives up.
 *
 * @module
 */
import type { Deadline } from "./deadline.ts";
import { CancelledError, errorFromRpc, RpcError } from "./errors.ts";
import { answerInputs, type InputHandlers } from "./input.ts";
import { taskFrom } from "./result.ts";
import type { Reply, TaskInfo } from "./transport.ts";

/** What task polling needs. */
export interface TaskEnv {
  /** The call's clock and signal. */
  readonly deadline: Deadline;
  /** The user's input handlers. */
  readonly handlers: InputHandlers;
  /** The poll interval when the task gives none, in ms. */
  readonly pollIntervalMs: number;
  /** Sends `tasks/get` or `tasks/update` under the call's signal. */
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
 * @throws {ClientError} The task's error when it failed; {@link CancelledError} when it was cancelled.
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
          if (typeof current.result !== "object" || current.result === null) {
            throw new RpcError(`Task ${current.taskId} completed without a result`, { data: current });
          }
          return current.result;
        case "failed":
          throw errorFromRpc(current.error ?? { code: -32603, message: `Task ${current.taskId} failed` }, {
            method: "tasks/get",
            wire: "mcp",
          });
        case "cancelled":
          throw new CancelledError(`Task ${current.taskId} was cancelled`, { data: current });
        case "input_required": {
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
  const reply = await env.request("tasks/get", { taskId });
  if (reply.kind !== "complete") throw new RpcError(`tasks/get answered ${reply.kind}`, { data: reply });
  return taskFrom(reply.result);
}
