/**
 * The failures of jobs that no instance finished: stopped (the instance or worker running it died, and its tool's
 * `retry` allows no further start) and lost (the shared store lost its entry while no instance held it).
 *
 * @module
 */

/** The message of a job whose instance stopped renewing its lease. */
export const STOPPED_MESSAGE = "The instance running this job stopped before it finished";
/** The failure of a job whose result the shared store lost (it came back empty, or evicted it). */
export const LOST_MESSAGE = "The result of this job was lost: the result store no longer holds it (it restarted " +
  "empty or evicted it) and no instance is running the job. Call the tool again";

/**
 * The failure of a job stopped after every start its tool allows.
 *
 * @param attempts How many starts it had.
 * @returns The message.
 */
export function stoppedMessage(attempts: number): string {
  return STOPPED_MESSAGE + (attempts === 1 ? "" : ` (${attempts} attempts)`);
}
