/**
 * An operator's run again of a job that failed or was cancelled (issue 100, item 5: Bull Board's Retry, `mcplite jobs
 * retry [--from <step>]`): a new run under a new id, its journal a copy of the old run's completed steps before `from`,
 * as Trigger.dev's replay and DBOS's fork make a new run. The old entry stays as it ended (what its caller read: an MCP
 * task's terminal status never changes, MCP 2026-07-28 Tasks); the store keeps which run replaced which.
 *
 * @module
 */
import { storeSpace } from "../store/store-space.ts";
import type { Continuations } from "./continuations.ts";
import { newJobId } from "./continuations.ts";
import { hasEnded, type StoredResult } from "./result-store.ts";
import type { JournalEntry } from "./journal-store.ts";

/** Why a job cannot run again: its message names what the operator can do. */
export class RerunRefused extends Error {
  override readonly name = "RerunRefused";
}

/** The runs a job's reruns link: the run that replaced it (`as`), and the one it replaced (`of`). */
export interface Reruns {
  readonly as?: string;
  readonly of?: string;
}

/** Where the links live: a namespace of the server's shared store. */
const spaceOf = (c: Continuations) => storeSpace<string>(c.store, "reruns");

/**
 * Makes the new run of a job that ended as a failure (or was cancelled): its entry working, its journal the old one's
 * completed steps before the step `from` (all of them without it), linked both ways. Made once: asked again (the
 * delivery that asked was cut short), it answers the same run.
 *
 * @param c The server's engine.
 * @param old The job that ended.
 * @param ttlMs How long the new run's entry, journal and links last.
 * @param from The step to run again, and every one after it.
 * @returns The new run's id.
 * @throws {RerunRefused} For a job still running, one that completed, one the store no longer holds, or a `from` its
 *   journal has no step of; a `ProtocolError` `unavailable` while the store is out of reach.
 */
export async function rerunJob(c: Continuations, old: string, ttlMs: number, from?: string): Promise<string> {
  const space = spaceOf(c);
  const made = await space.get(`as:${old}`);
  if (made !== undefined) return made;
  const [entry, journal] = await Promise.all([c.results.get(old), c.journals.load(old)]);
  const refused = rerunRefusal(old, entry, journal, from);
  if (refused !== undefined) throw new RerunRefused(refused);
  const cut = from === undefined ? undefined : journal.find((step) => step.name === from);
  // Its steps in their order (a retry's wait, outside that order, and the old run's start claims stay behind).
  const kept = journal.filter((step) =>
    step.position > 0 && !step.name.startsWith("~attempt:") && (cut === undefined || step.position < cut.position)
  );
  const id = newJobId();
  if (!await space.putIfAbsent(`as:${old}`, id, ttlMs)) return (await space.get(`as:${old}`))!; // made meanwhile
  for (const step of kept) await c.journals.append(id, step, ttlMs);
  await space.put(`of:${id}`, old, ttlMs);
  await c.results.set(id, { status: "working", at: c.codec.now() }, ttlMs);
  return id;
}

/**
 * The runs linked to a job by reruns, for operators (`mcplite jobs show`).
 *
 * @param c The server's engine.
 * @param id A job's id.
 * @returns The run that replaced it and the one it replaced, where there are.
 */
export async function rerunsOf(c: Continuations, id: string): Promise<Reruns> {
  const space = spaceOf(c);
  const [as, of] = await Promise.all([space.get(`as:${id}`), space.get(`of:${id}`)]);
  return { ...as === undefined ? {} : { as }, ...of === undefined ? {} : { of } };
}

/** How many links between runs are followed, at most (a bound on a walk over the store's links). */
const MAX_RERUNS = 100;

/**
 * Follows a job's reruns one way to their end: its first run (`of`, the job a queue carries its reruns under), or its
 * last (`as`, the one that ran last).
 *
 * @param c The server's engine.
 * @param id A job's id.
 * @param way `of` back to the first run, `as` on to the last.
 * @returns The run at that end: `id` itself for a job never run again.
 */
export async function lastRunOf(c: Continuations, id: string, way: keyof Reruns): Promise<string> {
  let run = id;
  for (let links = 0; links < MAX_RERUNS; links++) {
    const next = (await rerunsOf(c, run))[way];
    if (next === undefined) break;
    run = next;
  }
  return run;
}

/**
 * Why a job cannot run again from `from`, if it cannot: it did not end as a failure or a cancellation, or its journal
 * has no such step (`mcplite jobs retry` says it before it asks the queue).
 *
 * @param id The job's id.
 * @param entry Its entry, as the store holds it.
 * @param journal Its journal.
 * @param from The step to run again from, if one is named.
 * @returns The refusal, naming what the operator can do; `undefined` when it can run again.
 */
export function rerunRefusal(
  id: string,
  entry: StoredResult | undefined,
  journal: readonly JournalEntry[],
  from?: string,
): string | undefined {
  if (entry === undefined) return `job ${id} is no longer kept in the result store`;
  if (!hasEnded(entry)) return `job ${id} is still running: cancel it first`;
  if (entry.status === "completed" && entry.result.isError !== true) {
    return `job ${id} completed: there is nothing to run again`;
  }
  if (from === undefined || journal.some((step) => step.name === from)) return undefined;
  const steps = journal.filter((step) => step.position > 0).map((step) => step.name).join(", ") || "none";
  return `job ${id} has no step "${from}" in its journal (its steps: ${steps})`;
}
