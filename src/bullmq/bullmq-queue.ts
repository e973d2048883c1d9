/**
 * A {@link WorkQueue} on BullMQ: a job is added with the entry id as its `jobId`; a worker holds a lock on
 * each job it runs, and BullMQ's stalled-job check moves a job whose lock lapsed (its worker died) back to
 * the queue, however often (the server counts the starts, and ends a job its tool's `retry` allows no more).
 * A job given back at shutdown goes back at once (`moveToWait`). Progress travels as BullMQ's job progress,
 * to the instances that follow it through BullMQ's queue events.
 *
 * @module
 */
import {
  type BackendFactory,
  type ConnectionOptions,
  type IQueueBackend,
  type Job,
  Queue,
  QueueEvents,
  WaitingError,
  withBackend,
  Worker,
} from "bullmq";
import type { WorkQueue } from "../core/work-queue.ts";

/** BullMQ's attempts for a job whose run failed (the result store was out of reach), and their first wait. */
const OUTAGE_ATTEMPTS = 20;
const OUTAGE_BACKOFF_MS = 1_000;
/** How long BullMQ keeps a job that failed every attempt, for inspection, in seconds. */
const KEEP_FAILED_S = 24 * 60 * 60;

/**
 * A job queue on BullMQ, for `createServer({ queue })` and `runWorker()`: web instances add jobs,
 * workers take them. Every instance and worker of one server uses the same queue `name` on the same
 * Redis (or Valkey, or PostgreSQL database).
 *
 * A worker that dies holds its jobs until its lock lapses: within `lockMs` to `2 × lockMs` (BullMQ's
 * stalled-job check runs every `lockMs`), another worker takes the job and, once the job's lease in the
 * result store has lapsed too, starts it again (a tool with `retry`) or ends it with "The instance running
 * this job stopped before it finished" (a tool without).
 *
 * @param options `connection`: a Redis URL (`redis://…`, `rediss://…`), or what BullMQ's `connection`
 *   option takes (ioredis options such as `{ host, port }`, or an ioredis client; with `createPostgresBackend`, `{ connectionString, migrate:
 *   true }`, which makes BullMQ's schema on first use (a bare connection string or a `pg` pool needs
 *   BullMQ's migrations run beforehand); `name`: the queue's name (default
 *   `"mcplite"`); `prefix`: the Redis key prefix (default BullMQ's, `"bull"`); `lockMs`: the lock on a
 *   running job and the stalled-job check's period (default 30 000); `backend`: BullMQ's backend factory
 *   (`createPostgresBackend` for PostgreSQL; default Redis); `onError`: BullMQ's connection errors
 *   (default: written to the console).
 * @returns The queue; `close()` closes its connections (a worker's consumer is closed by `runWorker()`).
 *
 * @example Web instances and workers on one Redis
 * ```ts ignore
 * import { createServer, runWorker } from "@mcplite/sdk";
 * import { bullmqQueue } from "@mcplite/sdk/bullmq";
 * import { redisResultStore } from "@mcplite/sdk/redis";
 * import { Redis } from "ioredis";
 *
 * const server = createServer({
 *   name: "reports",
 *   version: "1.0.0",
 *   resultStore: redisResultStore(new Redis(process.env.REDIS_URL!)),
 *   queue: bullmqQueue({ connection: { url: process.env.REDIS_URL } }),
 * }); // .tool(…) every tool
 * if (process.env.ROLE === "worker") runWorker(server, { concurrency: 16 });
 * else Deno.serve(server.fetch);
 * ```
 */
