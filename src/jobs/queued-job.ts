/**
 * A `.longRunning()` tool's deferred work as a queued job (`createServer({ queue })`): the accepting instance
 * records the entry and queues the call signed and sealed (a tampered queue can neither forge nor read it); a
 * worker runs it and stores the result first-writer-wins. The queue's lock, stalled-job check and start count are
 * the job's life: the store holds its entry and result only, and a job starts no more often than its tool's `retry`
 * allows. Why: docs/guides/many-instances.md, "Workers: a queue".
 *
 * @module
 */
import { isTokenError, TokenError } from "../codec/token-error.ts";
import { UNKNOWN_KEY } from "../codec/token.ts";
import { type CallContext } from "../core/call/call-context.ts";
import type { CallSink } from "../core/call/call-sink.ts";
import type { RunAgain, WorkQueue } from "./work-queue.ts";
import type { CallMeta } from "../core/call/call-meta.ts";
import { type Continuations, continuationsOf, newJobId } from "./continuations.ts";
import { ProtocolError } from "../errors/error.ts";
import type { AuthInfo } from "../core/call/host.ts";
import type { Registry } from "../core/definitions/registry.ts";
import { failureResult } from "../core/results/result.ts";
import { hasEnded, type StoredResult } from "./result-store.ts";
import { waitedOnPerson } from "./waited-on-person.ts";
import type { Suspension } from "./suspension.ts";
import type { AnyTool, LongRunningOptions } from "../core/definitions/tool.ts";
import { QUEUED_JOB, TRACE_PARENT } from "../core/call/trace-context.ts";
import { jobCall } from "./job-call.ts";
import { stepLog } from "./step-log.ts";
import { startRule } from "./start-rule.ts";
import { jobStart } from "./job-start.ts";
import type { JobOutcome, JobWatch, WarnOnce } from "../core/long-running/job-kinds.ts";
import { outOfReach } from "./queue-unavailable.ts";
import { enterFlow } from "./flow-gate.ts";
import { rerunJob, RerunRefused } from "./job-rerun.ts";
import { handedBack, toolElsewhere } from "./tool-elsewhere.ts";

/** The token kind of a queued job: never accepted as a promise, task or input token. */
const JOB_KIND = "job";

/** The warning of a job signed with a secret this worker lacks: delivered again, for a worker that holds it. */
const UNVERIFIED = "mcplite worker: a queued job is signed with a secret this worker lacks (a rollout that changes " +
  "the secret, or another deployment's job): the queue delivers it again later";
/** The warning of a job that is not one of the server's (not a job token, or its signature forged): refused. */
const REFUSED = "mcplite worker: refused a queued job that is not one this server made (not a job token, or a " +
  "forged signature): the queue drops it";

/** What failed a job whose run ended with its entry still working (the store lost it, or refused its result). */
const UNENDED = "The job's run ended but its entry did not: the result store lost it or refused its result";

/** Request headers a job does not carry: credentials stay with the request (the caller travels as `auth`). */
const UNCARRIED_HEADERS = /^(authorization|cookie|proxy-authorization|dpop)$/;

/** What a queued job carries, signed and sealed with the server's token secret. */
interface JobState {
  /** The result-store entry. */
  readonly d: string;
  /** The call's arguments. */
  readonly a: unknown;
  /** The caller, without its raw credential. */
  readonly u?: AuthInfo;
  /** The request's metadata, its headers as pairs. */
  readonly m: Omit<CallMeta, "headers"> & { readonly headers: [string, string][] };
  /** The issuing call's `traceparent`, for the worker's span. */
  readonly t?: string;
  /** The parent job's id, for a child (`invoke()`): its end wakes the parent (`WorkQueue.wake`). */
  readonly p?: string;
  /**
   * When the call queued it, in ms since the epoch, to the microsecond: its place in its flow-control key's line
   * (first come first served, `flow-gate.ts`); a job queued before it was carried waits by its token's time.
   */
  readonly o?: number;
}

/** The call a queued job comes from. */
export interface QueuedCall {
  /** The tool, which runs the job. */
  readonly owner: AnyTool;
  /** Its arguments. */
  readonly args: unknown;
  /** The call's context: its caller, metadata and trace. */
  readonly ctx: CallContext;
  /** The parent job's id, when the call is a child's (`invoke()`): the child's end wakes it. */
  readonly parent?: string;
}

