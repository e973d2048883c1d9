/**
 * The seam between the server and a job queue: with `createServer({ queue })`, the deferred work of
 * `.longRunning()` tools is added to the queue instead of run in the process that took the call, and
 * workers (`runWorker()`) take it from there. The queue owns delivery (a job whose worker dies is
 * delivered again); the shared result store owns the job's state and result (first writer wins).
 *
 * @module
 */
import type { LogLevel } from "../core/call/call-sink.ts";
import type { AuthInfo } from "../core/call/host.ts";
import type { LongRunningOptions } from "../core/definitions/tool.ts";

/**
 * What a queue holds of one job, for operators (`WorkQueue.inspect`): its state there, what `add` was told of it
 * (`about`), and what it kept of its runs.
 *
 * @example
 * ```ts
 * import type { QueueItem } from "@mcplite/sdk/types";
 * const failed: QueueItem = {
 *   id: "2GrROpf6ZLKiNOMsT6O9OA",
 *   state: "failed",
 *   tool: "ledger",
 *   callId: 7,
 *   attempt: 1,
 *   failedReason: "ledger for s1 refused the write",
 * };
 * ```
 */
export interface QueueItem {
  /** The job's id (its result-store entry). */
  readonly id: string;
  /** Its state in the queue, in the queue's own words (BullMQ's: `waiting`, `active`, `delayed`, `completed`, …). */
  readonly state: string;
  /** Its tool. */
  readonly tool?: string;
  /** The id of the call that queued it (its JSON-RPC id). */
  readonly callId?: string | number;
  /** The MCP task its call became, if it did. */
  readonly taskId?: string;
  /** Which start of it runs, or ran last, from 1. */
  readonly attempt?: number;
  /** When it was added, ms since the epoch. */
  readonly addedAt?: number;
  /** When it finished, ms since the epoch. */
  readonly finishedAt?: number;
  /** Why it failed, as its caller reads it, when it failed. */
  readonly failedReason?: string;
  /** Its log (its steps' starts and ends), when one job was asked for. */
  readonly log?: readonly string[];
}

/**
 * An operator's asking to run a job again after it failed (Bull Board's Retry, `mcplite jobs retry`), as `take`'s `run`
 * gets it with the job's delivery: the server runs the job again as a new run under a new id, its journal a copy of the
 * failed run's completed steps (up to `from`), while the failed run's entry stays as its caller read it.
 *
 * @example
 * ```ts
 * import type { RunAgain } from "@mcplite/sdk/types";
 * let kept = "";
 * const again: RunAgain = { from: "render", replace: (data) => Promise.resolve(void (kept = data)) };
 * await again.replace("the new run's job");
 * ```
 */
export interface RunAgain {
  /** The step to run again, and every step after it (`mcplite jobs retry --from`); absent, every completed step is kept. */
  readonly from?: string;
  /**
   * Keeps `data`, the new run's job, in the queue for this job from now: called before the new run begins, so that a
   * later delivery of the job (its run cut short) is the new run's, its starts counted from 1.
   *
   * @param data The new run's job, signed and sealed.
   * @returns When the queue keeps it; rejects when it cannot (the job is then delivered again as it was).
   */
  replace(data: string): Promise<void>;
}

