/**
 * Runs a tool's declared work (`.defer((input, work) => …)`, or the inline work of `ctx.defer(fn)`) for one start of
 * its job: in the process that took the call, on an instance that restarts it (`retry`), or on a worker that took it
 * from the queue. Only the work runs (in middleware's `work` hooks), never the handler or the request middleware;
 * its steps and sleeps go to the job's journal.
 *
 * @module
 */
import { continuationsOf } from "./continuations.ts";
import type { CallMeta, ContextSource } from "../core/call/call-meta.ts";
import type { DeferredWork } from "../core/call/tool-promise.ts";
import { type CallSink, type InputRequest, isInputAnswer } from "../core/call/call-sink.ts";
import { cannotAsk } from "../core/call/client-view.ts";
import { sleep } from "../internal/sleep.ts";
import type { StoredResult } from "./stored-result.ts";
import { configFor, hasConfig } from "../core/definitions/config.ts";
import type { AuthInfo } from "../core/call/host.ts";
import { setConfig, ToolCallContext } from "../core/call/tool-call-context.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { isToolPromise } from "../core/call/tool-promise.ts";
import { TRACE_PARENT } from "../core/call/trace-context.ts";
import { Journal, type StepObserver } from "./journal.ts";
import { retryingWork } from "./work-retry.ts";
import { retryingStep } from "./step-retry.ts";
import type { OnRetry } from "./retries.ts";
import type { LogLevel } from "../core/call/call-sink.ts";
import { Suspension } from "./suspension.ts";
import { ToolError } from "../errors/error.ts";
import { needsSignals } from "./needs-signals.ts";
import { checkLongRunning } from "./check-long-running.ts";
import type { StepOptions, WorkContext } from "../core/long-running/work-context.ts";
import type { ServerLogger } from "../core/instance/logger.ts";

/** Where a job's work comes from: the call that started it. */
export interface WorkOrigin {
  /** The work's input: what the handler handed to `ctx.defer(input)`, else the call's arguments. */
  readonly input: unknown;
  /** The caller, without its raw credential. */
  readonly auth: AuthInfo | undefined;
  /** The request's metadata. */
  readonly meta: CallMeta;
  /** The platform's values (`work.env`), where the work runs in the process that took the call. */
  readonly env?: Readonly<Record<string, unknown>>;
  /** The calling request's `traceparent`, for spans and log lines. */
  readonly traceparent?: string;
  /**
   * The work itself, where the handler deferred it inline (`ctx.defer(fn)`: in process only, as its closure cannot
   * travel); otherwise the tool's declared work runs with `input`.
   */
  readonly work?: DeferredWork;
}

/** This start of the job. */
export interface WorkStart {
  /** The job's id. */
  readonly id: string;
  /** Which start, from 1. */
  readonly attempt: number;
  /** When the job's entry expires, ms since the epoch. */
  readonly expiresAt: number;
  /** No earlier start can have journaled anything (the job's first delivery). */
  readonly fresh: boolean;
  /** A worker runs it from a queue: sleeps hand it back to the queue. */
  readonly queued: boolean;
  /** How long this start waits before the work runs (after a death, the `retry`'s backoff), journaled as a sleep. */
  readonly backoffMs?: number;
  /** Hears each step the work runs: the job's own log, where its queue keeps one (`step-log.ts`, on a worker). */
  readonly observe?: StepObserver;
}

/**
 * Runs the declared work of `owner` once.
 *
 * @param registry The server's registry: its store, clock, logger and settings.
 * @param owner The tool.
 * @param origin The input and the call's caller and metadata.
 * @param start The job and this start of it.
 * @param sink The job (its progress, logs and questions).
 * @param signal Aborts the work.
 * @returns The work's value, which the owner's output check makes the job's result; or, when the run suspended (a
 *   queued `work.sleep()`, the store out of reach as the journal was read or written), its `Suspension`
 *   (`suspension.ts`): the work's own promise then stays pending for good, and the engine ends the run.
 */
