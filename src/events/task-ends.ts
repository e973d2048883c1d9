/**
 * Task events: a long-running tool's end event (`.longRunning({ endEvent })`), raised once when a call's work ends,
 * naming the id its caller holds. That id is made where the call was taken (the promise token, or the MCP task id
 * signed from it), the end where the work ran (a queue's worker): the two halves meet in the job's journal, one entry
 * (`~task-end`), first writer wins (the `JournalStore` contract), and whichever finds the other's half there raises the
 * event with both.
 * Attached with a server's events router, where it has long-running support; a job announced so has its id marked `e.`.
 *
 * @module
 */
import type { TaskEnded } from "../core/definitions/event.ts";
import type { Registry } from "../core/definitions/registry.ts";
import { becomesTask } from "../internal/mcp-wire.ts";
import { continuationsOf } from "../jobs/continuations.ts";
import { PROMISE_KIND } from "../jobs/promise-outcome.ts";
import type { StoredResult } from "../jobs/result-store.ts";
import { untilReachable } from "../jobs/guarded-store.ts";

/** What a job's id starts with when its end raises its tool's end event (`promise-outcome.ts` marks it). */
const ANNOUNCED = "e.";

/** What serves a server's events (its router, `events-router.ts`, which attaches this): by name, its own or a member's. */
interface EventsServed {
  /** Whether it serves an event of that name. */
  has(name: string): boolean;
  /** Raises an event of that name (a grouped member's, by its member). */
  emit(name: string, payload: unknown, options?: { readonly id?: string }): Promise<unknown>;
}

/** One half of the meeting: the caller's (`id`, `tool`) or the end's (`status`, `error`). */
type Half = Partial<TaskEnded>;

/** The journal entry where the halves of a job's end meet: the engine's (`~`), outside the run's order (place 0). */
const MEETING = "~task-end";

/**
 * How a job's final entry reads as an end: a failure is a protocol error, or a result with `isError` (what a thrown
 * error becomes), its message the error's, or the result's text.
 */
function endOf(entry: StoredResult): Half {
  if (entry.status === "cancelled") return { status: "cancelled" };
  if (entry.status === "failed") return { status: "failed", error: entry.error.message };
  if (entry.status !== "completed" || !entry.result.isError) return { status: "completed" };
  const text = entry.result.content.flatMap((block) => block.type === "text" ? [block.text] : []).join("\n");
  return { status: "failed", error: text };
}

/**
 * The name a server serves a tool's end event under: its own (`report.ended`), or, for a grouped member's tool
 * (`shop.report`), the name the group serves the member's event under (`shop.report.ended`: the tool's namespace),
 * the innermost first.
 */
function servedName(router: EventsServed, tool: string, event: string): string | undefined {
  for (let end = tool.length; end >= 0; end--) {
    if (router.has(tool.slice(0, end) + event)) return tool.slice(0, end) + event;
  }
}

/** The key task events listen to jobs' ends under (`Continuations.onEnd`): one listener per server. */
const TASK_ENDS: unique symbol = Symbol("mcplite.taskEnds");

/**
 * Attaches task events to a server that serves events (its router, made once): hears the caller's id
 * (`Continuations.onEnd`), and sees each announced job's final entry as the server's result store takes it (in
 * process, on a worker, a cancellation, a lapsed job's end). A server without long-running support has none.
 *
 * @param registry The server's definitions: its tools and long-running support.
 * @param router What serves the server's events, which raises the end event (a grouped member's, by its member).
 */
export function attachTaskEnds(registry: Registry, router: EventsServed): void {
  if (registry.runtime.continuations === undefined) return;
  const c = continuationsOf(registry.runtime);
  const report = (error: unknown) => void registry.runtime.onError?.(error);
  /** The name its tool's end event is served under, if it is. */
  const eventOf = (tool: string) => {
    const name = registry.get(tool)?.longRunning?.endEvent?.name;
    return name === undefined ? undefined : servedName(router, tool, name);
  };

  /** Writes this half; the second writer raises the event with both. */
  const meet = async (job: string, half: Half, ttlMs: number) => {
    const mine = { name: MEETING, position: 0, value: half, at: c.codec.now() };
    const other = (await c.journals.append(job, mine, Math.max(1, ttlMs))).value as Half | undefined;
    // This side's own half: the first writer's (the other half raises it), or one a try the store failed to answer wrote.
    if (other === undefined || ("status" in other) === ("status" in half)) return;
    const { taskId, tool, status, error } = { ...other, ...half } as TaskEnded;
    const name = eventOf(tool);
    if (name === undefined) return;
    // Its own id: an emit again (a retried write) is one occurrence to receivers, one `webhook-id`. An emit refused
    // (a payload schema that does not take this one, a queue out of reach) is the server's to hear: the call it ends,
    // or the job, has no part in it.
    const payload = error === undefined ? { taskId, tool, status } : { taskId, tool, status, error };
    await router.emit(name, payload, { id: `task-end.${job}` }).catch(report);
  };

  // Once per server: a second attach (another event served) finds its listener registered, and its results seen.
  const registered = c.onEnd(TASK_ENDS, async (outcome, id, call) => {
    const job = outcome.entry;
    if (job === undefined || !job.startsWith(ANNOUNCED)) return;
    const claims = await c.codec.verify(outcome.token, { kind: PROMISE_KIND, caller: outcome.caller });
    const tool = claims.scope as string;
    const ttlMs = claims.expiresAt - c.codec.now();
    if (eventOf(tool) === undefined) {
      await c.cancel(job, ttlMs); // nobody would hear of its end: the call is refused, its work stopped
      const name = registry.get(tool)?.longRunning?.endEvent?.name;
      throw new TypeError(
        `tool "${tool}": its endEvent "${name}" is not served: add it with server.event()`,
      );
    }
    if (call !== undefined && becomesTask(call.ctx.meta)) return; // the task id is handed over as the task is made
    await meet(job, { taskId: id, tool }, ttlMs);
  });
  if (!registered) return;

  // The end's half, as the job's final entry is written (the engine shows it the first final entry of a job, or that
  // write tried again). A store out of reach at the meeting leaves the write alone (a cancellation answers at once)
  // and meets again here until the store answers.
  c.onFinal(TASK_ENDS, async (id, entry, ttlMs) => {
    if (!id.startsWith(ANNOUNCED)) return;
    const half = endOf(entry), until = c.codec.now() + ttlMs;
    const again = (error: unknown) =>
      untilReachable(() => meet(id, half, until - c.codec.now()), until, c.codec.now, { error });
    await meet(id, half, ttlMs).catch((error) => void again(error).catch(report));
  });
}
