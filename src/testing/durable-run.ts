/**
 * A tool's declared work run in a test, in memory and with no store to start: the server's own engine (its journal,
 * retries and start rule) driven through its seams, a journal store of the kit's and a clock the kit moves. Sleeps are
 * skipped, not waited (Temporal's time-skipping test environment, Cloudflare Workflows' `disableSleeps`), steps are
 * mocked by name (`mockStepResult`), children (`invoke()`) run or mocked by name, questions answered, and a crash
 * injected after a step is resumed from the journal as a queue would after a `kill -9`.
 *
 * @module
 */
import { createServer } from "../assembly/create-server.ts";
import { signals } from "../assembly/signals-support.ts";
import { attachListener } from "../server/mod.ts";
import { registryOf } from "../core/definitions/registry-view.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import type { AuthInfo } from "../core/call/host.ts";
import type { CallSink, InputRequest } from "../core/call/call-sink.ts";
import type { ToolResult } from "../core/results/result.ts";
import { ToolError } from "../errors/error.ts";
import { jobStart } from "../jobs/job-start.ts";
import { startRule } from "../jobs/start-rule.ts";
import { Suspension } from "../jobs/suspension.ts";
import { continuationsOf, newJobId } from "../jobs/continuations.ts";
import type { WorkOrigin } from "../jobs/declared-work.ts";
import { isRetryable } from "../jobs/retries.ts";
import { NonRetryableError } from "../errors/non-retryable-error.ts";
import type { JournalEntry } from "../jobs/journal-store.ts";
import type { WorkContext } from "../core/long-running/work-context.ts";
import { type CrashPoint, KitJournal } from "./kit-journal.ts";

export type { CrashPoint } from "./kit-journal.ts";

/** The most starts one `durableRun()` makes (a sleep's wake, a resume, a retry's wait): past it, a loop of the work's. */
const MAX_STARTS = 2_500;
/** The origin of the signal URLs a kit run's work makes (`work.signalUrl()`), which nothing serves. */
const SIGNAL_ORIGIN = "https://durable-run.test";

/**
 * Options of {@link durableRun}.
 *
 * @example A mocked step, a crash after another, an elicitation answered
 * ```ts
 * import type { DurableRunOptions } from "@mcplite/sdk/testing";
 * const options: DurableRunOptions = {
 *   input: { order: "o-1" },
 *   mockSteps: { charge: () => ({ id: "ch_test" }) },
 *   crashAfter: "reserve",
 *   answers: { confirm: { action: "accept", content: { ok: true } } },
 * };
 * ```
 */
export interface DurableRunOptions {
  /** The work's input: the tool's arguments as its handler receives them (or what a handler hands `ctx.defer(input)`). */
  readonly input: unknown;
  /** The caller (`work.auth`). */
  readonly auth?: AuthInfo;
  /** Steps replaced by name: each runs this function instead (return a value, or throw an error), journaled as the step's. */
  readonly mockSteps?: Readonly<Record<string, (key: string) => unknown>>;
  /**
   * Children replaced by the name the work gives `invoke()`: each runs this function of the child's input (checked by
   * its tool) instead of the child's work, and its value (or thrown error, a `ChildWorkError` to the parent) is the
   * child's end, journaled as a child's. A child not mocked runs its tool's declared work, in memory, as a job of its
   * own (its tool needs no adding: `invoke()` hands it to the kit), its sleeps skipped and its retries honoured.
   */
  readonly mockInvokes?: Readonly<Record<string, (input: never) => unknown>>;
  /**
   * Where the run dies, once, as a `kill -9` would: right after the step of that name (its value journaled), or
   * a {@link CrashPoint}. The next start resumes from the journal, counted as a start, as a queue delivers a job
   * whose worker died: past the tool's `retry.attempts` the job ends stopped, as it would in production.
   */
  readonly crashAfter?: string | CrashPoint;
  /**
   * Answers to the work's questions (`work.elicit(key, …)`, `sample()`, `roots()`) by their key: the answer (an
   * `ElicitResult`…), or a function of the request that returns it. A question with no answer fails the run, naming
   * its key. Each start asks again: answers are not journaled.
   */
  readonly answers?: Readonly<Record<string, unknown>>;
  /**
   * Signals sent to the job before its first start, by name (`server.signal(job, name, payload)`): a
   * `work.waitFor(name)` takes its payload at once (checked by the wait's `schema`); a wait with none ends at its
   * `timeoutMs` with a `WaitTimeoutError`, the time skipped as a sleep's. `work.signalUrl(name)` makes a URL on
   * `https://durable-run.test`, which nothing serves.
   */
  readonly signals?: Readonly<Record<string, unknown>>;
  /**
   * A journal an earlier run recorded (a report's `journal`, or part of it): the job resumes from it, as a job in
   * flight across a deploy does, so a test shows whether new work can take over old jobs (a start whose steps differ
   * from it is refused with a `JournalMismatch`, as Temporal's replay tests find). Default: a new job.
   */
  readonly journal?: readonly JournalEntry[];
  /** The server's `settings` (`work.config` of a tool with `.config()`). */
  readonly settings?: Record<string, unknown>;
  /** The clock as the job starts, ms since the epoch (default `Date.now()`): it moves only as sleeps are skipped. */
  readonly now?: number;
}