/**
 * Records a queued job's entry as working and adds the job to the server's queue.
 *
 * @param c The server's continuations, with a queue.
 * @param call The tool, the arguments and the call's context.
 * @param ttlMs How long the entry (and the job) lasts.
 * @param id Its id: a new one, or the one a parent journaled for its child (`invoke()`).
 * @returns The entry id.
 * @throws {ProtocolError} `unavailable` when the store or the queue is out of reach (nothing runs).
 */
export async function enqueueJob(c: Continuations, call: QueuedCall, ttlMs: number, id = newJobId()): Promise<string> {
  const { auth, meta } = call.ctx;
  await c.results.set(id, { status: "working", at: c.codec.now() }, ttlMs);
  // Never the raw credential (MCP 2025-11-25, Authorization: no token passthrough): the caller travels as `u`.
  const { token: _token, ...u } = auth ?? {};
  const headers = [...meta.headers].filter(([name]) => !UNCARRIED_HEADERS.test(name));
  const state: JobState = {
    d: id,
    a: call.args ?? {},
    u: auth && u,
    m: { ...meta, headers },
    t: call.ctx.get(TRACE_PARENT),
    ...call.parent === undefined ? {} : { p: call.parent },
    ...call.owner.longRunning?.concurrency === undefined ? {} : { o: arrivedNow() },
  };
  let data: string | undefined;
  let kept: string | void;
  try {
    data = await c.codec.sign({ kind: JOB_KIND, scope: call.owner.name, state, ttlMs });
    // Its tool's flow control, read by the queue (`priority`, `dedupe`) with the arguments and caller its keys read.
    const flow = { options: call.owner.longRunning as LongRunningOptions<unknown>, input: call.args, auth };
    kept = await c.queue!.add(id, data, { tool: call.owner.name, callId: meta.requestId ?? undefined }, flow);
  } catch (error) {
    // Kept all the same (its answer lost), a job its queue cannot remove runs: as the job of a call sent again would.
    if (data !== undefined) await c.queue!.remove?.(id).catch(() => {});
    await c.results.set(id, { status: "cancelled", at: c.codec.now() }, ttlMs).catch(() => {});
    // Not signed (over `tokens.maxBytes`): no queue can carry it, and sending it again will not help. Not queued: the
    // queue is out of reach, which sending it again may mend.
    // Its flow refused (a `RangeError`: a priority out of range, a key that threw) fails the call as it is, too.
    throw data === undefined || error instanceof RangeError ? error : outOfReach(error, c.retryAfterMs);
  }
  // Deduplicated (`dedupe`): the call joins the job the queue kept, and answers its result; its own entry goes.
  const job = kept || id;
  if (job !== id) c.results.delete(id).catch(() => {});
  call.ctx.set(QUEUED_JOB, job); // telemetry records the enqueue on the call's span
  return job;
}

/**
 * Runs a job a worker took from the queue: checks it, ends it as stopped when the queue's start is past what its
 * tool's `retry` allows, and runs its work here until the result is stored.
 *
 * @param registry The worker's registry (the same server module as the instance that queued it).
 * @param data The job, as queued.
 * @param delivery Which start of the job this delivery is, from 1, as the queue counts them, and whether it is the
 *   job's first delivery of all (`WorkQueue.take`).
 * @param queue The queue handle the job was taken from: its progress goes there (the handle running it).
 * @param stop Aborts when the worker shuts down: a job still running then is given back to the queue.
 * @param watch What telemetry hears of the job, when there is telemetry.
 * @param warn Where a job refused, or one this worker cannot verify, is told (once, as a warning).
 * @returns `"done"` when the job ended (or expired, or was not this worker's to run), `"again"` when
 *   `stop` ended it first, `{ delayMs }` when its work sleeps (`work.sleep()`: deliver it again then) or its tool
 *   is another version's (a rolling deploy: `tool-elsewhere.ts`), `"refused"` when it is no job of the server's (not
 *   a job token, or its signature fails under a secret this worker holds): never delivered again.
 * @throws {ProtocolError} `unavailable` when the store is out of reach, or the `TokenError` of a job signed
 *   with a secret this worker lacks (its key id unknown): the queue delivers it again later.
 */
