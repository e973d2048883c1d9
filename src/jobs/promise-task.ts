/**
 * Promises seen as tasks (MCP's tasks extension): a task id is a signed token, kind `"task"`, carrying what
 * the promise token carries, so any instance holding the secret can read it. Deferred work's status is its
 * `ResultStore` entry; a continuation's is derived by running `.redeem()`, with what a read cannot derive
 * kept in the store under the id's nonce.
 * Why: docs/concepts/long-running.md#promises-seen-as-tasks
 *
 * @module
 */
import { type CallContext, callerOf } from "../core/call/call-context.ts";
import type { InputRequest } from "../core/call/call-sink.ts";
import { checkAnswers } from "../core/call/input-round.ts";
import { continuationsOf } from "./continuations.ts";
import type { Redelivery } from "./lapsed-jobs.ts";
import { resultNotHeld } from "./result-not-held.ts";
import { runCancellation, runContinuation } from "./promise-runs.ts";
import { ErrorCode, ProtocolError } from "../errors/error.ts";
import { restartOf } from "./job-restart.ts";
import type { PromiseOutcome } from "../core/call/outcome.ts";
import type { DeferredState } from "../core/call/tool-promise.ts";
import { PROMISE_KIND, type PromiseState } from "./promise-outcome.ts";
import { continuationOwner } from "./redeem.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { ToolResult } from "../core/results/result.ts";
import { hasEnded, type StoredResult } from "./result-store.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { ISSUED_BY } from "../core/call/trace-context.ts";
import { TokenError } from "../codec/token-error.ts";
import { sleep } from "../internal/sleep.ts";

/** The token kind of task ids. */
export const TASK_KIND = "task";

/** Where a task stands. `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as a client sees it. */
export interface TaskView {
  /** The task id. */
  readonly taskId: string;
  /** Where it stands. */
  readonly status: TaskStatus;
  /** When it was created, ms since the epoch. */
  readonly createdAt: number;
  /** When its status last changed (or was last derived), ms since the epoch. */
  readonly lastUpdatedAt: number;
  /** When it stops being readable, ms since the epoch. */
  readonly expiresAt: number;
  /** How often to poll it, in ms. */
  readonly pollIntervalMs: number;
  /** `working`: what it waits for, when it says (a signal: `work.waitFor()`), for MCP's `statusMessage`. */
  readonly statusMessage?: string;
  /** `input_required`: the outstanding questions, by key. */
  readonly requests?: Readonly<Record<string, InputRequest>>;
  /** `completed`: the result (an `isError` result included). */
  readonly result?: ToolResult;
  /** `failed`: the protocol error. */
  readonly error?: { readonly code: ErrorCode | number; readonly message: string; readonly data?: unknown };
  /** Ended: a queued job's last progress report, for its follower (`follow-promise.ts`); no wire sends it. */
  readonly progress?: StoredResult["progress"];
}

/**
 * What a task id carries: the promise's state (`s`) or deferred entry (`d`, with the call's arguments
 * `a` when its tool retries), the issuing call's `traceparent` (`t`) when traced, and the poll interval.
 */
type TaskState = PromiseState & { readonly p: number };

/** A verified task. */
interface OpenTask {
  readonly taskId: string;
  readonly owner: AnyTool;
  readonly state: TaskState;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The store key of a continuation task's extras. */
  readonly key: string;
}

/**
 * Turns a promise into a task: signs a task id carrying what the promise token carries. The task is
 * readable at once, for as long as the promise would have been redeemable.
 *
 * @param registry The registry, for the codec.
 * @param outcome The promise (bound to its caller, whom the task is bound to as well).
 * @returns The task, as first described (working).
 */
export async function createTask(registry: Registry, outcome: PromiseOutcome): Promise<TaskView> {
  const codec = continuationsOf(registry.runtime).codec;
  const caller = outcome.caller;
  const claims = await codec.verify(outcome.token, { kind: PROMISE_KIND, caller });
  const now = codec.now();
  const pollIntervalMs = Math.max(1, Math.round(outcome.retryAfterMs));
  const taskId = await codec.sign({
    kind: TASK_KIND,
    scope: claims.scope,
    state: { ...(claims.state as object), p: pollIntervalMs },
    ttlMs: Math.max(1, claims.expiresAt - now),
    caller,
  });
  return { taskId, status: "working", createdAt: now, lastUpdatedAt: now, expiresAt: claims.expiresAt, pollIntervalMs };
}

/**
 * Reads a task: its status, and what goes with it (questions, result or error).
 *
 * @param registry The registry.
 * @param taskId The task id.
 * @param caller The context of the request that reads it (its signal, metadata and caller).
 * @returns The task.
 * @throws {ProtocolError} `invalid_params` for an unknown, expired or foreign task, or deferred work
 *   whose entry this instance's store does not hold; `missing_capability` when a continuation asks
 *   for input the reading client did not declare.
 */
