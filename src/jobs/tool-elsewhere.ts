/**
 * A queued job whose tool this worker's server lacks: another version of the server module, the usual case in a
 * rolling deploy (a new version's instance queued a job of a tool it adds, and an instance not yet replaced took it).
 * The job goes back to the queue asleep, for a worker that has the tool, for as long as a rollout is given to progress;
 * past that, nothing that has the tool took it, and it ends as a failure, saying why. As a job signed with a secret
 * this worker lacks is delivered again later (`queued-job.ts`), not failed.
 *
 * @module
 */

/**
 * How long after it was queued a job of a tool this worker lacks goes back to the queue, rather than failing, in ms:
 * ten minutes, Kubernetes' default `progressDeadlineSeconds` of a Deployment (the time a rollout is given to make
 * progress before it is reported failed).
 */
export const ROLLOUT_MS = 600_000;

/** How long such a job sleeps in the queue before it is delivered again, in ms (to any worker). */
const HANDED_BACK_MS = 1_000;

/**
 * What becomes of a job of a tool this worker lacks: delivered again after a while, or failed with the reason.
 *
 * @param tool The job's tool.
 * @param queuedAt When the job was queued, in ms since the epoch (its token's issue time).
 * @param now The worker's clock, in ms since the epoch.
 * @returns `{ delayMs }` while a rollout may still bring a worker that has the tool; else `{ failed }`, the message
 *   the caller reads.
 */
export function toolElsewhere(
  tool: string,
  queuedAt: number,
  now: number,
): { readonly delayMs: number } | { readonly failed: string } {
  if (now - queuedAt < ROLLOUT_MS) return { delayMs: HANDED_BACK_MS };
  return {
    failed: `This worker has no tool "${tool}" with declared work (.defer()), and no worker that has it took the ` +
      `job in the ${ROLLOUT_MS / 60_000} minutes since it was queued: it runs another version of the server`,
  };
}

/** The warning of a worker that handed a job back for lack of its tool (given once per tool). */
export const handedBack = (tool: string): string =>
  `mcplite worker: a queued job of tool "${tool}" reached a worker whose server has no such tool with declared ` +
  `work (another version of the server module, as in a rolling deploy): the queue delivers it again, for a worker ` +
  `that has it, for ${ROLLOUT_MS / 60_000} minutes after it was queued; then it fails`;
