/**
 * What a client saw of the progress a queued job reported on a worker, for the tests of queued jobs' clients: a
 * step per progress notification, in order, up to the last.
 */
import assert from "node:assert/strict";

/** One progress notification, as a client reports it. */
export interface Step {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/**
 * Asserts that `progress` holds at least three of the job's `total` steps (`step N` each), rising, the last among
 * them: BullMQ's events reach the web instance once its event connection is up, so the first steps may come before.
 *
 * @param progress What the client saw.
 * @param total How many steps the job reported.
 * @param who The client, for the message.
 */
export function assertSteps(progress: readonly Step[], total: number, who = ""): void {
  assert.ok(progress.length >= 3, `${who}: ${JSON.stringify(progress)}`);
  assert.deepEqual(progress.at(-1), { progress: total, total, message: `step ${total}` }, who);
  for (const [i, each] of progress.entries()) {
    if (i > 0) assert.ok(each.progress > progress[i - 1].progress, `${who}: ${JSON.stringify(progress)}`);
  }
}
