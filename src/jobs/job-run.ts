/**
 * One run of deferred work as a job: its time limit (`.longRunning({ timeoutMs })`), after which it ends as timed
 * out and frees its slot though the work never settles; the entry it ends with (its result, or the failure it
 * becomes, as a tool call's); and the final write of that entry, which a store outage retries.
 *
 * @module
 */
import { type ErrorCode, ProtocolError } from "../errors/error.ts";
import { failureFromError } from "../core/results/failure.ts";
import { isUnavailable } from "./guarded-store.ts";
import type { Job } from "./job.ts";
import { resultFromValue, type ToolResult } from "../core/results/result.ts";
import { hasEnded, type ResultStore, type StoredResult } from "./result-store.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";
import type { DeferredWork } from "../core/call/tool-promise.ts";
import { Suspension } from "./suspension.ts";

/** How long one run of deferred work may take unless its tool says (`.longRunning({ timeoutMs })`), in ms. */
export const DEFAULT_JOB_TIMEOUT_MS = 15 * 60_000;

/**
 * The failure of deferred work that ran past its tool's `timeoutMs`: `deadline_exceeded` (a timeout to every
 * wire's callers, never the tool's own failure), with `data.reason: "timeout"`.
 *
 * @param timeoutMs The limit it ran past.
 * @returns The error.
 */
export function jobTimedOut(timeoutMs: number): ProtocolError {
  return new ProtocolError("deadline_exceeded", `The job timed out after ${timeoutMs} ms`, {
    data: { reason: "timeout", timeoutMs },
  });
}

/** What a job's run takes of the options it was started with. */
export interface RunOptions {
  /** Receives the job's own errors (its store's, its final write's), for logs only: no caller is told of them. */
  readonly onError?: (error: unknown) => unknown;
  /**
   * Receives what the work threw, or its value's refusal by the output check, which becomes the failure a caller
   * reads; its answer is the pipeline's (`failure.ts`: a replacement, or `maskErrors`' reference).
   */
  readonly onFailure: (error: unknown) => unknown;
  /** Turns the work's value into its result (the owning tool's output check); default: as is. */
  readonly shape?: (value: unknown) => ToolResult | Promise<ToolResult>;
  /** How long the work may run before it ends as timed out, in ms (default {@link DEFAULT_JOB_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** Hears the entry the run ends with, as it is written, and what failed it, if it failed (a worker tells its queue). */
  readonly onEnd?: (entry: StoredResult, cause?: unknown) => void;
}

/**
 * Runs a job's work to its end and writes the entry it ends with: its result, or its failure; nothing when the
 * job was cut off (cancelled, expired, its worker stopping), and a timeout when it ran past `timeoutMs`.
 *
 * @param c The server's continuations: their store and clock.
 * @param job The job, its entry (and lease) written.
 * @param work The work.
 * @param ttlMs How long a failure written here lasts.
 * @param options Where errors go, the shaping of the result, the time limit.
 * @param ended Called once the work has ended, before the final write (which its lease outlives).
 * @param queued Whether a queue runs the job (it hands a suspended run's job back to the queue).
 * @returns When the final entry is written (or given up); with `queued`, the run's {@link Suspension} when its work
 *   suspended (a durable sleep, the store out of reach): then nothing is written, and its queued runner has the queue
 *   deliver the job again when it wakes.
 */