/**
 * A job queue, as `createServer({ queue })` and `runWorker()` use one: `bullmqQueue()` from
 * `@mcplite/sdk/bullmq` is one (BullMQ on Redis, Valkey or PostgreSQL). A job is a string the server
 * signed and sealed (its tool, arguments, caller and request metadata): the queue stores it and hands
 * it back, and never needs to read it.
 *
 * A queue of your own keeps this contract (`workQueueCases()` from `@mcplite/sdk/testing` checks it):
 *
 * - **Handles.** Each process (web instance, worker) opens its own handle on the queue; a job added on
 *   one is taken on any other. `add` must not resolve before the job is kept: a taker started later, in
 *   any process, gets it, however long it waited for one.
 * - **Delivery.** Each job is handed to one `run` at a time, across every taker of every handle, with
 *   its data unchanged; a taker runs at most its `concurrency` at once. A job is delivered again when
 *   its run resolves `"again"` (at once), resolves `{ delayMs }` (once that delay has passed), rejects
 *   (later, after a backoff of the queue's choosing; it may give up after many tries, as BullMQ does after
 *   20), or never settles because its process died or stalled (once the queue notices, as BullMQ's lapsed
 *   lock does, however often). A job whose run resolved `"done"` is never delivered again. A stalled
 *   process may still be running a job the queue gave to another: the server allows for that (the first
 *   result stored wins).
 * - **Starts.** `run` gets which start of the job a delivery is, from 1: one more than the deliveries of it
 *   whose run never settled (a process that died or stalled). A run that resolved `"again"` or `{ delayMs }`,
 *   or rejected, was no start: the next delivery has its number (BullMQ: `stalledCounter + 1`). The server
 *   ends a job whose start is past what its tool's `retry` allows, and writes no count of its own.
 * - **Order and ids.** No order is promised, but by `add`'s `flow` on a queue with `flowControl`. The server adds
 *   each id once (16 random bytes, base64url), so a queue need not deduplicate ids.
 * - **Closing.** A taker's `close()` stops its deliveries at once and resolves after its runs in
 *   progress have (`runWorker()` ends them within `drainMs`, giving their jobs back with `"again"`).
 * - **Progress** (optional, `progress` and `watch` together): an update sent on the handle that runs
 *   the job (its progress, or a log line it wrote) reaches the watchers of that job, and only of that job,
 *   on every handle, as sent; updates sent before a watch started may be lost.
 *
 * @example A queue of one process and one taker (what `bullmqQueue()` does across processes; the example of
 * `workQueueCases()` has one for many takers)
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
 * import type { WorkQueue } from "../types.ts";
 *
 * const jobs: string[] = [];
 * let wake = () => {};
 * const queue: WorkQueue = {
 *   add: (_id, data) => {
 *     jobs.push(data);
 *     wake();
 *     return Promise.resolve();
 *   },
 *   take(run) {
 *     let open = true;
 *     const loop = (async () => {
 *       while (open) {
 *         const data = jobs.shift();
 *         if (data === undefined) await new Promise<void>((resolve) => wake = resolve);
 *         else {
 *           const ended = await run(data, 1); // one process: no start is ever cut short
 *           if (ended === "again") jobs.push(data);
 *           else if (typeof ended === "object" && "delayMs" in ended) {
 *             setTimeout(() => (jobs.push(data), wake()), ended.delayMs); // asleep
 *           } // "done", "refused" or { failed }: never again
 *         }
 *       }
 *     })();
 *     return {
 *       close: () => {
 *         open = false;
 *         wake();
 *         return loop;
 *       },
 *     };
 *   },
 * };
 * const server = createServer({
 *   name: "reports",
 *   version: "1.0.0",
 *   secret: "a secret of at least thirty-two bytes!",
 *   resultStore: createMemoryResultStore(), // one that every instance shares, in production
 *   queue,
 * }).tool(
 *   defineTool("report").input(v.object({ id: v.string() })).defer(({ id }) => `report ${id}`),
 * );
 * const worker = runWorker(server);
 * const first = await server.call("report", { id: "q3" });
 * assert.equal(first.kind, "promise");
 * for (let i = 0; i < 100 && first.kind === "promise"; i++) {
 *   const redeemed = await server.call("redeem", { promise: first.token });
 *   if (redeemed.kind === "answer") {
 *     assert.deepEqual(redeemed.result.content, [{ type: "text", text: "report q3" }]);
 *     break;
 *   }
 *   await new Promise((resolve) => setTimeout(resolve, 10));
 * }
 * await worker.close();
 * ```
 */