export async function runQueuedJob(
  registry: Registry,
  data: string,
  delivery: Delivery,
  queue: WorkQueue,
  stop: AbortSignal,
  watch?: JobWatch,
  warn?: WarnOnce,
): Promise<"done" | "again" | "refused" | { readonly delayMs: number } | { readonly failed: string }> {
  let ended: Ended;
  const of: { parent?: string } = {}; // whose child the job is, once its token is read
  try {
    ended = await runDelivery(registry, data, delivery, queue, stop, watch, warn, of);
  } catch (error) {
    watch?.end("failed", undefined, error);
    throw error;
  }
  watch?.end(ended.outcome, ended.attempt, ended.error);
  // A child's end wakes its parent, which waits for it asleep on the queue (child-work.ts): its safety poll is long.
  if (of.parent !== undefined && ENDS.has(ended.outcome) && queue.wake !== undefined) {
    await queue.wake(of.parent).catch((error) => registry.runtime.onError?.(error));
  }
  if (ended.refused) return "refused";
  if (ended.delayMs !== undefined) return { delayMs: ended.delayMs };
  if (ended.failed !== undefined) return { failed: ended.failed };
  // Cancelled (by its caller, or an operator's `mcplite jobs cancel`) while it ran, or before: never "completed" where
  // operators look (Bull Board, `mcplite jobs show`), which a queue's done would show (issue 100, item 5).
  if (ended.outcome === "cancelled") return { failed: CANCELLED };
  return ended.outcome === "again" ? "again" : "done";
}

/** Why a cancelled job failed, as a queue keeps it for operators: what its caller reads is its entry, cancelled. */
const CANCELLED = "cancelled";

/** The outcomes that end a job: its entry holds its end. */
const ENDS: ReadonlySet<JobOutcome> = new Set(["completed", "failed", "cancelled", "stopped"]);

/** One delivery of a job, as its queue tells it (`WorkQueue.take`'s `run`). */
export interface Delivery {
  /** Which start of the job it is, from 1. */
  readonly start: number;
  /** It is the job's first delivery of all. */
  readonly first?: boolean;
  /** An operator asked for the job to run again after it failed. */
  readonly again?: RunAgain;
}

/** How a job a worker took ended there. */
interface Ended {
  readonly outcome: JobOutcome;
  readonly attempt?: number;
  readonly error?: unknown;
  readonly refused?: true;
  /** How long its work sleeps (a durable sleep), when it does: the queue delivers it again then. */
  readonly delayMs?: number;
  /** Why it failed, as its caller reads it, when this run ended it as a failure: the queue keeps it as failed. */
  readonly failed?: string;
}

