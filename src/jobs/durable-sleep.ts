/**
 * A durable sleep's seam between the declared work and the queued runner: on a server with a queue,
 * `work.sleep()` rejects with a {@link DurableSleep}, and the worker gives the job back to the queue to be
 * delivered again at `untilMs` (BullMQ: a delayed job), holding no slot meanwhile. It is never a result.
 *
 * @module
 */

/** What the work of a queued job rejects with to sleep until `untilMs`: the job goes back to its queue. */
export class DurableSleep extends Error {
  /** When the job is to run again, in ms since the epoch. */
  readonly untilMs: number;

  /**
   * Creates the sleep.
   *
   * @param untilMs When the job is to run again, in ms since the epoch.
   */
  constructor(untilMs: number) {
    super(`the job sleeps until ${new Date(untilMs).toISOString()}`);
    this.name = "DurableSleep";
    this.untilMs = untilMs;
  }
}