/**
 * What one {@link durableRun} did.
 *
 * @example
 * ```ts
 * import type { DurableRunReport } from "@mcplite/sdk/testing";
 * const ran = (report: DurableRunReport) => report.steps["charge"] ?? 0; // how often the charge step ran
 * ```
 */
export interface DurableRunReport {
  /** The work's value, when it completed. */
  readonly value?: unknown;
  /** The job's result as its caller reads it (the tool's output check applied), when it completed. */
  readonly result?: ToolResult;
  /** What ended the job failing: the work's error once no retry was left, or a `ToolError` when its starts ran out. */
  readonly error?: unknown;
  /** How many times each step's function (or its mock) ran, by name, across every start: 2 means it ran again. */
  readonly steps: Readonly<Record<string, number>>;
  /** How many times each child's work (or its mock) started, by its `invoke()` name: 2 means it ran again. */
  readonly invoked: Readonly<Record<string, number>>;
  /** The job's journal: each step's value and each sleep's wake time, in the run's order. */
  readonly journal: readonly JournalEntry[];
  /**
   * How many starts the work had: its first, one more per sleep it woke from, per question answered (a durable wait, as
   * on a queue), per crash it resumed after.
   */
  readonly starts: number;
  /** `work.attempt` on the last start. */
  readonly attempt: number;
  /** How much time the kit skipped (the sleeps, retries' backoffs), in ms. */
  readonly sleptMs: number;
  /** The crash points that fired (at most one: `crashAfter`). */
  readonly crashes: readonly CrashPoint[];
  /** The questions the work asked, in order: each once, its answer journaled (`~input:<key>`), as on a queue. */
  readonly asked: readonly { readonly key: string; readonly request: InputRequest }[];
  /** The progress the work reported: `[progress, total, message]`. */
  readonly progress: readonly (readonly [number, number | undefined, string | undefined])[];
}

/**
 * Runs a tool's declared work (`.defer()`) to its end in memory, as one job: the server's own engine runs it, its
 * sleeps skipped (each wakes a new start at once, the clock moved to its wake time, as a queue delivers a sleeping
 * job again), its steps journaled, its retries honoured; `mockSteps` replace steps by name, `crashAfter` kills a
 * start after a step and the next resumes from the journal, `answers` answer its questions. No Redis, no queue, no
 * timer (nor the tool's `timeoutMs`, which counts wall time): a few milliseconds for work of a few steps.
 *
 * @param tool The tool, with declared work (`.defer()`).
 * @param options The input, and what the kit mocks, answers and injects.
 * @returns What the run did: its value or error, its steps' counts, its journal.
 * @throws {TypeError} When the tool declares no work; a `RangeError` past 2 500 starts (work that sleeps in a loop).
 *
 * @example A charge that sleeps, crashes after it and resumes: the charge ran once
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineTool } from "@mcplite/sdk";
 * import { durableRun } from "@mcplite/sdk/testing";
 *
 * let charges = 0;
 * const checkout = defineTool("checkout")
 *   .input(v.object({ cents: v.number() }))
 *   .longRunning({ retry: { attempts: 3 }, ttlMs: 2 * 24 * 60 * 60_000 }) // kept two days: it sleeps one
 *   .defer(async ({ cents }, work) => {
 *     const charge = await work.step("charge", () => ({ id: `ch_${++charges}`, cents }));
 *     await work.sleep(24 * 60 * 60_000); // a day: skipped
 *     return await work.step("receipt", () => `receipt for ${charge.id}`);
 *   });
 * const run = await durableRun(checkout, { input: { cents: 500 }, crashAfter: "charge" });
 * assert.equal(run.value, "receipt for ch_1");
 * assert.deepEqual(run.steps, { charge: 1, receipt: 1 });
 * assert.equal(run.attempt, 2); // the crash cost a start
 * assert.equal(charges, 1);
 * ```
 */