export async function getTask(registry: Registry, taskId: unknown, caller: CallContext): Promise<TaskView> {
  const task = await openTask(registry, taskId, caller);
  const c = continuationsOf(registry.runtime);
  if ("d" in task.state) {
    const restart = restartOf(registry, task.owner, task.state, caller);
    return viewOf(task, await heldEntry(registry, task.state, task.expiresAt, restart));
  }
  const kept = await c.results.get(task.key);
  if (kept !== undefined && hasEnded(kept)) return viewOf(task, kept);
  const { answers, continued } = keptOf(kept);
  const state = continued === undefined ? task.state.s : continued.state;
  const now = c.codec.now();
  let entry: StoredResult;
  try {
    const outcome = await runContinuation(registry, { owner: task.owner, state, caller, answers });
    switch (outcome.kind) {
      case "answer":
      case "failure":
        entry = { status: "completed", result: outcome.result };
        break;
      case "input_required":
        entry = { status: "input_required", requests: outcome.requests };
        break;
      case "continued": {
        const promise = outcome.promise;
        if (promise["~work"] !== undefined || promise["~entry"] !== undefined) {
          entry = deferredFromContinuation(task.owner);
          break;
        }
        entry = { status: "working" };
        if (JSON.stringify(promise.state) !== JSON.stringify(state)) { // continue from the new state next time
          const next: StoredResult = { status: "working", answers, continued: { state: promise.state }, at: now };
          await c.results.set(task.key, next, Math.max(1, task.expiresAt - now));
        }
      }
    }
  } catch (error) {
    if (!(error instanceof ProtocolError) || error.code === "missing_capability") throw error;
    entry = {
      status: "failed",
      error: { code: error.rpcCode ?? error.code, message: error.message, data: error.data },
    };
  }
  if (hasEnded(entry) && !await c.results.set(task.key, { ...entry, at: now }, Math.max(1, task.expiresAt - now))) {
    const won = await c.results.get(task.key); // another read (or a cancellation) ended it first
    if (won !== undefined) return viewOf(task, won);
  }
  return viewOf(task, { ...entry, at: now });
}

/**
 * Answers a task's questions. Deferred work resumes (here, or on the instance running it, through a
 * shared store); a continuation gets the answers on its next read. Answers to questions not asked
 * are ignored; a partial answer leaves the rest outstanding.
 *
 * @param registry The registry.
 * @param taskId The task id.
 * @param responses The answers, by key.
 * @param caller The context of the request.
 * @returns When the answers are recorded.
 * @throws {ProtocolError} `invalid_params` for an unknown task, or answers that are not an object.
 */
export async function updateTask(
  registry: Registry,
  taskId: unknown,
  responses: unknown,
  caller: CallContext,
): Promise<void> {
  const task = await openTask(registry, taskId, caller);
  checkAnswers(responses);
  const c = continuationsOf(registry.runtime);
  const ttlMs = Math.max(1, task.expiresAt - c.codec.now());
  if ("d" in task.state) {
    if (!await c.answer(task.state.d, responses, ttlMs)) throw notHeld();
    return;
  }
  const kept = await c.results.get(task.key);
  if (kept !== undefined && hasEnded(kept)) return;
  const { answers: before, continued } = keptOf(kept);
  await c.results.set(
    task.key,
    { status: "working", answers: { ...before, ...responses }, continued, at: c.codec.now() },
    ttlMs,
  );
}

/**
 * Cancels a task, cooperatively and idempotently: deferred work is aborted (here, or where it runs
 * when that instance polls a shared store) and recorded as cancelled; a continuation's `.cancel()`
 * handler runs and the task reads as cancelled where the store holds that. A task that ended stays as
 * it ended.
 *
 * @param registry The registry.
 * @param taskId The task id.
 * @param caller The context of the request.
 * @returns When the cancellation is recorded.
 * @throws {ProtocolError} `invalid_params` for an unknown task.
 */
export async function cancelTask(registry: Registry, taskId: unknown, caller: CallContext): Promise<void> {
  const task = await openTask(registry, taskId, caller);
  const c = continuationsOf(registry.runtime);
  const ttlMs = Math.max(1, task.expiresAt - c.codec.now());
  if ("d" in task.state) {
    await heldEntry(registry, task.state, task.expiresAt);
    await c.cancel(task.state.d, ttlMs);
    return;
  }
  const kept = await c.results.get(task.key);
  if (kept !== undefined && hasEnded(kept)) return;
  const continued = keptOf(kept).continued;
  const state = continued === undefined ? task.state.s : continued.state;
  await runCancellation(registry, { owner: task.owner, state, caller });
  await c.results.set(task.key, { status: "cancelled", at: c.codec.now() }, ttlMs);
}

/**
 * Waits before the next read of a task: until deferred work running in this process ends, or `ms`
 * pass. Work that has ended already is not waited for; any other task (a continuation, work running
 * on another instance) is read again after `ms`.
 *
 * @param registry The registry.
 * @param taskId The task id.
 * @param caller The context of the request that waits; its signal ends the wait.
 * @param ms The longest wait.
 * @returns When the task is worth reading again.
 * @throws The signal's reason when it aborts; `invalid_params` as {@link getTask} for a bad id.
 */
