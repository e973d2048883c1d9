/**
 * Reading results: each wire's result types as a {@link Reply}, and a complete result as the value a
 * caller wants (or the failure it is).
 *
 * @module
 */
import type { ContentBlock } from "../core/results/result.ts";
import type { ToolError } from "../errors/error.ts";
import { isObject } from "../internal/is-object.ts";
import { rpcError, toolFailure } from "./errors.ts";
import type { InputRequest, Reply, TaskInfo, TaskStatus } from "./transport.ts";

/** A complete tool result, as MCP's `CallToolResult` (MCP-lite adds its `_meta`). */
export interface CallResult<TOutput = unknown> {
  /** The content blocks. */
  content: ContentBlock[];
  /** The structured result. */
  structuredContent?: TOutput;
  /** `true` when the tool failed. */
  isError?: boolean;
  /** Metadata: MCP-lite's `response_type`, `timestamp`, …; MCP's `serverInfo`. */
  _meta?: Record<string, unknown>;
  /** Anything else the server sent. */
  [key: string]: unknown;
}

const TASK_STATUSES: ReadonlySet<string> = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

/**
 * Reads an MCP result by its `resultType`: missing or `complete` is complete, `input_required` an input
 * round, `task` a task; MCP-lite's promise `_meta` is honoured too. Any other value is invalid.
 *
 * @param result The JSON-RPC result.
 * @returns The reply.
 * @throws {ProtocolError} For an unknown `resultType` or a malformed task.
 */
export function replyFromMcp(result: Record<string, unknown>): Reply {
  const type = result.resultType;
  if (type === undefined || type === "complete") return promiseFromMeta(result) ?? { kind: "complete", result };
  if (type === "input_required") return inputRound(result.inputRequests, result.requestState);
  if (type === "task") return { kind: "task", task: taskFrom(result) };
  throw rpcError(`Unknown resultType ${JSON.stringify(type)}`, { data: result });
}

/**
 * Reads an MCP-lite result by its `_meta.response_type` (MCP-lite spec v0.042 §3.3): missing, `answer` and `failure`
 * are complete (a failure is marked `isError`), `promise` carries its token, `elicitation` and
 * `request-for-more-resource` (the README's extension) their input requests and state.
 *
 * @param result The JSON-RPC result.
 * @returns The reply.
 * @throws {ProtocolError} For a response type this client does not know.
 */
export function replyFromLite(result: Record<string, unknown>): Reply {
  const meta = metaOf(result);
  const type = meta?.response_type;
  if (type === undefined || type === "answer") return { kind: "complete", result };
  if (type === "failure") {
    return { kind: "complete", result: result.isError === true ? result : { ...result, isError: true } };
  }
  if (type === "promise") {
    const reply = promiseFromMeta(result);
    if (reply === undefined) throw rpcError("A promise without a promise_token", { data: result });
    return reply;
  }
  if (type === "elicitation" || type === "request-for-more-resource") {
    return inputRound(meta!.input_requests ?? result.inputRequests, meta!.request_state ?? result.requestState);
  }
  throw rpcError(`Unsupported response_type ${JSON.stringify(type)}`, { data: result });
}

function metaOf(result: Record<string, unknown>): Record<string, unknown> | undefined {
  const meta = result._meta;
  return typeof meta === "object" && meta !== null ? meta as Record<string, unknown> : undefined;
}

function promiseFromMeta(result: Record<string, unknown>): Reply | undefined {
  const meta = metaOf(result);
  if (meta?.response_type !== "promise" || typeof meta.promise_token !== "string") return undefined;
  return {
    kind: "promise",
    token: meta.promise_token,
    ...(typeof meta.retry_after_ms === "number" ? { retryAfterMs: meta.retry_after_ms } : {}),
    ...(typeof meta.estimated_completion === "string" ? { estimatedCompletion: meta.estimated_completion } : {}),
    ...(typeof meta.expires_at === "string" ? { expiresAt: meta.expires_at } : {}),
  };
}