export interface WorkQueue {
  /**
   * Adds a job.
   *
   * @param id The job's id (its result-store entry): unique, so a queue that keys jobs by id may.
   * @param data The job: signed, sealed text (printable ASCII, at most the server's `tokens.maxBytes`,
   *   16 384 by default), handed back to `take`'s `run` as is.
   * @param about What an operator may read of the job, beside the sealed `data` (nothing secret): its tool,
   *   and the id of the call that queued it (its JSON-RPC id, when it had one). A queue may show it (BullMQ's
   *   job name and data) and need not keep it.
   * @param flow The flow control of the job's tool (`.longRunning({ priority, dedupe })`) and the call's arguments and
   *   caller, which its `priority` and `dedupe.key` functions read. A queue with `flowControl` orders jobs by priority (1 first; those without one before any with one), and
   *   keeps one job of a dedupe id while it has not finished (or, with `ttlMs`, for `ttlMs` after it was added): `add`
   *   of another resolves the kept job's id. It rejects with a `RangeError` when the flow cannot be read (a priority
   *   out of its range, a key that throws): the call then fails as it is, not as retryable.
   * @returns When the queue keeps the job, or the id of the job it keeps instead (deduplicated); rejects when it
   *   cannot (the call then fails as retryable, and the job is not run).
   */
  add(
    id: string,
    data: string,
    about?: { readonly tool: string; readonly callId?: string | number },
    flow?: {
      readonly options: Pick<LongRunningOptions<unknown>, "priority" | "dedupe">;
      readonly input: unknown;
      readonly auth?: AuthInfo;
    },
  ): Promise<void | string>;
  /**
   * Optional: `true` when `add` honours its `flow` (priority and deduplication), as `bullmqQueue()` does; a worker
   * refuses to start on a queue without it when a tool has `dedupe` or `priority`. Per-key concurrency and rate limits
   * need no more of a queue than `{ delayMs }`: the worker holds them in the shared result store.
   */
  readonly flowControl?: true;
  /**
   * Takes jobs, at most `options.concurrency` at once, until the returned consumer is closed. Any number
   * of takers, on any number of handles, share the jobs.
   *
   * @param run Runs one job, given its data, which start of it this delivery is (from 1; see "Starts"
   *   above) and, optionally, whether it is the job's first delivery of all (no run of it began before, however
   *   that run ended: the server then reads no journal before the work's steps; absent, it reads it) and, for a job
   *   an operator asked to run again after it failed (`retry`, Bull Board's Retry), {@link RunAgain}: resolves
   *   `"done"` when the job ended (the queue drops it for good), `"again"`
   *   when the worker stopped it to shut down (the queue delivers it again at once, to another taker if
   *   this one is closing), `{ delayMs }` when the job waits (a durable sleep: the queue delivers it again
   *   once `delayMs` has passed, holding no slot meanwhile), `{ failed }` when the job ended as a failure (its
   *   work threw, ran past its `timeoutMs`, or its starts ran out: its failure is stored for its caller; the queue
   *   never delivers it again, and may keep it as failed for operators with `failed` as its reason, the caller's
   *   message or the `maskErrors` reference), `"refused"` when it is not a job the server
   *   made (not a job token at all: the queue never delivers it again, and may keep it as failed for
   *   operators); rejects when the job should be delivered again later (the result store was out of
   *   reach, or the job's signature could not be checked here: signed with a secret this worker lacks, as
   *   in a rollout that changes it).
   * @param options How many jobs this taker runs at once (a positive integer), and where the queue's own
   *   warnings go (the server's logger), each once: a lock its backend lost in an outage, a late update.
   * @returns The consumer: `close()` stops this taker's deliveries at once (jobs added meanwhile wait for
   *   another taker) and resolves once every `run` it started has settled and the queue has acted on it.
   */
  take(
    run: (
      data: string,
      start: number,
      first?: boolean,
      again?: RunAgain,
    ) => Promise<"done" | "again" | "refused" | { readonly delayMs: number } | { readonly failed: string }>,
    options: { readonly concurrency: number; readonly warn?: (message: string) => void },
  ): { close(): Promise<void> };
  /**
   * Optional: takes a job that no taker holds (waiting, or asleep) out of the queue, so that it is never delivered
   * again; a job a taker runs stays. The server calls it as a job is cancelled, before it records the cancellation:
   * with it, a job cancelled before a worker took it is never delivered, and a worker reads nothing of a job before
   * its first delivery runs (one store round trip less per job); without it, the worker reads the job's entry first.
   *
   * @param id The job's id.
   * @returns `true` when the job was taken out, `false` when a taker holds it or the queue no longer has it; rejects
   *   when the queue is out of reach (the cancellation then fails as retryable).
   */
  remove?(id: string): Promise<boolean>;
  /**
   * Optional: delivers a job that failed again, for an operator (`mcplite jobs retry`), as Bull Board's Retry does
   * (BullMQ's `job.retry()`): its `run` gets {@link RunAgain}, with `from`, and the server runs the job again as a new
   * run (its completed steps kept up to `from`). Only a job the queue itself failed (a `run` resolved `{ failed }`) is
   * run again so: one whose run was cut short and ended as a failure meanwhile is not.
   *
   * @param id The job's id.
   * @param options The step to run again from (`mcplite jobs retry --from`); absent, every completed step is kept.
   * @returns `true` when the job is delivered again; `false` when the queue holds no such failed job (never failed,
   *   or no longer kept); rejects when the queue is out of reach.
   */
  retry?(id: string, options?: { readonly from?: string }): Promise<boolean>;
  /**
   * Optional: delivers an asleep job now, not at its wake time: a signal came for the job, whose `work.waitFor()`
   * handed it back until its deadline (`take`'s `{ delayMs }`). A job a taker still runs is woken once it is handed
   * back (the signal came as its run was ending); a job the queue does not hold, or holds waiting, is left as it is.
   * Without it, a waiting job on this queue wakes at its deadline only.
   *
   * @param id The job's id.
   * @returns When the job was woken (or left); rejects when the queue is out of reach (the job then wakes at its
   *   deadline, and meets the signal in its journal).
   */
  wake?(id: string): Promise<void>;
  /**
   * Optional: adds to what an operator may read of a job (nothing secret), once it is known: the id of the MCP task
   * its call became (MCP 2026-07-28, Tasks), which the web instance that made the task tells. A queue may show it
   * beside `add`'s `about` (BullMQ's job data). Fire and forget: it reports its own failures.
   *
   * @param id The job's id.
   * @param about The task id of its call.
   */
  about?(id: string, about: { readonly taskId: string }): void;
  /**
   * Optional: what the queue holds of its jobs, for operators (`mcplite jobs list` and `mcplite jobs show`).
   *
   * @param query One job (`id`: with its log), or the latest jobs (`limit`, default 20), of some states only if
   *   `states` says (the queue's own names, BullMQ's `waiting`, `active`, `delayed`, `completed`, `failed`).
   * @returns The jobs, the latest added first; none when the queue holds no such job (a finished one it no longer
   *   keeps).
   */
  inspect?(query: { readonly id?: string; readonly states?: readonly string[]; readonly limit?: number }): Promise<
    QueueItem[]
  >;
  /**
   * Optional: writes a line to a running job's own log, for operators (BullMQ's `job.log()`, which Bull Board shows
   * beside the job): the start and end of each step its work runs, with its duration and the size of its value.
   * Called on the handle whose `take` delivered the job, while its `run` is in progress; fire and forget.
   *
   * @param id The job's id.
   * @param line The line (no secret: a step's error is named by its kind only).
   */
  log?(id: string, line: string): void;
  /**
   * Optional: carries a running job's progress (`ctx.progress()`) and log lines (`ctx.log()`) from its
   * worker to `watch` on every instance. Without it, they reach only streams in the worker's process.
   * Called on the handle whose `take` delivered the job, while its `run` is in progress; fire and forget
   * (it reports its own failures, and an update lost is not an error).
   *
   * @param id The job's id.
   * @param update The progress so far, the total if known, and a message; or a log line (`log`: its level,
   *   its data, JSON-serialisable, and the logger's name if given).
   */
  progress?(
    id: string,
    update: { progress: number; total?: number; message?: string } | {
      log: { level: LogLevel; data: unknown; logger?: string };
    },
  ): void;
  /**
   * Optional: follows the progress of a job running on a worker, for a stream that pushes it
   * (MCP-lite spec v0.042 §5.3; gRPC `CallToolStream`, SSE, a held MCP call with a progress token).
   *
   * @param id The job's id.
   * @param listener Called with each update `progress` carried for this job (as sent, with `total`,
   *   `message` and `logger` only when they were given), on whichever handle it was sent.
   * @returns Stops following.
   */
  watch?(
    id: string,
    listener: (
      update: { progress: number; total?: number; message?: string } | {
        log: { level: LogLevel; data: unknown; logger?: string };
      },
    ) => void,
  ): () => void;
}