export async function waitOnTask(registry: Registry, taskId: string, caller: CallContext, ms: number): Promise<void> {
  const task = await openTask(registry, taskId, caller);
  const c = continuationsOf(registry.runtime);
  const signal = caller.signal;
  if ("d" in task.state) {
    const running = c.settled(task.state.d);
    if (running === undefined) {
      const entry = await c.results.get(task.state.d);
      if (entry === undefined || hasEnded(entry)) return;
    } else {
      const pause = new AbortController();
      try {
        return await Promise.race([running, sleep(ms, AbortSignal.any([signal, pause.signal]))]);
      } finally {
        pause.abort(); // the work ended first: stop the timer
      }
    }
  }
  await sleep(ms, signal);
}

async function openTask(registry: Registry, taskId: unknown, caller: CallContext): Promise<OpenTask> {
  const codec = continuationsOf(registry.runtime).codec;
  try {
    const claims = await codec.verify(taskId, { kind: TASK_KIND, caller: callerOf(caller.auth) });
    const owner = continuationOwner(registry, claims.scope, caller.auth); // refuses a caller lacking its scopes
    const state = claims.state as TaskState;
    if (owner !== undefined && typeof state === "object" && state !== null) {
      if (typeof state.t === "string") caller.set(ISSUED_BY, state.t); // telemetry links the poll to the issuing call
      return {
        taskId: taskId as string,
        owner,
        state,
        createdAt: claims.issuedAt,
        expiresAt: claims.expiresAt,
        key: `task:${claims.nonce}`,
      };
    }
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    registry.runtime.reportRefusedToken(error);
  }
  throw new ProtocolError("invalid_params", "Invalid params: unknown or expired task", {
    data: { reason: "unknown_task" },
  });
}

async function heldEntry(
  registry: Registry,
  state: DeferredState,
  expiresAt: number,
  restart?: Redelivery,
): Promise<StoredResult> {
  const c = continuationsOf(registry.runtime);
  const entry = await c.read(state.d, Math.max(1, expiresAt - c.codec.now()), restart, state.i);
  if (entry === undefined) throw notHeld();
  return entry;
}

/** What a continuation task's entry keeps, while it runs: the answers given so far, and its latest state. */
function keptOf(kept: StoredResult | undefined): {
  readonly answers?: Readonly<Record<string, unknown>>;
  readonly continued?: { readonly state: unknown };
} {
  return kept?.status === "working" || kept?.status === "input_required" ? kept : {};
}

function notHeld(): ProtocolError {
  return resultNotHeld(
    "Invalid params: this task ran in another server instance, or has expired",
    "state",
    "serve its tasks",
  );
}

function deferredFromContinuation(owner: AnyTool): StoredResult {
  return {
    status: "failed",
    error: {
      code: "internal",
      message: `The .redeem() of tool "${owner.name}" answered with deferred work, which cannot continue a task`,
    },
  };
}

function viewOf(task: OpenTask, entry: StoredResult): TaskView {
  // What its status carries, each field only in its own status's entry: a working job's `waiting` (`work.waitFor()`),
  // the questions, the result, the error, an ended queued job's last progress.
  const { status, waiting, requests, result, error, progress } = entry as
    & Pick<TaskView, "status" | "requests" | "result" | "error" | "progress">
    & { readonly waiting?: string };
  return {
    taskId: task.taskId,
    status,
    createdAt: task.createdAt,
    lastUpdatedAt: Math.max(task.createdAt, entry.at ?? task.createdAt),
    expiresAt: task.expiresAt,
    pollIntervalMs: task.state.p,
    statusMessage: waiting,
    requests,
    result,
    error,
    progress,
  };
}

/**
 * The promise-as-task operations a wire encodes (MCP's `tasks/*`), as one handle: create, read,
 * answer and cancel, each taking the registry first. A plain literal (no call), so that a bundle that
 * never uses it drops it.
 */
export const promiseTasks: {
  readonly create: typeof createTask;
  readonly get: typeof getTask;
  readonly update: typeof updateTask;
  readonly cancel: typeof cancelTask;
} = { create: clientTask, get: getTask, update: updateTask, cancel: cancelTask };

/**
 * {@link createTask} for a client (MCP 2026-07-28, Tasks): a queued job's operators read the task its call became
 * (BullMQ's job data), to find the job by the id its client quotes.
 */
async function clientTask(registry: Registry, outcome: PromiseOutcome): Promise<TaskView> {
  const task = await createTask(registry, outcome);
  const c = continuationsOf(registry.runtime);
  if (outcome.entry !== undefined) c.queue?.about?.(outcome.entry, { taskId: task.taskId });
  await c.announce(outcome, task.taskId); // the task id is what this caller holds
  return task;
}