export async function runDeclaredWork(
  registry: Registry,
  owner: AnyTool,
  origin: WorkOrigin,
  start: WorkStart,
  sink: CallSink,
  signal: AbortSignal,
): Promise<unknown> {
  const c = continuationsOf(registry.runtime);
  const journalOf = (fresh: boolean) =>
    new Journal({
      id: start.id,
      store: c.journals,
      expiresAt: start.expiresAt,
      now: c.codec.now,
      fresh,
      queued: start.queued,
      suspension,
      observe: start.observe,
    });
  // One suspension for every journal of this start: a run, or a retry's wait, that suspends ends the start.
  const suspension = new Suspension();
  const host = { auth: origin.auth, env: origin.env, waitUntil: undefined };
  // Each retry of a thrown error is a warning in the server's log, naming the tool, the job and the step; with no
  // logger, one line on `console.warn`, as an error is one on `console.error` (`logger: false`: none).
  const retried = (step?: string): OnRetry => (error, retry) => {
    const logger = registry.runtime.logger;
    if (logger !== undefined) {
      return logger.warn({ tool: owner.name, job: start.id, step, retry, error: String(error) }, "retried");
    }
    const where = step === undefined ? "" : `, step ${JSON.stringify(step)}`;
    const line = `mcplite: tool ${
      JSON.stringify(owner.name)
    } retried (job ${start.id}${where}, retry ${retry}): ${error}`;
    console.warn(line.replace(/\s*[\r\n]+\s*/g, " "));
  };
  // A queued job's question (`work.elicit()` and the like) is a durable wait, as `work.waitFor()` is: an answer given
  // while the job was back in its queue waits in its entry; with none, the question joins those the entry lists
  // (`input_required`, as `tasks/get` shows them), the answers kept there kept, and after a short gathering (questions
  // asked at once, in parallel branches, are listed together) the start suspends until the job's last second, an
  // answer waking it. One question at a time reads and writes the entry (its questions merge, none lost).
  const askUntil = start.expiresAt - 1_000;
  let asking: Promise<unknown> = Promise.resolve();
  const ask = (key: string, request: InputRequest): Promise<{ value: unknown } | undefined> => {
    const asked = asking.then(async () => {
      const entry = await c.results.get(start.id);
      const open = entry?.status === "working" || entry?.status === "input_required" ? entry : undefined;
      const given = open?.answers?.[key];
      if (given !== undefined && isInputAnswer(request.method, given)) return { value: given };
      const at = c.codec.now();
      const requests = { ...open?.status === "input_required" ? open.requests : {}, [key]: request };
      const question: StoredResult = {
        status: "input_required",
        requests,
        ...open?.answers === undefined ? {} : { answers: open.answers },
        at,
      };
      await c.results.set(start.id, question, Math.max(1, start.expiresAt - at));
      return undefined;
    });
    asking = asked.catch(() => {});
    return asked.then(async (found) => {
      if (found !== undefined) return found;
      await sleep(QUESTION_GATHER_MS, signal).catch(() => {});
      return undefined;
    });
  };
  // One run of the work: a journal of its own (a retry takes the same step names again) and its attempt.
  // The first run shares the journal the retries read (one load to resume); a retry opens it again, as it now stands.
  const first = journalOf(start.fresh);
  const once = async (attempt: number, fresh: boolean) => {
    const journal = attempt === start.attempt ? first : journalOf(fresh);
    const work = new WorkCallContext(
      { name: owner.name, signal, meta: origin.meta, host },
      sink,
      registry.runtime.logger,
      { id: start.id, attempt, journal, retried, registry, ...start.queued ? { ask, askUntil } : {} },
    );
    c.signals?.attach(work, journal, start, origin.meta); // `work.waitFor()`, where the server has `signals()`
    if (origin.traceparent !== undefined) work.set(TRACE_PARENT, origin.traceparent);
    if (hasConfig(registry, owner)) {
      setConfig(work, await configFor(registry, owner, undefined)); // the server's settings, as a handler reads them
    }
    // Middleware that wraps the work (its `work` hook), outermost first; the work itself innermost.
    const inline = origin.work;
    let next = () => Promise.resolve(inline === undefined ? owner.work!(origin.input, work) : inline(signal));
    for (const each of registry.runtime.middleware.toReversed()) {
      const hook = each.work, inner = next;
      if (hook !== undefined) next = () => hook(work, inner);
    }
    const value = await next();
    if (isToolPromise(value)) throw new TypeError("declared work cannot answer with a promise");
    return value;
  };
  // A suspended wait never settles in the work (no catch, retry wrapper or `finally` of its can see it): the start's
  // suspension settles instead, and the engine ends the run.
  return await Promise.race([
    retryingWork(once, first, owner.longRunning?.retry, start, signal, retried()),
    suspension.ended,
  ]);
}

/**
 * How long a queued job's start waits after publishing a question before it suspends, in ms: the questions its
 * parallel branches ask meanwhile are listed with it, so that the client answers them in one round.
 */
const QUESTION_GATHER_MS = 250;

/** Who runs a job's work this time: its id, its start and its journal. */
export interface WorkRun {
  /** A queued job's: reads a question's answer given meanwhile, else publishes the question (the entry). */
  readonly ask?: (key: string, request: InputRequest) => Promise<{ value: unknown } | undefined>;
  /** Until when a queued job's question waits, ms since the epoch. */
  readonly askUntil?: number;
  /** The job's id. */
  readonly id: string;
  /** Which start, from 1. */
  readonly attempt: number;
  /** The job's journal, as this start sees it. */
  readonly journal: Journal;
  /** Hears the retries of a step (`work.step(name, fn, { retry })`), given its name. */
  readonly retried?: (step: string) => OnRetry;
  /** The server's registry, where the work's children (`invoke()`) are found and started. */
  readonly registry?: Registry;
}