function inputRound(requests: unknown, state: unknown): Reply {
  if (requests !== undefined && (typeof requests !== "object" || requests === null || Array.isArray(requests))) {
    throw rpcError("inputRequests must be an object", { data: requests });
  }
  if (state !== undefined && typeof state !== "string") throw rpcError("requestState must be a string");
  const inputRequests = (requests ?? {}) as Record<string, InputRequest>;
  return state === undefined
    ? { kind: "input_required", inputRequests }
    : { kind: "input_required", inputRequests, requestState: state };
}

/**
 * Reads the answer to a task-augmented request (MCP 2025-11-25, Tasks): a `CreateTaskResult`, whose
 * `task` is polled; a server that ran the request at once answers with its result, read as usual.
 *
 * @param result The JSON-RPC result.
 * @returns The reply.
 * @throws {ProtocolError} For a malformed task.
 */
export function replyFromTaskAugmented(result: Record<string, unknown>): Reply {
  return isObject(result.task) ? { kind: "task", task: taskFrom(result.task) } : replyFromMcp(result);
}

/**
 * Reads a task from a `resultType: "task"` result or a `tasks/get` result, of either revision: MCP
 * 2025-11-25 names the durations `ttl` and `pollInterval`, the tasks extension `ttlMs` and
 * `pollIntervalMs` (both in ms).
 *
 * @param result The result.
 * @returns The task.
 * @throws {ProtocolError} When the task id or status is missing.
 */
export function taskFrom(result: Record<string, unknown>): TaskInfo {
  const { taskId, status, ttl, pollInterval } = result;
  if (typeof taskId !== "string" || typeof status !== "string" || !TASK_STATUSES.has(status)) {
    throw rpcError("A task needs a taskId and a known status", { data: result });
  }
  const task = { ...(result as unknown as TaskInfo), taskId, status: status as TaskStatus };
  if (task.ttlMs === undefined && (typeof ttl === "number" || ttl === null)) task.ttlMs = ttl;
  if (task.pollIntervalMs === undefined && typeof pollInterval === "number") task.pollIntervalMs = pollInterval;
  return task;
}

/**
 * Gives the value of a complete result, as `client.call()` resolves with it: its structured content
 * when it has some; else its text when every block is text (joined by newlines); else its content
 * blocks (`undefined` when empty). For results a {@link CallResult} handle or `callTool()` gave.
 *
 * @param result The result.
 * @returns The value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultValue } from "./read-result.ts";
 * assert.deepEqual(resultValue({ content: [], structuredContent: { sum: 3 } }), { sum: 3 });
 * assert.equal(resultValue({ content: [{ type: "text", text: "hi" }] }), "hi");
 * ```
 */
export function resultValue(result: CallResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0) return undefined;
  if (content.every((block) => block?.type === "text" && typeof block.text === "string")) {
    return content.map((block) => (block as { text: string }).text).join("\n");
  }
  return content;
}

/**
 * Gives the failure of a failed result, or `undefined` for a success.
 *
 * @param tool The tool name.
 * @param result The result.
 * @returns The failure.
 */
export function toolFailureOf(tool: string, result: CallResult): ToolError | undefined {
  if (result.isError !== true) return undefined;
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.filter((b) => b?.type === "text").map((b) => (b as { text: string }).text).join("\n");
  return toolFailure(tool, text || `Tool ${tool} failed`, result);
}

/**
 * Gives a result as a {@link CallResult}: `content` is always an array.
 *
 * @param result The raw result.
 * @returns The result.
 */
export function callResultOf(result: Record<string, unknown>): CallResult {
  if (Array.isArray(result.content)) return result as CallResult;
  return { ...result, content: [] };
}

/**
 * The result of a reply that has to be complete; any other reply (a promise, input requests) is an
 * `ProtocolError` naming the method.
 *
 * @param method The method the reply answers.
 * @param reply The reply.
 * @returns Its result.
 */
export function completeResult(method: string, reply: Reply): Record<string, unknown> {
  if (reply.kind !== "complete") throw rpcError(`${method} answered ${reply.kind}`, { data: reply });
  return reply.result;
}