export function bullmqQueue(options: {
  readonly connection: object | string;
  readonly name?: string;
  readonly prefix?: string;
  readonly lockMs?: number;
  readonly backend?: (...args: never[]) => object;
  readonly onError?: (error: unknown) => void;
}): WorkQueue & { close(): Promise<void> } {
  const name = options.name ?? "mcplite";
  const lockMs = options.lockMs ?? 30_000;
  if (!(lockMs > 0)) throw new RangeError("lockMs must be positive");
  const report = options.onError ?? ((error: unknown) => console.error("bullmqQueue:", error));
  // BullMQ's classes, or the same bound to another backend (their constructors take the same arguments).
  const classes =
    (options.backend === undefined
      ? { Queue, Worker, QueueEvents }
      : withBackend(options.backend as BackendFactory<IQueueBackend, unknown>)) as {
        Queue: typeof Queue;
        Worker: typeof Worker;
        QueueEvents: typeof QueueEvents;
      };
  // BullMQ reads a Redis URL only as `{ url }`: a bare string would be taken as options, and connect to 127.0.0.1:6379.
  const connection = typeof options.connection === "string" && options.backend === undefined
    ? { url: options.connection }
    : options.connection;
  const common = {
    connection: connection as ConnectionOptions,
    ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
  };
  let producer: Queue | undefined;
  const workers = new Set<Worker>();
  /** The jobs this process's workers run, by id: where `progress` reports. */
  const running = new Map<string, Job>();
  /** BullMQ's events of the queue, opened by the first `watch`, and who follows which job. */
  let events: QueueEvents | undefined;
  const watchers = new Map<string, Set<(update: Progress) => void>>();
  const queueOf = () => {
    if (producer === undefined) {
      producer = new classes.Queue(name, common);
      producer.on("error", report);
    }
    return producer;
  };
  return {
    async add(id, data) {
      await queueOf().add("job", { data }, {
        jobId: id,
        attempts: OUTAGE_ATTEMPTS,
        backoff: { type: "exponential", delay: OUTAGE_BACKOFF_MS },
        removeOnComplete: true,
        removeOnFail: { age: KEEP_FAILED_S },
      });
    },
    take(run, { concurrency }) {
      let closing = false;
      const worker = new classes.Worker(name, async (job: Job, token?: string) => {
        running.set(job.id!, job);
        try {
          // A fetch in flight as close() was called may still take a job (BullMQ's blocking wait ends with it):
          // handed straight back, it goes to a taker that is not closing.
          if (closing || await run((job.data as { data: string }).data) === "again") {
            await job.moveToWait(token); // the worker shuts down: another takes it now
            throw new WaitingError();
          }
        } finally {
          running.delete(job.id!);
        }
      }, {
        ...common,
        concurrency,
        lockDuration: lockMs,
        stalledInterval: lockMs,
        maxStalledCount: 1_000_000, // the server counts starts (its tool's retry); a 32-bit integer for the Postgres backend
      });
      worker.on("error", report);
      workers.add(worker);
      return {
        close: async () => {
          closing = true;
          await worker.close();
          workers.delete(worker);
        },
      };
    },
    progress(id, update) {
      running.get(id)?.updateProgress(update).catch(report); // BullMQ's progress event, on every instance
    },
    watch(id, listener) {
      if (events === undefined) {
        events = new classes.QueueEvents(name, common);
        events.on("error", report);
        events.on("progress", ({ jobId, data }) => {
          if (isProgress(data)) { for (const follow of watchers.get(jobId) ?? []) follow(data); }
        });
      }
      const followers = watchers.get(id) ?? new Set();
      watchers.set(id, followers.add(listener));
      return () => {
        followers.delete(listener);
        if (followers.size === 0) watchers.delete(id);
      };
    },
    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
      await Promise.all([producer?.close(), events?.close()]);
    },
  };
}

/** A job's progress, as `WorkQueue.progress` carries it. */
type Progress = { progress: number; total?: number; message?: string };

/** Whether BullMQ's progress data is one that `progress` sent (any process may update a job's progress). */
function isProgress(data: unknown): data is Progress {
  const update = data as Progress | null;
  return typeof update === "object" && update !== null && typeof update.progress === "number" &&
    (update.total === undefined || typeof update.total === "number") &&
    (update.message === undefined || typeof update.message === "string");
}