export async function durableRun(tool: AnyTool, options: DurableRunOptions): Promise<DurableRunReport> {
  const { crashAfter } = options;
  const recorded = options.journal ?? [];
  const id = newJobId();
  const journal = new KitJournal(id, typeof crashAfter === "string" ? { step: crashAfter } : crashAfter, recorded);
  let clock = options.now ?? Date.now();
  const server = createServer({
    name: "durable-run",
    version: "0.0.0",
    logger: false,
    journalStore: journal,
    // `work.signalUrl()` makes a URL on the reserved testing name (RFC 6761 §6.2): the job came from no request.
    signals: signals({ publicUrl: SIGNAL_ORIGIN }),
    tokens: { now: () => clock },
    settings: options.settings,
  }).tool(withoutFlow(tool));
  const registry = registryOf(attachListener(server).core);
  const owner = registry.get(tool.name);
  if (owner?.work === undefined) throw new TypeError(`durableRun(): tool "${tool.name}" declares no work (.defer())`);
  const steps: Record<string, number> = {}, invoked: Record<string, number> = {};
  const asked: { key: string; request: InputRequest }[] = [];
  const progress: [number, number | undefined, string | undefined][] = [];
  const crashes: CrashPoint[] = [];
  const mocks = options.mockSteps ?? {}, children = options.mockInvokes ?? {};
  // Each run of a step's function (not a step the journal answers; each try of a step's own `retry`): counted, and
  // replaced where mocked.
  const counted = (name: string, run: (key: string) => unknown) => (key: string) => {
    steps[name] = (steps[name] ?? 0) + 1;
    return Object.hasOwn(mocks, name) ? mocks[name](key) : run(key);
  };
  let attempt = 1; // work.attempt, as the last run of the work saw it (a retry of a thrown error is the next)
  // A child's tool, as `invoke()` hands it over, is added as first invoked, its work counted by the name the parent's
  // journal gives it, and its mock run instead where there is one.
  const get = registry.get.bind(registry);
  registry.get = (name, child) => {
    if (get(name) !== undefined || child?.name !== name || child.work === undefined) return get(name);
    const work = async (input: unknown, job: WorkContext) => {
      const by = journal.childName(job.jobId) ?? name;
      invoked[by] = (invoked[by] ?? 0) + 1;
      if (Object.hasOwn(children, by)) return await children[by](input as never);
      // Its starts driven here as the parent's are (sleeps skipped); its end final: its retries are spent within.
      const expiresAt = clock + (child.longRunning?.ttlMs ?? c.promiseTtlMs);
      const ended = await drive(child, { input, auth: job.auth, meta: job.meta }, job.jobId, expiresAt, false);
      if (!("error" in ended)) return ended.value;
      const { error } = ended;
      if (!isRetryable(error, job.signal)) throw error;
      throw new NonRetryableError(error instanceof Error ? error.message : String(error), { cause: error });
    };
    // Without its flow control, as the parent's tool: one job of it runs here, which no queue holds.
    const longRunning = { value: flowless(child.longRunning) };
    return get(server.tool(Object.create(child, { work: { value: work }, longRunning })) && name);
  };
  // Through the server's one seam around each run of declared work, a middleware's `work` hook: the run's context.
  server.use(Object.assign((_call: unknown, next: () => Promise<unknown>) => next(), {
    work(job: WorkContext, next: () => Promise<unknown>) {
      if (job.jobId !== id) return next(); // a child's
      attempt = job.attempt;
      const step = job.step.bind(job);
      const kit: WorkContext["step"] = (name, run, options) => step(name, counted(name, run) as typeof run, options);
      Object.defineProperty(job, "step", { value: kit });
      return next();
    },
  }));
  const sink: CallSink = {
    progress: (...report) => void progress.push(report),
    input(key, request) {
      asked.push({ key, request });
      const answers = options.answers ?? {};
      if (!Object.hasOwn(answers, key)) {
        return Promise.reject(
          new Error(`durableRun(): the work asked "${key}" (${request.method}); give answers["${key}"]`),
        );
      }
      const answer = answers[key];
      return Promise.resolve(typeof answer === "function" ? answer(request) : answer); // an answer, or its maker
    },
  };
  const c = continuationsOf(registry.runtime);
  const ttlMs = owner.longRunning?.ttlMs ?? c.promiseTtlMs;
  const expiresAt = clock + ttlMs;
  // The job's entry, working, as the engine records it before a first start: what reads the job (a signal sent to it,
  // a cancellation) finds it. The seam of waits (`work.waitFor()`): a signal sent to `id` here, before the first
  // start, is kept for the wait; a wait with none ends at its deadline, the time skipped as a sleep's.
  await c.results.set(id, { status: "working", at: clock }, ttlMs);
  for (const [name, payload] of Object.entries(options.signals ?? {})) await server.signal(id, name, payload);
  const origin = {
    input: options.input,
    auth: options.auth,
    meta: { wire: "in-process" as const, headers: new Headers() },
  };
  let starts = 0, sleptMs = 0;
  const end = (ended: Partial<DurableRunReport>): DurableRunReport => ({
    ...ended,
    steps,
    invoked,
    journal: journal.entries,
    starts,
    attempt,
    sleptMs,
    crashes,
    asked,
    progress,
  });
  /** Runs a job's starts to its end: the run's own, or a child's (`invoke()`), on the kit's clock. */
  async function drive(
    owner: AnyTool,
    origin: WorkOrigin,
    id: string,
    expiresAt: number,
    fresh: boolean,
  ): Promise<{ value: unknown; shape: (value: unknown) => ToolResult | Promise<ToolResult> } | { error: unknown }> {
    let start = 1;
    while (++starts <= MAX_STARTS) {
      const rule = startRule(owner.longRunning?.retry, start);
      if ("stopped" in rule) return { error: new ToolError(rule.stopped) }; // every start it may have was cut off
      // Queued: a sleep suspends the start at its wake time (a queue's delivery then), instead of a timer.
      const begun = { id, attempt: start, expiresAt, fresh, queued: true, ...rule };
      fresh = false;
      const { work, options: run } = jobStart(registry, owner, origin, begun);
      run.bind(sink);
      const controller = new AbortController();
      let value: unknown;
      try {
        value = await work(controller.signal);
      } catch (error) {
        return { error };
      }
      if (!(value instanceof Suspension)) return { value, shape: run.shape! };
      controller.abort(new DOMException("suspended", "AbortError")); // what else the ended start awaits stops
      const asking = await c.results.get(id);
      if (journal.crashed === undefined && asking?.status === "input_required") {
        // A question, a durable wait on a queue: its answer goes in the job's entry, as a client's does, and the job
        // runs again at once (no time passes), reading it there.
        const given: Record<string, unknown> = {};
        try {
          for (const [key, request] of Object.entries(asking.requests)) given[key] = await sink.input!(key, request);
        } catch (error) {
          return { error }; // a question `answers` does not answer
        }
        await c.results.set(id, { status: "working", answers: given, at: clock }, Math.max(1, expiresAt - clock));
        continue;
      }
      if (journal.crashed !== undefined) {
        // A death: the queue counts a start, and the next resumes from the journal.
        crashes.push(journal.crashed);
        journal.crashed = undefined;
        start++;
      } else if (value.untilMs !== undefined && value.untilMs > clock) {
        sleptMs += value.untilMs - clock;
        clock = value.untilMs; // time skipped: the job wakes at once
      }
    }
    throw new RangeError(`durableRun(): tool "${owner.name}" took over ${MAX_STARTS} starts`);
  }
  const ended = await drive(owner, origin, id, expiresAt, recorded.length === 0);
  if ("error" in ended) return end(ended);
  try {
    return end({ value: ended.value, result: await ended.shape(ended.value) });
  } catch (error) {
    return end({ error }); // the tool's output check refused it
  }
}

/**
 * The tool without its flow control (`concurrency`, `rateLimit`, `dedupe`, `priority`): a queue holds it, and the kit
 * runs one job in memory with none, which a server refuses a tool that has it (`admitTool()`).
 */
function withoutFlow(tool: AnyTool): AnyTool {
  return tool.longRunning === undefined ? tool : { ...tool, longRunning: flowless(tool.longRunning) };
}

/** Long-running options without flow control. */
function flowless(options: AnyTool["longRunning"]): AnyTool["longRunning"] {
  if (options === undefined) return options;
  const { concurrency: _c, rateLimit: _r, dedupe: _d, priority: _p, ...rest } = options;
  return rest;
}
