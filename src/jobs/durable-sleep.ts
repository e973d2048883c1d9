/**
 * What declared work throws to sleep durably on a queued server (`work.sleep()`): the worker writes no result and
 * hands the job back to its queue, to be delivered again at `untilMs`, its slot free meanwhile.
 *
 * @module
 */

/** A durable sleep: the job goes back to its queue until `untilMs`. */
export class DurableSleep extends Error {
  /** When the job wakes, in ms since the epoch. */
  declare readonly untilMs: number;

  /**
   * Makes the sleep.
   *
   * @param untilMs When the job wakes, in ms since the epoch.
   */
  constructor(untilMs: number) {
    super("the job sleeps");
    this.untilMs = untilMs;
  }
}