/** {@link runQueuedJob}, saying how the job ended (one delivery of it; `job-run.ts`'s `runJob()` runs the work itself). */
async function runDelivery(
  registry: Registry,
  data: string,
  { start, first, again }: Delivery,
  queue: WorkQueue,
  stop: AbortSignal,
  watch: JobWatch | undefined,
  warn: WarnOnce | undefined,
  of: { parent?: string },
): Promise<Ended> {
  const c = continuationsOf(registry.runtime);
  let scope: string, state: JobState, expiresAt: number, issuedAt: number;
  try {
    if (typeof data !== "string") throw new TokenError("malformed"); // no job token of the server's
    const claims = await c.codec.verify(data, { kind: JOB_KIND });
    ({ scope, expiresAt, issuedAt } = claims);
    state = claims.state as JobState;
  } catch (error) {
    // Expired: its entry and token expired with it. Signed with a secret this worker lacks (a rollout that changed
    // it): the queue delivers it again later, maybe to a worker that has it. Anything else (not a job token, a
    // signature that fails under a key this worker holds) is no job of the server's: refused, never run again. What
    // is no verdict on the token (a secret the worker cannot load, Web Crypto failing) is the worker's: delivered again.
    if (!isTokenError(error)) throw error;
    if (error.reason === "expired") return { outcome: "skipped" };
    if (error.reason === "bad_mac" && error.cause === UNKNOWN_KEY) {
      warn?.(UNVERIFIED);
      throw error;
    }
    warn?.(REFUSED);
    return { outcome: "failed", error, refused: true };
  }
  if (again !== undefined) {
    // An operator's run again (Bull Board's Retry, `mcplite jobs retry`): a new run whose journal holds the old one's
    // steps before `from` (`job-rerun.ts`), the queue keeping its job before it begins; the old entry stays as it ended.
    let rerun: string;
    try {
      rerun = await rerunJob(c, state.d, c.promiseTtlMs, again.from);
    } catch (error) {
      if (!(error instanceof RerunRefused)) throw error;
      return { outcome: "failed", error, failed: error.message }; // failed again, saying why, where operators look
    }
    const { p: _parent, ...own } = state; // a parent that ended long ago waits for no new run
    const job = await c.codec.sign({ kind: JOB_KIND, scope, state: { ...own, d: rerun }, ttlMs: c.promiseTtlMs });
    await again.replace(job);
    return await runDelivery(registry, job, { start: 1, first: false }, queue, stop, watch, warn, of);
  }
  of.parent = state.p;
  const own = watch?.read({ id: state.d, tool: scope, queuedAt: issuedAt, traceparent: state.t });
  const ttlMs = Math.max(1, expiresAt - c.codec.now());
  // A job's first delivery from a queue that takes cancelled jobs out (`WorkQueue.remove`) is no cancelled one: it
  // runs without reading its entry first (one store round trip less per job). Otherwise its entry is read: a job
  // finished, cancelled or lost meanwhile is not run.
  let entry: StoredResult | undefined;
  if (first !== true || queue.remove === undefined) {
    entry = await c.results.get(state.d);
    if (entry === undefined || hasEnded(entry)) return { outcome: "skipped" };
  }
  const owner = registry.get(scope);
  if (owner?.work === undefined || owner.longRunning === undefined) {
    // Another version of the server's module (a rolling deploy): back to the queue, for a worker that has the tool.
    const verdict = toolElsewhere(scope, issuedAt, c.codec.now());
    if ("delayMs" in verdict) {
      warn?.(handedBack(scope));
      return { outcome: "delayed", delayMs: verdict.delayMs };
    }
    const message = verdict.failed;
    await c.results.set(state.d, { status: "completed", result: failureResult(message), at: c.codec.now() }, ttlMs);
    const error = new ProtocolError("unknown_tool", message);
    registry.runtime.onError?.(error, jobCall(scope, state.a, metaOf(state), { id: state.d, attempt: start }, state.t));
    return { outcome: "failed", error, failed: message };
  }
  // A job that was waiting on a person (a question listed, or answered and not yet read) lost no start when its worker
  // died: after listing the question, before its start suspended (the questions' gathering), the answer perhaps given
  // before the queue delivered it again.
  const waited = start > 1 && await waitedOnPerson(entry, c.journals, state.d);
  const rule = waited ? { backoffMs: undefined } : startRule(owner.longRunning.retry, start);
  if ("stopped" in rule) {
    // Every start it may have had was taken by a worker that stopped before it finished (the queue counts them;
    // first writer wins: a result its last worker stored meanwhile stands).
    const message = rule.stopped;
    const stopped = { status: "completed", result: failureResult(message), at: c.codec.now() } as const;
    if (!await c.results.set(state.d, stopped, ttlMs)) return { outcome: "skipped" }; // its result stands
    const call = jobCall(scope, state.a, metaOf(state), { id: state.d, attempt: start }, own ?? state.t);
    registry.runtime.onError?.(new ProtocolError("internal", message), call); // one line, as a failure in process has
    return { outcome: "stopped", attempt: start, failed: message };
  }
  // The handler's request span (`otel()`) is a child of the job's: the trace context it reads is the job span's.
  // The work's log lines and spans belong to the job's span, a child of the call's (`own`), else the call's.
  const requestMeta = own === undefined ? state.m.requestMeta : { ...state.m.requestMeta, traceparent: own };
  const meta: CallMeta = { ...metaOf(state), requestMeta };
  const origin = { input: state.a, auth: state.u, meta, traceparent: own ?? state.t };
  // What its failures are reported with: the tool, the call's request id and trace, the job and this start of it.
  const call = jobCall(scope, state.a, meta, { id: state.d, attempt: start }, origin.traceparent);
  // A start after a death waits the retry's backoff, a durable sleep of the work's journal: once, its slot free meanwhile.
  // The job's first delivery of all has no journal to read: its steps run without a read first (one round trip).
  // Its steps, to the job's own log, where the queue keeps one (Bull Board shows BullMQ's).
  const observe = queue.log && stepLog((line) => queue.log!(state.d, line), start);
  const begun = { id: state.d, attempt: start, expiresAt, fresh: first === true, queued: true, observe, ...rule };
  // Within its key's concurrency and rate (held in the store, across workers), or back to the queue until it is.
  const { concurrency, rateLimit } = owner.longRunning;
  const pass = concurrency ?? rateLimit
    ? await enterFlow(
      { store: c.store, now: () => c.codec.now(), leaseMs: c.leaseMs!, ended: (id) => endedEntry(c, id) },
      scope,
      owner.longRunning,
      state.a,
      state.u,
      { id: state.d, ttlMs, arrived: state.o ?? issuedAt, wake: queue.wake && ((id) => queue.wake!(id)) },
    )
    : undefined;
  if (pass !== undefined && "delayMs" in pass) return { outcome: "delayed", attempt: start, delayMs: pass.delayMs };
  const { work: declared, options } = jobStart(registry, owner, origin, begun, call);
  const work: typeof declared = (signal) => (pass?.begin?.(), declared(signal));
  let end: { entry: StoredResult; cause?: unknown } | undefined;
  const slept = await c.runQueued(state.d, work, ttlMs, {
    ...options,
    bind: (job) => options.bind(sharing(job, queue, state.d)),
    stop,
    onEnd: (entry, cause) => end = { entry, cause },
  }).finally(() => pass?.release());
  if (slept !== undefined) return { outcome: "delayed", attempt: start, delayMs: delayOf(slept, c.codec.now()) };
  const failed = end === undefined ? undefined : failureOf(end.entry);
  if (failed !== undefined) {
    // Unexpected errors were reported as they became the failure (maskErrors' reference with them); a timeout, or a
    // protocol error the work threw, is said here, once.
    if (end!.entry.status === "failed") registry.runtime.onError?.(end!.cause, call);
    return { attempt: start, ...endedAs(end!.entry), failed };
  }
  // Its end written by its run (`end`), and nobody asks how: done. Cut short (cancelled, expired), its entry says.
  if (!stop.aborted && watch === undefined && end !== undefined) return { outcome: "completed", attempt: start };
  const ended = await c.results.get(state.d);
  if (ended !== undefined && hasEnded(ended)) return { attempt: start, ...endedAs(ended) };
  if (!stop.aborted) return { outcome: "failed", attempt: start, error: new ProtocolError("unavailable", UNENDED) };
  // Stopped through its signal as the worker shut down, not cut off: given back with the job, which the next worker
  // starts as this one (the queue counts no start for it).
  return { outcome: "again", attempt: start };
}

