/**
 * Who observes the jobs a worker runs (`runWorker()`): telemetry (`otel()` from `@mcplite/sdk/otel`) carries
 * it on its request middleware under {@link OBSERVES_JOBS}, and the worker finds it among the server's
 * middleware when it starts. No option names it, and neither the core nor a server that is never a worker
 * bundles any of it: this file is reached from `runWorker()` and `@mcplite/sdk/otel` only.
 *
 * @module
 */
import type { JobWatch } from "../../core/long-running/job-kinds.ts";
import type { Middleware } from "../../core/call/middleware.ts";

export type { JobOutcome, JobWatch } from "../../core/long-running/job-kinds.ts";

/** What observes a worker: each job it takes, and its drain when it closes. */
export interface JobObserver {
  /**
   * A job was taken from the queue.
   *
   * @returns What hears of that job, or `undefined` when nothing is recorded.
   */
  took(): JobWatch | undefined;
  /**
   * The worker stopped taking jobs and drains the running ones.
   *
   * @param running How many jobs were running then.
   * @returns Called once the drain is over, with how many jobs were given back to the queue.
   */
  draining(running: number): (givenBack: number) => void;
}

/**
 * A request middleware that observes workers too carries, under this symbol, what makes its observer:
 * `runWorker()` calls it once, when it starts.
 */
export const OBSERVES_JOBS: unique symbol = Symbol.for("mcplite.jobs");

/** A request middleware that observes workers too. */
export interface JobObserving {
  /** Makes the observer of a worker of the server the middleware was added to. */
  readonly [OBSERVES_JOBS]?: () => JobObserver;
}

/**
 * The observer of a worker running a server's jobs: the first of the server's request middleware that
 * observes workers makes it.
 *
 * @param middleware The server's request middleware.
 * @returns The observer, or `undefined` when no middleware observes workers.
 */
export function jobObserverOf(middleware: readonly Middleware[]): JobObserver | undefined {
  for (const each of middleware) {
    const make = (each as JobObserving)[OBSERVES_JOBS];
    if (make !== undefined) return make();
  }
  return undefined;
}
