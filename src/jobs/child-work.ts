/**
 * Child work (`invoke()`): another tool's declared work run as a job of its own from a parent's work, with the
 * parent's caller. The parent's journal keeps the child's id (before it starts) and its end, so a parent started again
 * (a retry, a worker `kill -9`'d) never starts it twice and still gets its result; cancelling the parent cancels it
 * (`Continuations.cancel`). As Inngest's `step.invoke` and Temporal's child workflows. Why:
 * docs/concepts/long-running.md, "Child work".
 *
 * @module
 */
import type { AnyTool, InferToolInput, InferToolOutput } from "../core/definitions/tool.ts";
import type { WorkContext } from "../core/long-running/work-context.ts";
import type { Jsonify } from "../core/long-running/jsonify.ts";
import type { ToolResult } from "../core/results/result.ts";
import { TRACE_PARENT } from "../core/call/trace-context.ts";
import { ChildWorkError } from "../errors/child-work-error.ts";
import { type ErrorCode, ProtocolError } from "../errors/error.ts";
import { sleep } from "../internal/sleep.ts";
import { type Continuations, continuationsOf, newJobId } from "./continuations.ts";
import { WorkCallContext, type WorkOrigin } from "./declared-work.ts";
import { jobStart } from "./job-start.ts";
import { enqueueJob } from "./queued-job.ts";
import { hasEnded, type StoredResult } from "./result-store.ts";
import { isUnavailable } from "./guarded-store.ts";

/** How often a parent in process reads the entry of a child another instance runs, in ms. */
const POLL_MS = 250;
/**
 * The longest a queued parent leaves the queue between two reads of a child's entry, in ms, on a queue that cannot
 * wake it (`WorkQueue.wake`); on one that can, the child's end wakes it, and this is the safety poll for a wake
 * missed (the queue out of reach as the child ended), {@link SAFETY_MS}.
 */
const MAX_WAIT_MS = 5_000;
/** How long a queued parent sleeps between reads of its child's entry when the child's end wakes it, in ms. */
const SAFETY_MS = 60_000;

/** What a parent's journal keeps of a child's end: its value, or why it gave none. */
type ChildEnd =
  | { readonly v: unknown }
  | { readonly e: { message: string; status: "failed" | "cancelled"; code?: ErrorCode | number; data?: unknown } };

/** A run's children waiting on a queue: the run suspends once every one of them is waiting (all started). */
interface Waiting {
  begun: number;
  parked: number;
  until: number;
}

/**
 * Runs `tool`'s declared work as a child job of the work `work` belongs to, and answers its value: started once per
 * parent job (its id journaled as `~child:<name>` before it starts), with the parent's caller, metadata and trace,
 * in process or on the queue as the parent; its end journaled as `~ended:<name>`. On a queue the parent waits without
 * a worker slot (it goes back to the queue, as at a `work.sleep()`, and reads the child's entry when it wakes);
 * in process it awaits the child. Both entries take their places as `invoke()` is called, so a `Promise.all` of
 * invocations is journaled in the order of the calls, whatever order the children end in. Cancelling the parent
 * cancels its children that still run.
 *
 * @typeParam T The child's tool: its input and output type the call.
 * @param work The parent's work context (the second parameter of its `.defer()`).
 * @param name The invocation's name, unique within the parent job as a step's is (1–190 characters, not starting
 *   with `~`): name each of a loop by what it works on.
 * @param tool The child's tool, added to the same server, with declared work (`.longRunning().defer()`).
 * @param input The child's input, checked against its input schema as a call's arguments are.
 * @returns The child's value as its caller reads it: its structured content, else its text.
 * @throws {ChildWorkError} When the child failed (a `ToolError`, a timeout, its input refused) or was cancelled.
 * @throws {TypeError} When `work` is no declared work's context, the server has no such tool with declared work, or
 *   the name is refused or used twice.
 *
 * @example Three children in parallel, each started once, their results in call order
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, invoke } from "../../mod.ts";
 *
 * const resize = defineTool("resize")
 *   .input(v.object({ image: v.string(), width: v.number() }))
 *   .output(v.object({ url: v.string() }))
 *   .longRunning()
 *   .defer(async ({ image, width }, work) => ({
 *     url: await work.step("render", () => `https://cdn.example/${image}@${width}.png`),
 *   }));
 * const thumbnails = defineTool("thumbnails")
 *   .input(v.object({ image: v.string() }))
 *   .longRunning()
 *   .defer(async ({ image }, work) => {
 *     const sizes = [64, 128, 256];
 *     const made = await Promise.all(sizes.map((width) => invoke(work, `resize:${width}`, resize, { image, width })));
 *     return { urls: made.map((each) => each.url) };
 *   });
 * const server = createServer({ name: "images", version: "1.0.0" }).tool(resize).tool(thumbnails);
 * let called = await server.call("thumbnails", { image: "cat" });
 * for (let i = 0; i < 200 && called.kind === "promise"; i++) {
 *   await new Promise((resolve) => setTimeout(resolve, 5));
 *   called = await server.call("redeem", { promise: called.token });
 * }
 * assert.equal(called.kind, "answer");
 * ```
 */