/** Whether a job's entry has ended, or the store no longer holds it. */
async function endedEntry(c: Continuations, id: string): Promise<boolean> {
  const entry = await c.results.get(id);
  return entry === undefined || hasEnded(entry);
}

/** Now, in ms since the epoch to the microsecond (calls queued within one millisecond keep their order). */
function arrivedNow(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1_000) / 1_000;
}

/** The request metadata a job carries, its headers made `Headers` again. */
function metaOf(state: JobState): CallMeta {
  return { ...state.m, headers: new Headers(state.m.headers) };
}

/**
 * Why an entry is a failure, as its caller reads it (a protocol error's message, a failure result's text: the
 * error's message, or `maskErrors`' "Internal error (reference …)"); `undefined` when it is none.
 */
function failureOf(entry: StoredResult): string | undefined {
  if (entry.status === "failed") return entry.error.message;
  if (entry.status !== "completed" || entry.result.isError !== true) return undefined;
  const text = entry.result.content.flatMap((each) => each.type === "text" ? [each.text] : []).join(" ");
  return text === "" ? "The tool answered with an error" : text;
}

/** How long until a suspended run's wake time, in ms (none when it is past). */
function delayOf(slept: Suspension, now: number): number {
  return Math.max(0, (slept.untilMs ?? now) - now);
}

/** How a job whose entry ended ended: its result, a failure the store recorded, or a cancellation. */
function endedAs(entry: StoredResult): { outcome: JobOutcome; error?: unknown } {
  if (entry.status === "cancelled") return { outcome: "cancelled" };
  if (entry.status === "failed") return { outcome: "failed", error: entry.error };
  return { outcome: entry.status === "completed" && entry.result.isError === true ? "failed" : "completed" };
}

/** The job's sink, its progress and logs also handed to the queue (for `watch` on every instance), when it carries them. */
function sharing(job: CallSink, queue: WorkQueue, id: string): CallSink {
  if (queue.progress === undefined) return job;
  return {
    progress: (progress, total, message) => {
      job.progress?.(progress, total, message);
      queue.progress!(id, {
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    },
    log: (level, data, logger) => {
      job.log?.(level, data, logger);
      queue.progress!(id, { log: { level, data, ...(logger === undefined ? {} : { logger }) } });
    },
    input: job.input?.bind(job),
  };
}
