/**
 * What a start of a job meets when its work takes its steps and sleeps in another order than its journal recorded
 * (a step renamed, added or removed before others, a deploy of other work while the job slept): its recorded values
 * would be handed to steps they do not belong to. DBOS refuses such a workflow the same way ("a workflow's step
 * names differ from those recorded"); the start is refused, never replayed.
 *
 * @module
 */

/** A run whose steps or sleeps differ from its journal: it names the step and what the journal recorded. */
export class JournalMismatch extends Error {
  override readonly name = "JournalMismatch";

  /**
   * Makes the refusal.
   *
   * @param job The job's id.
   * @param taken The step (or sleep) this run takes, and its place in the run (from 1).
   * @param recorded What the journal recorded there, or where it recorded that step.
   */
  constructor(
    job: string,
    taken: { readonly name: string; readonly position: number },
    recorded: { readonly name: string; readonly position: number },
  ) {
    const there = recorded.name === taken.name
      ? `recorded "${recorded.name}" at place ${recorded.position}`
      : `recorded "${recorded.name}" there`;
    super(
      `this run of job ${job} takes "${taken.name}" at place ${taken.position} of its steps and sleeps, where its ` +
        `journal ${there}: the work changed since the job began: refused, not replayed (a change that jobs begun ` +
        `before it must survive takes the new way only where work.patched(name) says so)`,
    );
  }
}