/** The {@link WorkContext} of one start of a job: a call context whose steps and sleeps are journaled. */
export class WorkCallContext extends ToolCallContext implements WorkContext {
  declare readonly jobId: string;
  declare readonly attempt: number;
  /** This start of the job, for the engine (`invoke()`). */
  declare readonly run: WorkRun;

  /**
   * Makes the context.
   *
   * @param source The work's origin: the tool, signal, metadata and caller.
   * @param sink The job: progress, logs and questions go there.
   * @param logger The server's logger.
   * @param run The job's id, start and journal.
   */
  constructor(source: ContextSource, sink: CallSink, logger: ServerLogger | undefined, run: WorkRun) {
    super(source.name, source.signal, source.meta, sink, source.host, logger);
    this.jobId = run.id;
    this.attempt = run.attempt;
    this.run = run;
  }

  // `signals()` gives the working ones (`signals.ts`, outside the default bundle); without it, a tool error naming it.
  waitFor(): Promise<never> {
    return needsSignals("work.waitFor()", ToolError);
  }

  signalUrl(): Promise<never> {
    return this.waitFor();
  }

  // Typed `never` to fit both its base's `step` (`ctx.step()`, once per call across input rounds, `T`) and
  // WorkContext's (a journaled step, `Jsonify<T>`, which the work sees): the value is the journal's, as JSON gives it.
  override step<T>(name: string, run: (key: string) => T | Promise<T>, options?: StepOptions): Promise<never> {
    if (!(typeof name === "string" && /^[^~].{0,199}$/s.test(name))) {
      throw new TypeError("work.step(): a name is 1–200 characters, not starting with ~");
    }
    const retry = options?.retry;
    const { journal, retried } = this.run;
    const retrying = retry && retryingStep(journal, name, run, retry, this.signal, retried?.(name));
    return journal.step(name, retrying ?? run) as Promise<never>;
  }

  sleep(ms: number): Promise<void> {
    return this.run.journal.sleep(ms, this.signal);
  }

  // Queued, a question suspends the start until answered (`WorkRun.ask`): a worker restarted while a person decides
  // changes nothing, no worker slot is held, and every later start reads the answer from the journal. In process,
  // the job parks on it (`job.ts`), as a call does.
  override requestInput(key: string, request: InputRequest): Promise<unknown> {
    const { ask, askUntil, journal } = this.run;
    if (ask === undefined || askUntil === undefined) return super.requestInput(key, request);
    const refused = cannotAsk({ input: ask }, this.meta, request);
    if (refused !== undefined) return Promise.reject(refused);
    return journal.answer(`~input:${key}`, () => ask(key, request), askUntil);
  }

  patched(name: string): Promise<boolean> {
    if (!(typeof name === "string" && /^.{1,200}$/s.test(name))) {
      throw new TypeError("work.patched(): a name is 1–200 characters");
    }
    return this.run.journal.patched(name);
  }

  // What a branch of a suspended run reports goes nowhere: that run has ended, and a later one reports again.
  override progress(progress: number, total?: number, message?: string): void {
    if (!this.run.journal.suspension.suspended) super.progress(progress, total, message);
  }

  override log(level: LogLevel, data: unknown, logger?: string): void {
    if (!this.run.journal.suspension.suspended) super.log(level, data, logger);
  }
}

/**
 * Checks a long-running tool as a server adds it: a retry runs only declared work (`.defer()`) again, on any instance,
 * so a tool whose handler can only defer inline work (`ctx.defer(async () => …)`: no `.defer()`, no `.redeem()`) is
 * refused with `retry`, which would need its handler run again. Inline work runs in process, with a queue too. Flow
 * control (`concurrency`, `rateLimit`, `dedupe`, `priority`) is held by the queue every instance shares: a server
 * without one refuses it, rather than hold a limit per instance (docs/concepts/long-running.md, "Flow control").
 *
 * @param tool The tool, long-running.
 * @param queue The server's queue, if it has one.
 * @throws {TypeError} When the tool asks for `retry` and declares no work, or for flow control without a queue; a
 *   `RangeError` or `TypeError` for `.longRunning()` options out of their ranges (`checkLongRunning()`).
 */
export function admitTool(tool: AnyTool, queue: unknown): void {
  const options = tool.longRunning!;
  checkLongRunning(tool.name, options);
  if (!queue && (options.concurrency || options.rateLimit || options.dedupe || options.priority !== undefined)) {
    throw new TypeError(`tool "${tool.name}": flow control needs createServer({ queue })`);
  }
  if (tool.mode !== "handle" || tool.work !== undefined || tool.onRedeem !== undefined) return;
  if (options.retry !== undefined) {
    throw new TypeError(`tool "${tool.name}": with retry, declare its work with .defer()`);
  }
}
