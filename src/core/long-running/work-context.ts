/**
 * The context of a tool's declared work (`.defer((input, work) => …)`), as its author sees it: the call's context
 * without what only a handler may do (answer with a promise, add result metadata), plus which start of the job
 * this is, its journaled steps and its durable sleep. A contract of the core that the jobs layer implements
 * (`src/jobs/declared-work.ts` makes it).
 *
 * @module
 */
import type { CallContext } from "../call/call-context.ts";
import type { PromiseRetry } from "../definitions/retry-options.ts";
import type { Jsonify } from "./jsonify.ts";

/**
 * Options of one step (`work.step(name, fn, options)`).
 *
 * @example A step that calls a flaky API: three tries, 1 s then 2 s apart, its count journaled
 * ```ts
 * import type { StepOptions } from "@mcplite/sdk/types";
 * const flaky: StepOptions = { retry: { attempts: 3, backoff: { type: "exponential", delayMs: 1_000 } } };
 * ```
 */
export interface StepOptions {
  /**
   * The step's own retries: `fn` runs again when it throws a retryable error (not a `ToolError`, a
   * `NonRetryableError`, …: as the tool's `retry`), at most `attempts` runs in all, `backoff` apart (durable sleeps).
   * Its failures are journaled: a start after a worker died mid-retry goes on with the runs left, and a start after
   * they were all used (the tool's own `retry`) runs `fn` once more.
   */
  readonly retry?: PromiseRetry;
}

/**
 * What a tool's declared work (`.defer()`) receives beside its input: the caller (`auth`), the request's
 * `meta`, `signal` (aborts on cancellation, timeout or expiry, and as a run ends at a queued `sleep()`), `progress()`,
 * `log()` and asking the client (`elicit()`, `sample()`, `roots()`) where the wire allows, plus its journal.
 *
 * @typeParam TConfig The tool's configuration (`work.config`).
 *
 * @example A step journaled, a durable sleep, a second step
 * ```ts
 * import * as v from "valibot";
 * import { defineTool } from "../../tool/define-tool.ts";
 *
 * const report = defineTool("report")
 *   .input(v.object({ id: v.string() }))
 *   .longRunning({ retry: { attempts: 3 } })
 *   .defer(async ({ id }, work) => {
 *     const rows = await work.step("fetch", () => [id, "row"]); // a later start of this job reads it back
 *     await work.sleep(10); // on a queue: back to the queue meanwhile, no worker slot held
 *     const url = await work.step("upload", (key) => `https://files.example/${key}?rows=${rows.length}`);
 *     work.progress(2, 2);
 *     return { url, attempt: work.attempt };
 *   });
 * ```
 */
export interface WorkContext<TConfig = unknown>
  extends Omit<CallContext<TConfig>, "promise" | "defer" | "resultMeta" | "step" | "set"> {
  /** The job's id: its result-store entry, the same on every start. */
  readonly jobId: string;
  /** Which run of the job this is, from 1: each retry (after a throw, or its worker or instance stopped) is the next. */
  readonly attempt: number;
  /**
   * Runs a step once per job: once it completed, its JSON value is journaled in the result store, and a later
   * start of the job (a retry, a worker killed, a deploy) returns it without running `run` again. A step whose
   * process died inside `run` runs again on the next start: `run` gets a key derived from the job and the step,
   * for APIs that take an idempotency key.
   *
   * @param name The step's name, unique within the job (1–200 characters, not starting with `~`).
   * @param run The step.
   * @param options Its own `retry` (default none: a throw fails the step, and the work, at once).
   * @returns Its value, as JSON gives it back (also on the start that ran it): typed {@link Jsonify}, so a `Date`
   *   is a `string`. `undefined` is kept as no value.
   * @throws {TypeError} For a name used twice in one run, or a value with no JSON form (a function, a symbol, a
   *   BigInt, a cycle), naming the step; a `RangeError` past 1 000 steps, for a value over 262 144 bytes of JSON, or
   *   for `options.retry` out of its ranges.
   */
  step<T>(name: string, run: (key: string) => T | Promise<T>, options?: StepOptions): Promise<Jsonify<T>>;
  /**
   * Sleeps durably: the wake time is journaled, so a later start sleeps only what is left. With a queue
   * (`createServer({ queue })`) the run ends there and the job goes back to the queue until then, holding no worker
   * slot; the promise never settles, so no `try/catch` or retry wrapper around it can see the wait, and the code
   * after it runs in the delivery that wakes, which runs the work from its top, its steps read from the journal
   * (`work.signal` aborts meanwhile, to stop what else this run awaits). In process, a timer.
   *
   * @param ms How long, in ms.
   * @returns When the time has passed.
   * @throws {RangeError} When the job would wake after its entry expired (the tool's `ttlMs`, one hour by default):
   *   nothing could collect its result then.
   */
  sleep(ms: number): Promise<void>;
}
