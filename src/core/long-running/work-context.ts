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
import type { InferSchemaOutput, StandardSchemaV1 } from "../schema.ts";

/** A schema a signal's payload is checked against: any Standard Schema, valibot's included. */
export type WaitSchema = StandardSchemaV1;

/**
 * Options of a wait for a signal (`work.waitFor(name, options)`).
 *
 * @typeParam S The payload's schema.
 *
 * @example Wait a day for an approval whose payload says who approved
 * ```ts
 * import * as v from "valibot";
 * import type { WaitOptions } from "@mcplite/sdk/types";
 * const approval = v.object({ by: v.string() });
 * const options: WaitOptions<typeof approval> = { timeoutMs: 86_400_000, schema: approval };
 * ```
 */
export interface WaitOptions<S extends WaitSchema = WaitSchema> {
  /**
   * How long to wait, in ms, after which `waitFor()` throws a `WaitTimeoutError` (`@mcplite/sdk/errors`); default: until
   * a second before the job expires (the tool's `.longRunning({ ttlMs })`).
   */
  readonly timeoutMs?: number;
  /** What the payload must be; `waitFor()` answers the schema's output. Default: any JSON, as sent. */
  readonly schema?: S;
}

/**
 * Options of a signal URL (`work.signalUrl(name, options)`).
 *
 * @example A URL good for ten minutes
 * ```ts
 * import type { SignalUrlOptions } from "@mcplite/sdk/types";
 * const options: SignalUrlOptions = { ttlMs: 600_000 };
 * ```
 */
export interface SignalUrlOptions {
  /** How long the URL is good for, in ms; default, and at most: until the job expires. */
  readonly ttlMs?: number;
}

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
  /**
   * Whether this run takes the way the work was changed to at this point (Temporal's `patched()`), so that a deploy
   * may change a tool's steps while jobs of the old steps are suspended: `false` for a job whose journal recorded
   * another step here before the change (it goes on the old way, and the next run of it answers the same), `true` for
   * any other (a job that reaches this point after the change: recorded in its journal as `~patch:<name>`, in the place
   * of a step). Once no job of the old way is left, the old branch and the call can go (`docs/guides/many-instances.md`,
   * "Deploys that change a tool's steps").
   *
   * @param name The change's name, unique within the job (1–200 characters).
   * @returns Whether to take the new way.
   * @throws {TypeError} For a name used twice in one run.
   *
   * @example Adding a step between two others, with jobs of the old steps still asleep
   * ```ts ignore
   * const order = await work.step("load", () => loadOrder(id));
   * const taxed = await work.patched("add-tax") ? await work.step("tax", () => addTax(order)) : order;
   * await work.step("charge", () => charge(taxed));
   * ```
   */
  patched(name: string): Promise<boolean>;
  /**
   * Waits for the outside world: for the signal `name`, sent by `server.signal(work.jobId, name, payload)` on any
   * instance sharing the store (and queue), or POSTed to a URL from {@link WorkContext.signalUrl}. Durable as a sleep:
   * its deadline is journaled, and on a queue the run ends here and the job goes back to the queue until the signal
   * (or the deadline) wakes it, holding no worker slot; the promise then never settles in this run. A signal sent
   * before the wait began is kept, and answers it at once. Needs `createServer({ signals: signals() })`.
   *
   * @param name The signal's name (1–200 characters), waited for once per job.
   * @param options How long to wait (`timeoutMs`) and the payload's `schema`.
   * @returns The signal's payload, as its schema gives it back (as sent, as JSON, without one).
   * @throws {WaitTimeoutError} When no signal came within `timeoutMs` (`@mcplite/sdk/errors`): catch it to go on.
   * @throws {TypeError} For a name waited for twice in one job, or a payload the schema refuses.
   * @throws {RangeError} When the job would expire before the wait ends.
   */
  waitFor<S extends WaitSchema = StandardSchemaV1<unknown, unknown>>(
    name: string,
    options?: WaitOptions<S>,
  ): Promise<InferSchemaOutput<S>>;
  /**
   * A URL that signals this job once: an outside system (a webhook, a person clicking a link) POSTs the payload, as
   * JSON, to it. An unguessable capability, signed with the server's secret and expiring (default: with the job); the
   * server answers 202 once, 403 to a forged or tampered URL, 410 to an expired one (or a job that ended, or a wait
   * that timed out), 409 to a second POST, 413 past `signals({ maxBodyBytes })`, 400 to a body that is not JSON.
   * Journal it with the message that carries it (`work.step("ask", async () => send(await work.signalUrl("approved")))`).
   *
   * @param name The signal's name.
   * @param options How long the URL is good for.
   * @returns The URL, under the server's `basePath` at `signals({ publicUrl })`; without it, at the calling request's
   * host only when that is a loopback host (development), else this throws a `TypeError` saying to set it.
   */
  signalUrl(name: string, options?: SignalUrlOptions): Promise<string>;
}
