/**
 * Following a promise on the caller's behalf, until the work ends or a bounded wait passes: how MCP
 * holds a call for a client without tasks (`hold.ts`), and how a streaming MCP-lite call (SSE,
 * stdio with `_meta.stream`, gRPC `CallToolStream`) pushes a deferred job's progress and its result
 * instead of ending at the promise (MCP-lite spec v0.042 §5.3, "Alternative: use CallToolStream for
 * server-pushed updates"). The promise is followed as an MCP task (`promise-task.ts`), so that the
 * work's status, questions, result and cancellation are read the one way every wire reads them.
 *
 * @module
 */
import { askAll } from "./ask-all.ts";
import { continuationsOf } from "./continuations.ts";
import { type CallContext } from "../core/call/call-context.ts";
import { isUnavailable } from "./guarded-store.ts";
import { budgetCallerOf } from "../core/call/tool-call-context.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { FollowOptions } from "../core/call/follow-options.ts";
import type { ToolResult } from "../core/results/result.ts";
import { endedAnswer } from "./ended-answer.ts";
import { budgetsOf } from "../core/instance/runtime.ts";
import { cancelTask, createTask, getTask, type TaskView, updateTask, waitOnTask } from "./promise-task.ts";
import { type CallOutcome, finalOutcome, type PromiseOutcome } from "../core/call/outcome.ts";

/**
 * Follows a promise until the work ends or `holdMs` passes. When the request's client goes away, the
 * work is cancelled: nobody holds its token.
 *
 * @param registry The registry.
 * @param outcome The promise.
 * @param options The follower's context, the bounded wait, whether it may ask, and where updates go.
 * @returns The work's result, or `undefined` when the promise stands (the wait passed, or the work
 *   waits for input this request cannot give).
 * @throws {ProtocolError} One the work failed with, or a refused question (as `redeem` would).
 */
export async function followPromise(
  registry: Registry,
  outcome: PromiseOutcome,
  options: FollowOptions,
): Promise<ToolResult | undefined> {
  const { caller, holdMs } = options;
  if (holdMs <= 0) return undefined;
  // The server's `heldStreams` budget (and the caller's share): past it the promise is answered at
  // once, as with `holdMs: 0`, and the client redeems it.
  const budgets = budgetsOf(registry.runtime);
  const key = budgetCallerOf(caller);
  if (budgets.take("heldStreams", 1, key) !== undefined) return undefined;
  try {
    return await follow(registry, outcome, options, holdMs);
  } finally {
    budgets.give("heldStreams", 1, key);
  }
}

async function follow(
  registry: Registry,
  outcome: PromiseOutcome,
  options: FollowOptions,
  holdMs: number,
): Promise<ToolResult | undefined> {
  const { caller } = options;
  const deadline = Date.now() + holdMs;
  const unwatch = outcome.entry === undefined || options.watch === undefined
    ? undefined
    : continuationsOf(registry.runtime).watch(outcome.entry, options.watch);
  let task: TaskView = await createTask(registry, outcome);
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
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
          if (options.canAsk !== true) return undefined; // redeem asks in a round
          await answer(registry, task, caller);
          break;
        default:
          return endedAnswer(task); // its last progress reported first (`unwatch`)
      }
    }
  } catch (error) {
    if (caller.signal.aborted) {
      await cancelTask(registry, task.taskId, caller).catch((e) => registry.runtime.onError?.(e));
    }
    throw error;
  } finally {
    unwatch?.(task); // an ended task's last progress reported, if the queue has not carried it yet
  }
}

/**
 * Follows deferred work a streaming call started, for MCP-lite's wires: the job's result as the call's
 * outcome, or the promise as it was (a continuation, a job that asks, one still running past `holdMs`).
 *
 * @param registry The registry.
 * @param outcome The call's outcome.
 * @param options The follower's context, the bounded wait, and where the job's progress goes.
 * @returns The outcome to answer.
 * @throws {ProtocolError} One the work failed with.
 */
export async function pushedOutcome(
  registry: Registry,
  outcome: CallOutcome,
  options: FollowOptions,
): Promise<CallOutcome> {
  if (outcome.kind !== "promise" || outcome.entry === undefined) return outcome;
  const result = await followPromise(registry, outcome, options);
  if (result === undefined) return outcome;
  return finalOutcome(result);
}

/** Asks the task's questions on the call's stream and hands the answers over; a refusal fails the call (as redeem's). */
async function answer(registry: Registry, task: TaskView, caller: CallContext): Promise<void> {
  await askAll(caller, task.requests ?? {}, (answers) => updateTask(registry, task.taskId, answers, caller));
}