export async function invoke<T extends AnyTool>(
  work: WorkContext,
  name: string,
  tool: T,
  input: InferToolInput<T>,
): Promise<Jsonify<InferToolOutput<T>>> {
  const registry = work instanceof WorkCallContext ? work.run.registry : undefined;
  if (registry === undefined) {
    throw new TypeError("invoke(): pass the work's context (the second parameter of .defer())");
  }
  if (!(typeof name === "string" && /^[^~].{0,189}$/s.test(name))) {
    throw new TypeError("invoke(): a name is 1–190 characters, not starting with ~");
  }
  const owner = registry.get(tool?.name, tool);
  if (owner?.work === undefined || owner.longRunning === undefined) {
    throw new TypeError(
      `invoke(): this server has no tool "${tool?.name}" with declared work (.longRunning().defer())`,
    );
  }
  const { journal } = (work as WorkCallContext).run;
  const c = continuationsOf(registry.runtime);
  const waiting = ((work as WorkCallContext).run as { waiting?: Waiting }).waiting ??= {
    begun: 0,
    parked: 0,
    until: 0,
  };
  waiting.begun++;
  // Both entries take their places now, in the order of the calls (none is awaited in between).
  const id = journal.step(`~child:${name}`, newJobId);
  const ended = journal.step(`~ended:${name}`, async () => {
    const origin: WorkOrigin = {
      input: await checked(owner, input),
      auth: work.auth,
      meta: work.meta,
      env: work.env,
      traceparent: (work as WorkCallContext).get(TRACE_PARENT),
    };
    return await childEnd(c, owner, origin, await id, work as WorkCallContext, waiting);
  }) as Promise<ChildEnd>;
  id.catch(() => {}); // its failure is the end's
  let end: ChildEnd;
  try {
    end = await ended;
  } finally {
    waiting.begun--;
  }
  if ("e" in end) throw new ChildWorkError(owner.name, end.e.message, end.e);
  return end.v as Jsonify<InferToolOutput<T>>;
}

/** The child's input as its work takes it: checked against its tool's input schema. */
async function checked(owner: AnyTool, input: unknown): Promise<unknown> {
  const result = await owner.input.validate(input ?? {});
  if (result.ok) return result.value;
  const issues = result.issues.map((issue) => issue.message).join("; ");
  throw new ProtocolError("invalid_params", `invoke(): the input of tool "${owner.name}" is refused: ${issues}`);
}

/**
 * Starts the child unless its entry says it started, then waits for its end: in process, as its job runs (restarted
 * here when its lease lapsed and its tool retries); on a queue, back to the queue until it may have ended.
 */
async function childEnd(
  c: Continuations,
  owner: AnyTool,
  origin: WorkOrigin,
  id: string,
  work: WorkCallContext,
  waiting: Waiting,
): Promise<ChildEnd> {
  const { registry, journal } = work.run;
  const ttlMs = owner.longRunning!.ttlMs ?? c.promiseTtlMs;
  let entry = await c.results.get(id);
  if (entry === undefined) {
    // Its id is journaled: a start after this one finds its entry and does not start it again.
    if (c.queue !== undefined) {
      await enqueueJob(c, { owner, args: origin.input, ctx: work, parent: work.jobId }, ttlMs, id);
    } else {
      const start = { id, attempt: 1, expiresAt: c.codec.now() + ttlMs, fresh: true, queued: false };
      const { work: run, options } = jobStart(registry!, owner, origin, start);
      await c.start(run, ttlMs, { ...options, id });
    }
    entry = { status: "working", at: c.codec.now() };
  }
  const retry = owner.longRunning!.retry;
  const again = retry && {
    retry,
    start: (s: { id: string; attempt: number; expiresAt: number; backoffMs?: number }) =>
      jobStart(registry!, owner, origin, { ...s, fresh: false, queued: false }),
  };
  for (;;) {
    // A child cancelled with its parent: the parent's run ends unseen (its queue finds its entry ended), not failed.
    if (entry.status === "cancelled" && hasEnded(await c.results.get(work.jobId) ?? entry)) {
      return await journal.suspension.suspend(c.codec.now());
    }
    if (hasEnded(entry)) return endOf(entry);
    if (c.queue !== undefined) {
      // Back to the queue, holding no slot, once every child of this run has started (none is left half started).
      const waited = c.codec.now() - ("at" in entry ? entry.at ?? 0 : 0);
      const wait = c.queue.wake !== undefined ? SAFETY_MS : Math.min(MAX_WAIT_MS, Math.max(POLL_MS, waited / 2));
      const until = c.codec.now() + wait;
      waiting.until = waiting.parked++ === 0 ? until : Math.min(waiting.until, until);
      while (waiting.parked < waiting.begun) await sleep(10, work.signal);
      return await journal.suspension.suspend(waiting.until);
    }
    await (c.settled(id) ?? sleep(POLL_MS, work.signal));
    try {
      entry = await c.read(id, ttlMs, again) ?? { status: "failed", error: { code: "internal", message: "lost" } };
    } catch (error) {
      // A store outage as the parent reads its child's end: waited out, as a signal's wait does (signals.ts), rather
      // than the parent failing while its child's end is kept.
      if (!isUnavailable(error)) throw error;
      await sleep(c.retryAfterMs, work.signal);
    }
  }
}

/** A child's end as its parent's journal keeps it. */
function endOf(entry: StoredResult): ChildEnd {
  if (entry.status === "completed" && entry.result.isError !== true) {
    return { v: entry.result.structuredContent ?? textOf(entry.result) };
  }
  if (entry.status === "cancelled") return { e: { status: "cancelled", message: "it was cancelled" } };
  if (entry.status === "failed") {
    const { code, message, data } = entry.error;
    return { e: { status: "failed", message, code, ...data === undefined ? {} : { data } } };
  }
  return { e: { status: "failed", message: entry.status === "completed" ? textOf(entry.result) : entry.status } };
}

/** A result's text content, joined. */
function textOf(result: ToolResult): string {
  return result.content.flatMap((each) => each.type === "text" ? [each.text] : []).join("\n");
}
