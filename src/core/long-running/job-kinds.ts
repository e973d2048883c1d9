/**
 * Job kinds: what a worker (`runWorker()`, `src/jobs/worker/`) runs besides a tool's declared work. A feature that
 * queues jobs of its own registers its kind on the server's runtime with {@link registerJobKind} (MCP Events: its
 * webhook deliveries, `src/events/delivery/delivery-job.ts`); the worker finds the runner by the kind that starts the
 * job's data (`<kind>.<payload>`) and loads no feature's code, so a server without that feature bundles none of it.
 * A contract of the core, with what telemetry hears of a job ({@link JobWatch}).
 *
 * @module
 */
import type { Runtime } from "../instance/runtime.ts";

/** How a job a worker took ended there, as telemetry names it (`@mcplite/sdk/otel`). */
export type JobOutcome =
  /** Its result is stored, not an error. */
  | "completed"
  /** Its result is a tool error, or the job failed; or (thrown) it could not be run now: delivered again later. */
  | "failed"
  /** Every start its tool's `retry` allows was taken by workers that stopped first: it ends as stopped. */
  | "stopped"
  /** Its caller cancelled it while it ran. */
  | "cancelled"
  /** Nothing to run: it ended, was cancelled or expired before this delivery. */
  | "skipped"
  /** Its work sleeps (`work.sleep()`): given back to the queue, which delivers it again when it wakes. */
  | "delayed"
  /** The worker shut down first: given back to the queue, which delivers it again now. */
  | "again";

/** What telemetry hears of one job a worker runs (`src/jobs/worker/job-observer.ts` gives it): plain values, no OpenTelemetry. */
export interface JobWatch {
  /**
   * The job was read.
   *
   * @param job Its id, its tool, when it was queued (ms since the epoch) and the `traceparent` of the
   *   call that queued it.
   * @returns The `traceparent` of the job's span, which the span of the handler's run is made a child of.
   */
  read(job: { readonly id: string; readonly tool: string; readonly queuedAt: number; readonly traceparent?: string }):
    | string
    | undefined;
  /**
   * The job ended on this worker.
   *
   * @param outcome How.
   * @param attempt Which start of the job this was, from 1 (the queue's count), when it was read.
   * @param error What failed it, when it failed otherwise than with a tool error.
   */
  end(outcome: JobOutcome, attempt?: number, error?: unknown): void;
}

/** Where a worker's warnings go: the server's logger (else the console), each message once. */
export type WarnOnce = (message: string) => void;

/** How a job's run ended, as the queue hears it (`WorkQueue.take`): done, refused, given back, delayed or failed. */
export type JobEnd = "done" | "refused" | "again" | { readonly delayMs: number } | { readonly failed: string };

/** What a runner of a job kind is handed beside the job's data. */
export interface JobRun {
  /** Which start of the job this delivery is, from 1, as the queue counts them. */
  readonly start: number;
  /** Aborts when the worker shuts down: a job still running then is given back to the queue. */
  readonly stop: AbortSignal;
  /** What telemetry hears of the job, when there is telemetry. */
  readonly watch?: JobWatch;
  /** Where the runner's warnings go, each once. */
  readonly warn: WarnOnce;
}

/** Runs one delivery of a job of its kind on a worker. */
export type JobRunner = (data: string, run: JobRun) => Promise<JobEnd>;

/** The runtime's member holding its job kinds, made by the first registration. */
const JOB_KINDS: unique symbol = Symbol("mcplite.jobKinds");

/** A runtime, with the job kinds registered on it. */
type WithKinds = Runtime & { [JOB_KINDS]?: Map<string, JobRunner> };

/**
 * Registers a job kind on a server's runtime: a worker of that server runs each job whose data starts with
 * `<kind>.` with `run`. A later registration of the same kind replaces the earlier one.
 *
 * @param runtime The server's runtime (shared by the registries forked from it).
 * @param kind The kind: lowercase letters and digits from a letter on, what its jobs' data starts with before a `.`.
 * @param run Runs one delivery of such a job.
 */
export function registerJobKind(runtime: Runtime, kind: string, run: JobRunner): void {
  ((runtime as WithKinds)[JOB_KINDS] ??= new Map()).set(kind, run);
}

/**
 * The kind of a job's data: what it starts with before the first `.`, when that is a kind's name (lowercase letters
 * and digits, from a letter on).
 *
 * @param data The job's data, as queued.
 * @returns Its kind, or `undefined` for data of no kind.
 */
export function jobKindOf(data: string): string | undefined {
  return /^([a-z][a-z0-9]*)\./.exec(data)?.[1];
}

/**
 * The runner a server registered for a kind, if any.
 *
 * @param runtime The server's runtime.
 * @param kind The kind ({@link jobKindOf}).
 * @returns Its runner, or `undefined`.
 */
export function jobRunnerOf(runtime: Runtime, kind: string): JobRunner | undefined {
  return (runtime as WithKinds)[JOB_KINDS]?.get(kind);
}