export async function runJob(
  c: { readonly results: ResultStore; readonly codec: { readonly now: () => number } },
  job: Job,
  work: DeferredWork,
  ttlMs: number,
  options: RunOptions,
  ended: () => void,
  queued = false,
): Promise<Suspension | undefined> {
  const { onError, onFailure, shape = resultFromValue, timeoutMs = DEFAULT_JOB_TIMEOUT_MS } = options;
  const { results: store, codec: { now } } = c;
  const signal = job.controller.signal;
  let timedOut: ProtocolError | undefined; // made when it happens: most jobs never need it
  const timer = unrefTimer(setTimeout(() => job.controller.abort(timedOut ??= jobTimedOut(timeoutMs)), timeoutMs));
  // Ended otherwise than by its work or its timeout: cancelled, expired, its worker stopping (nothing is written).
  const cut = () => signal.aborted && timedOut === undefined;
  let entry: StoredResult | undefined;
  let cause: unknown;
  try {
    // The job ends when its signal aborts, whether or not the work heeds it: work that never settles cannot
    // hold its slot (a worker's, the `jobs` budget) for good.
    const value = await Promise.race([work(signal), aborted(signal)]);
    if (value instanceof Suspension) {
      // The work suspended (a queued job's `work.sleep()`, the store out of reach as the journal was read or
      // written): its promise stays pending, and this run ends here with nothing written. Its signal aborts, so what
      // else the abandoned work awaits stops. Queued, the job runs again at its wake time; in process this start ends
      // as a stopped one (the store's error went to onError through its guard): its lease lapses, and the job starts
      // again or ends stopped as after a death. Stored as the job's failure, it would answer "send again later".
      job.controller.abort(new DOMException("suspended", "AbortError")); // the run ended, not the job
      return queued ? value : undefined;
    }
    entry = { status: "completed", result: await shape(value), at: now() };
  } catch (error) {
    // The work threw, or its value cannot be its result (the tool's output check): a failure. Timed out: it ends
    // as such, whatever the work threw as its signal aborted. Cut: no failure to report.
    if (!cut()) entry = { ...storedFailure(cause = signal.aborted ? timedOut : error, onFailure), at: now() };
  } finally {
    clearTimeout(timer);
    ended();
  }
  try {
    // Cancelled here, or (with a shared store) by another instance: the store keeps the first end. Expired:
    // nothing is written. Timed out: the job ends as such.
    if (entry === undefined || cut()) return;
    // Queued, its followers hear its progress through the queue, which may carry the last report after the end is
    // found (BullMQ's events lag): the end carries it too.
    if (queued && job.lastProgress) entry = { ...entry, progress: job.lastProgress };
    options.onEnd?.(entry, cause);
    // The lease stays renewed while the final write retries through a store outage, so no instance
    // takes the job for stopped; it then lapses on its own, never before the result is readable.
    if (!await job.settle(entry) && !hasEnded(await store.get(job.id) ?? entry)) {
      throw job.refusal ?? new Error("the store refused the result"); // too large, or the store failed
    }
  } catch (error) {
    if (!isUnavailable(error) && error !== job.refusal) onError?.(error); // an outage, a refusal: reported once
    await store.set(job.id, { status: "failed", error: unstored(error) }, ttlMs)
      .catch((e) => isUnavailable(e) || onError?.(e));
  }
}

/** Rejects with the signal's reason once it aborts (never settles before). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** A failure of deferred work, as the pipeline answers one (`isError`; protocol errors fail); cancelled: unreported. */
function storedFailure(error: unknown, report: (error: unknown) => unknown): StoredResult {
  if (error instanceof ProtocolError) {
    return { status: "failed", error: { code: error.rpcCode ?? error.code, message: error.message, data: error.data } };
  }
  return { status: "completed", result: failureFromError(error, report) }; // masked as a call's
}

/**
 * The failure of a job whose result the store did not take: one over the store's bound on an entry says so (the
 * store's message: the size and the bound) with `data.reason: "result_too_large"`; the ways out are the guide's
 * (docs/guides/many-instances.md, "Large results"), not the message's, which every server's bundle carries.
 */
function unstored(error: unknown): { code: ErrorCode; message: string; data?: unknown } {
  const message = "The result could not be stored";
  return error instanceof RangeError
    ? { code: "internal", message: `${message}: ${error.message}`, data: { reason: "result_too_large" } }
    : { code: "internal", message };
}
