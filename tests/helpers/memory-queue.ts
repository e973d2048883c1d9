/**
 * A `WorkQueue` in memory, for the tests of queued jobs in one process: it behaves as the contract asks (and
 * passes `workQueueCases()`): `concurrency` runs at once per taker, any number of takers, a job given back
 * (`"again"`) delivered again at once, one asleep (`{ delayMs }`) once its delay has passed, a rejected one 50 ms
 * later (up to 20 rejections in all), each delivery with its start (one more than the times `stall` handed the job
 * on as a queue does a job whose worker died) and whether it is the job's first, `close()` resolving once its
 * taker's runs have, and a job's progress and logs carried to its watchers (`progress` and `watch`); with `removes`,
 * `remove` takes a job no taker runs (waiting, or asleep) out of it; `wake` delivers an asleep job now.
 */
import type { WorkQueue } from "../../src/types.ts";

/** The queue, the jobs waiting in it, what runs rejected with, and how a test stalls a job. */
export interface MemoryQueue {
  readonly queue: WorkQueue;
  readonly jobs: string[];
  readonly rejections: unknown[];
  /** Delivers a job again as its next start, as a queue does once the lock of a worker that died lapsed. */
  stall(data: string): void;
  /** The `{ delayMs }` that runs resolved with, in order. */
  readonly delays: number[];
}

/** A queue in memory; `refuseAdd`: every `add` rejects, as a queue out of reach does; `removes`: it has `remove`. */
export function memoryQueue(options: { refuseAdd?: boolean; removes?: boolean } = {}): MemoryQueue {
  const jobs: string[] = [];
  /** Each job's data by id, and the timers of the jobs asleep. */
  const byId = new Map<string, string>();
  const asleep = new Map<string, ReturnType<typeof setTimeout>>();
  /** The jobs `wake` found running: delivered again at once if their run hands them back asleep. */
  const woken = new Set<string>();
  const rejections: unknown[] = [];
  const delays: number[] = [];
  /** The jobs delivered at least once: a later delivery is not a job's first. */
  const delivered = new Set<string>();
  /** How often each job's run was cut short (by `stall`): its start is one more. */
  const stalls = new Map<string, number>();
  const idle = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of idle) wake();
    idle.clear();
  };
  const push = (data: string) => {
    jobs.push(data);
    wakeAll();
  };
  type Update = Parameters<NonNullable<WorkQueue["progress"]>>[1];
  const watchers = new Map<string, Set<(update: Update) => void>>();
  const queue: WorkQueue = {
    progress: (id, update) => watchers.get(id)?.forEach((listener) => listener(update)),
    watch(id, listener) {
      const listeners = watchers.get(id) ?? new Set();
      watchers.set(id, listeners.add(listener));
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) watchers.delete(id);
      };
    },
    add: (id, data) => {
      if (options.refuseAdd) return Promise.reject(new Error("the queue's connection is closed"));
      byId.set(id, data);
      push(data);
      return Promise.resolve();
    },
    ...options.removes && {
      remove(id: string) {
        const data = byId.get(id);
        const waiting = data === undefined ? -1 : jobs.indexOf(data);
        if (waiting >= 0) jobs.splice(waiting, 1);
        const timer = data === undefined ? undefined : asleep.get(data);
        clearTimeout(timer);
        if (data !== undefined) asleep.delete(data);
        return Promise.resolve(waiting >= 0 || timer !== undefined);
      },
    },
    wake(id) {
      // Asleep: delivered now. Running: delivered at once when its run hands it back asleep (`woken`).
      const data = byId.get(id);
      const timer = data === undefined ? undefined : asleep.get(data);
      if (data !== undefined && timer === undefined) woken.add(data);
      if (timer !== undefined) {
        clearTimeout(timer);
        asleep.delete(data!);
        push(data!);
      }
      return Promise.resolve();
    },
    take(run, { concurrency }) {
      let open = true;
      const loop = async () => {
        while (open) {
          const data = jobs.shift();
          if (data === undefined) {
            await new Promise<void>((resolve) => idle.add(resolve));
            continue;
          }
          try {
            const first = !delivered.has(data);
            delivered.add(data);
            const ended = await run(data, (stalls.get(data) ?? 0) + 1, first);
            if (ended === "again") push(data);
            else if (typeof ended === "object" && "delayMs" in ended) {
              delays.push(ended.delayMs);
              if (woken.delete(data)) push(data);
              else asleep.set(data, setTimeout(() => (asleep.delete(data), push(data)), ended.delayMs));
            }
          } catch (error) {
            rejections.push(error); // delivered again later, as BullMQ's backoff does
            if (rejections.length < 20) setTimeout(() => push(data), 50);
          }
        }
      };
      const loops = Array.from({ length: concurrency }, loop);
      return {
        close: async () => {
          open = false;
          wakeAll();
          await Promise.all(loops);
        },
      };
    },
  };
  const stall = (data: string) => {
    stalls.set(data, (stalls.get(data) ?? 0) + 1);
    delivered.add(data); // a worker took it and died: no later delivery is its first
    push(data);
  };
  return { queue, jobs, rejections, stall, delays };
}
