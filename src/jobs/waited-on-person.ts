/**
 * Whether a queued job's last start was waiting on a person when its worker died: a question it listed (`work.elicit()`
 * and the like, a durable wait) is still unanswered, or answered in its entry but not yet recorded in its journal (no
 * start went past it). Such a death loses no start: the job is run again, not ended "stopped", with or without
 * `retry`. A death after the work went past its answers counts as any other.
 *
 * @module
 */
import type { JournalStore } from "./journal-store.ts";
import type { StoredResult } from "./stored-result.ts";

/**
 * Reads whether a job's death came while it waited on a person.
 *
 * @param entry The job's entry, as its redelivery read it.
 * @param journals The job store, read only for an entry whose questions were all answered.
 * @param id The job's id.
 * @returns True when its last start was in that wait.
 */
export async function waitedOnPerson(
  entry: StoredResult | undefined,
  journals: JournalStore,
  id: string,
): Promise<boolean> {
  if (entry?.status === "input_required") return true;
  if (entry?.status !== "working" || entry.answers === undefined) return false;
  const keys = Object.keys(entry.answers);
  if (keys.length === 0) return false;
  const recorded = new Set((await journals.load(id)).map((step) => step.name));
  return keys.some((key) => !recorded.has(`~input:${key}`));
}
