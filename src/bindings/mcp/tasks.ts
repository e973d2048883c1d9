/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the 2026-07-28 revision: a
 * long-running tool's promise becomes `resultType: "task"` for a request that declared the extension,
 * and `tasks/get`, `tasks/update` and `tasks/cancel` read, answer and cancel it. The task id is a
 * signed token (see `core/long-running/promise-task.ts` for what each kind of task keeps, and where). `tasks/result` and
 * `tasks/list` do not exist (-32601). Request middleware runs around each `tasks/*` request, so
 * authentication sees it; a task bound to a caller answers only them.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { declaresTasks, TASKS_EXTENSION } from "../../internal/mcp-wire.ts";
import * as longRunning from "../../jobs/mod.ts";
import {
  CacheSlot,
  type CallContext,
  type CallOutcome,
  type Registry,
  registryOf,
  runRequest,
} from "../../core/mod.ts";
import { INPUT_RESPONSES_PARAM } from "../round-params.ts";
import type { McpContext, McpMethod, McpRequest } from "./mcp-request.ts";
import { callMetaOf } from "./sink.ts";
import { modernErrorToWire } from "../../errors/mcp-codes.ts";
import { ownLayer } from "./request-middleware.ts";

type PromiseOutcome = Extract<CallOutcome, { kind: "promise" }>;

/** Whether any tool may answer with a promise. */
const OFFERS_TASKS = /* @__PURE__ */ new CacheSlot<boolean>("mcp:tasks");

/** The extension's identifier, in `capabilities.extensions` on both sides. */
export { TASKS_EXTENSION };

/**
 * Tells whether the server offers tasks: it does when any tool is long-running.
 *
 * @param registry The registry.
 * @returns `true` when a tool may answer with a promise.
 */
export function offersTasks(registry: Registry): boolean {
  return registry.cached(OFFERS_TASKS, "", () => [...registry.tools].some((tool) => tool.longRunning !== undefined));
}

/**
 * Builds the error for a request that needs the extension and did not declare it (-32021).
 *
 * @param what What needs it, for the message.
 * @returns The error, naming the extension in `data.requiredCapabilities`.
 */
export function tasksRequired(what: string): ProtocolError {
  return new ProtocolError(
    "missing_capability",
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in clientCapabilities.extensions`,
    { data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
  );
}

/**
 * Turns a promise into the revision's `CreateTaskResult`: a flat `Result & Task`, working.
 *
 * @param ctx The binding.
 * @param outcome The promise.
 * @returns The result.
 */
export async function createTaskResult(ctx: McpContext, outcome: PromiseOutcome): Promise<Record<string, unknown>> {
  const task = await longRunning.promiseTasks.create(registryOf(ctx.core), outcome);
  return { resultType: "task", ...taskFields(task) };
}

/**
 * `tasks/get`: the task's status with, by status, its outstanding `inputRequests`, its `result` or its
 * `error`.
 */
export const tasksGet: McpMethod = /* @__PURE__ */ taskMethod(
  (registry, taskId, _request, caller) => longRunning.promiseTasks.get(registry, taskId, caller),
  detailedTask,
);

/**
 * `tasks/update`: answers a task's questions; an empty acknowledgement. Unknown keys are ignored; a
 * partial answer leaves the rest outstanding.
 */
export const tasksUpdate: McpMethod = /* @__PURE__ */ taskMethod(
  (registry, taskId, request, caller) =>
    longRunning.promiseTasks.update(registry, taskId, request.rpc.params[INPUT_RESPONSES_PARAM], caller),
);

/**
 * `tasks/cancel`: cancels a task, cooperatively and idempotently; an empty acknowledgement, also for a
 * task that has ended.
 */
export const tasksCancel: McpMethod = /* @__PURE__ */ taskMethod(
  (registry, taskId, _request, caller) => longRunning.promiseTasks.cancel(registry, taskId, caller),
);

/**
 * A `tasks/*` method: what every one needs checked first (a server that offers tasks, else 404; a client that
 * declared them), then its operation run inside the request middleware, so that authentication applies to it.
 *
 * @param operation The operation on the task the request names.
 * @param answer Its reply, from what the operation gave (default: an empty acknowledgement).
 * @returns The method.
 */
function taskMethod<T>(
  operation: (registry: Registry, taskId: unknown, request: McpRequest, caller: CallContext) => Promise<T>,
  answer: (value: T) => Record<string, unknown> = () => ({}),
): McpMethod {
  return ownLayer(async (ctx, request, channel) => {
    const registry = registryOf(ctx.core);
    const { method, params } = request.rpc;
    if (!offersTasks(registry)) {
      throw new ProtocolError(
        "method_not_found",
        `Method not found: ${method} (this server has no long-running tools)`,
      );
    }
    if (!declaresTasks(request.envelope.clientCapabilities)) throw tasksRequired(method);
    const run = { method, params, meta: callMetaOf(request), signal: channel, host: request.host };
    return answer(await runRequest(registry, run, (caller) => operation(registry, params.taskId, request, caller)));
  });
}

function taskFields(task: longRunning.TaskView): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: Math.max(1, Math.round(task.expiresAt - task.createdAt)),
    pollIntervalMs: task.pollIntervalMs,
    statusMessage: task.statusMessage, // left out of the JSON when absent
  };
}

/** The extension's `DetailedTask`: the task, plus what its status carries. */
function detailedTask(task: longRunning.TaskView): Record<string, unknown> {
  const { requests, result, error } = task;
  // Serialised as JSON, which leaves out what is undefined: the fields of other statuses, an error's absent `data`.
  return {
    ...taskFields(task),
    inputRequests: requests,
    result: result && { ...result, resultType: "complete" },
    error: error && {
      code: typeof error.code === "number" ? error.code : modernErrorToWire(error.code).code,
      message: error.message,
      data: error.data,
    },
  };
}
