/**
 * A job queue in memory that behaves as the contract of `WorkQueue` asks: a job given back (`"again"`) is
 * delivered again at once, one whose run rejects 50 ms later (up to 20 times, as a queue's backoff does).
 * For the tests of queued jobs run by `runWorker()` in one process.
 */
import type { WorkQueue } from "../../src/types.ts";

/** A queue in memory: a job given back is delivered again at once, a rejected one 50 ms later (up to 20 times). */
export function memoryQueue(options: { refuseAdd?: boolean } = {}) {
  const jobs: string[] = [];
  const rejections: unknown[] = [];
  let wake = () => {};
  const queue: WorkQueue = {
    add: (_id, data) => {
      if (options.refuseAdd) return Promise.reject(new Error("the queue's connection is closed"));
      jobs.push(data);
      wake();
      return Promise.resolve();
    },
    take(run) {
      let open = true;
      const loop = (async () => {
        while (open) {
          const data = jobs.shift();
          if (data === undefined) {
            await new Promise<void>((resolve) => wake = resolve);
            continue;
          }
          try {
            if (await run(data) === "again") jobs.push(data);
          } catch (error) {
            rejections.push(error); // delivered again later, as BullMQ's backoff does
            if (rejections.length < 20) {
              setTimeout(() => {
                jobs.push(data);
                wake();
              }, 50);
            }
          }
        }
      })();
      return {
        close: () => {
          open = false;
          wake();
          return loop;
        },
      };
    },
  };
  return { queue, jobs, rejections };
}
