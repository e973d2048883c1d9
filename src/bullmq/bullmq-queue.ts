/**
 * A {@link WorkQueue} on BullMQ (the entry id its `jobId`): a worker locks each job it runs, and BullMQ's stalled-job
 * check moves a job whose lock lapsed (its worker died) back to the queue, counting it (`stalledCounter`: the next
 * start). A job given back at shutdown goes back at once (`moveToWait`), a sleeping one delayed (`moveToDelayed`),
 * neither counted. Boards see a job named after its tool, its call id, task id and start, its steps in its log; a
 * failed job is failed there (never retried by BullMQ: the server's `retry` decides). Why:
 * docs/guides/many-instances.md ("Workers: a queue").
 *
 * @module
 */
import {
  type BackendFactory,
  type ConnectionOptions,
  DelayedError,
  type IQueueBackend,
  type Job,
  Queue,
  QueueEvents,
  QueueEventsProducer,
  UnrecoverableError,
  WaitingError,
  withBackend,
  Worker,
} from "bullmq";
import type { RunAgain, WorkQueue } from "../jobs/work-queue.ts";
import { readFlow } from "../jobs/flow-gate.ts";

/** BullMQ's attempts for a job whose run failed (the result store was out of reach), and their first wait. */
const OUTAGE_ATTEMPTS = 20;
const OUTAGE_BACKOFF_MS = 1_000;
/** How long BullMQ keeps a finished job for operators, by default, in ms: an hour once completed, a day once failed. */
const KEEP_COMPLETED_MS = 60 * 60_000;
const KEEP_FAILED_MS = 24 * 60 * 60_000;
/** The queue event that carries a running job's progress to the instances that follow it. */
const PROGRESS_EVENT = "mcplite:progress";
/** How many events BullMQ's stream of the queue keeps (approximately): BullMQ's own default, left as it is. */
const EVENTS_KEPT = 10_000;
/** BullMQ's messages of a running job's lock it lost (its backend out of reach, then back). */
const LOCK_LOST = /^(could not renew lock for job|Missing lock for job|Lock mismatch for job)/;
/** BullMQ's message of an update to a job it no longer holds (removed once finished). */
const JOB_GONE = /^Missing key for job/;
/** How often, and how many times, `wake` looks at a job still running (its wait handing it back): 5 s at most. */
const WAKE_EVERY_MS = 50;
const WAKE_LOOKS = 100;

/**
 * The options of {@link bullmqQueue}: where the queue lives, its name, its lock, and what it keeps.
 *
 * @example
 * ```ts
 * import type { BullmqQueueOptions } from "@mcplite/sdk/bullmq";
 * // Reports run for minutes: a longer lock, and failed jobs kept a week for operators to read.
 * const options: BullmqQueueOptions = {
 *   connection: "redis://10.0.0.5:6379",
 *   name: "reports",
 *   lockMs: 120_000,
 *   keepFailedMs: 7 * 86_400_000,
 * };
 * ```
 */
export interface BullmqQueueOptions {
  /**
   * A Redis URL (`redis://…`, `rediss://…`), or what BullMQ's `connection` option takes: ioredis options such as
   * `{ host, port }`, or an ioredis client; with `createPostgresBackend`, `{ connectionString, migrate: true }`,
   * which makes BullMQ's schema on first use (a bare connection string or a `pg` pool needs BullMQ's migrations
   * run beforehand).
   */
  readonly connection: object | string;
  /** The queue's name (default `"mcplite"`): every instance and worker of one server uses the same. */
  readonly name?: string;
  /** The Redis key prefix (default BullMQ's, `"bull"`). */
  readonly prefix?: string;
  /** The lock on a running job and the stalled-job check's period, in ms (default 30 000). */
  readonly lockMs?: number;
  /** How long BullMQ keeps a completed job for operators to read, in ms (default 3 600 000, an hour; 0: none). */
  readonly keepCompletedMs?: number;
  /** How long BullMQ keeps a failed job for operators to read, in ms (default 86 400 000, a day; 0: none). */
  readonly keepFailedMs?: number;
  /** BullMQ's backend factory (`createPostgresBackend` for PostgreSQL; default Redis). */
  readonly backend?: (...args: never[]) => object;
  /** Hears BullMQ's connection errors (default: written to the console). */
  readonly onError?: (error: unknown) => void;
}

/**
 * A job queue on BullMQ, for `createServer({ queue })` and `runWorker()`: web instances add jobs,
 * workers take them. Every instance and worker of one server uses the same queue `name` on the same
 * Redis (or Valkey, or PostgreSQL database).
 *
 * A worker that dies holds its jobs until its lock lapses: within `lockMs` to `2 × lockMs` (BullMQ's
 * stalled-job check runs every `lockMs`), another worker takes the job as its next start, and starts it again
 * (a tool with `retry`) or ends it with "The instance running this job stopped before it finished" (a tool
 * without).
 *
 * What loses nothing is a warning, once, to the worker's server's logger (else `console.warn`): BullMQ's lock
 * messages in an outage of its backend, a progress update that comes after its job finished.
 *
 * @param options The connection, the queue's name and key prefix, its lock, how long finished jobs are kept,
 *   the backend, and where connection errors go.
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
export function bullmqQueue(options: BullmqQueueOptions): WorkQueue & { close(): Promise<void> } {
  const name = options.name ?? "mcplite";
  const lockMs = options.lockMs ?? 30_000;
  if (!(lockMs > 0)) throw new RangeError("lockMs must be positive");
  const keepCompletedMs = options.keepCompletedMs ?? KEEP_COMPLETED_MS;
  const keepFailedMs = options.keepFailedMs ?? KEEP_FAILED_MS;
  if (!(keepCompletedMs >= 0 && keepFailedMs >= 0)) {
    throw new RangeError("keepCompletedMs and keepFailedMs must not be negative");
  }
  const report = options.onError ?? ((error: unknown) => console.error("bullmqQueue:", error));
  /** Where the queue's warnings go: the worker's (the server's logger, each once), else the console. */
  let warn = (message: string) => console.warn(message);
  // BullMQ's classes, or the same bound to another backend (their constructors take the same arguments).
  const classes =
    (options.backend === undefined
      ? { Queue, Worker, QueueEvents, QueueEventsProducer }
      : withBackend(options.backend as BackendFactory<IQueueBackend, unknown>)) as {
        Queue: typeof Queue;
        Worker: typeof Worker;
        QueueEvents: typeof QueueEvents;
        QueueEventsProducer: typeof QueueEventsProducer;
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
  /** The jobs this process's workers failed as their runs said, until BullMQ recorded the failure. */
  const failedHere = new Set<string>();
  /** The jobs this process's workers run, by id: where `progress` reports. */
  const running = new Map<string, Job>();
  /**
   * The jobs run again (woken, restarted) after they reported progress: until a report goes above the percentage
   * BullMQ holds for one, its work is reporting again what it reported before, and nothing of it is sent.
   */
  const replaying = new Set<string>();
  /** The log lines and progress events of each running job still being written (log lines one after another). */
  const logging = new Map<string, Promise<void>>();
  /** BullMQ's events of the queue, opened by the first `watch`, and who follows which job. */
  let events: QueueEvents | undefined;
  /** Publishes progress events, opened by the first `progress`. */
  let publisher: QueueEventsProducer | undefined;
  const watchers = new Map<string, Set<(update: Update) => void>>();
  /** An update of a job BullMQ removed meanwhile (it finished as the update went): said once, as a warning. */
  const late = (id: string, what: string) => (error: unknown) => {
    if (error instanceof Error && JOB_GONE.test(error.message)) {
      warn(`bullmqQueue: ${what} of job ${id} came after the job had finished (BullMQ no longer holds it); dropped`);
    } else report(error);
  };
  /** How long BullMQ keeps finished jobs, in its terms: made once. */
  const kept = {
    removeOnComplete: keepCompletedMs === 0 ? true : { age: Math.ceil(keepCompletedMs / 1_000) },
    removeOnFail: keepFailedMs === 0 ? true : { age: Math.ceil(keepFailedMs / 1_000) },
  };
  const queueOf = () => {
    if (producer === undefined) {
      producer = new classes.Queue(name, common);
      producer.on("error", report);
    }
    return producer;
  };
  return {
    flowControl: true,
    async add(id, data, about, flow) {
      // Named after its tool; what an operator needs read beside the sealed job, which only the server opens.
      const fields: JobData = { tool: about?.tool, callId: about?.callId, attempt: 1, data };
      const { priority, dedupe } = readFlow(about?.tool ?? "job", flow);
      const job = await queueOf().add(about?.tool ?? "job", fields, {
        jobId: id,
        attempts: OUTAGE_ATTEMPTS,
        backoff: { type: "exponential", delay: OUTAGE_BACKOFF_MS },
        ...kept,
        // BullMQ's own order and deduplication (simple mode, or throttled by ttl): a duplicate's add answers the id
        // of the job kept.
        ...(priority === undefined ? {} : { priority }),
        ...(dedupe === undefined
          ? {}
          : { deduplication: { id: dedupe.id, ...(dedupe.ttlMs ? { ttl: dedupe.ttlMs } : {}) } }),
      });
      return job.id;
    },
    take(run, { concurrency, warn: warnings }) {
      if (warnings !== undefined) warn = warnings;
      let closing = false;
      let lockLost = false;
      const worker = new classes.Worker(name, async (job: Job, token?: string) => {
        running.set(job.id!, job);
        const data = job.data as Partial<JobData> | null;
        if (data?.attempt !== undefined && data.attempt !== start(job)) {
          // Started again (its last worker died or stalled): the board reads which start runs now.
          job.updateData({ ...data, attempt: start(job) } as JobData).catch(late(job.id!, "the start's number"));
        }
        if (typeof job.progress === "number" && job.progress > 0) replaying.add(job.id!);
        // Failed here, then delivered again: an operator's Retry. Its new run's job replaces the old in its data.
        const again: RunAgain | undefined = data?.failed && {
          ...(data.from === undefined ? {} : { from: data.from }),
          replace: (next) => {
            const { failed: _failed, from: _from, ...kept } = job.data as JobData;
            return job.updateData({ ...kept, data: next, attempt: 1, base: job.stalledCounter ?? 0 });
          },
        };
        try {
          // A fetch in flight as close() was called may still take a job (BullMQ's blocking wait ends with it):
          // handed straight back, it goes to a taker that is not closing.
          // Its start: one more than the times its lock lapsed (a run given back, asleep or rejected counts none).
          const ended = closing
            ? "again"
            : await run(data?.data as string, start(job), job.attemptsStarted <= 1, again || undefined);
          if (ended === "refused") {
            // Failed at once, never tried again, and kept (keepFailedMs) for an operator to look at.
            throw new UnrecoverableError("refused: not a job this server made");
          }
          if (ended === "again") {
            await job.moveToWait(token); // the worker shuts down: another takes it now
            throw new WaitingError();
          }
          if (typeof ended === "object" && "failed" in ended) {
            // A failure, stored for its caller: a failed job for BullMQ's boards, metrics and "Retry", kept
            // keepFailedMs, its reason the caller's; never run again by BullMQ's attempts (the server's `retry` decides).
            failedHere.add(job.id!); // marked once BullMQ recorded it: an operator's Retry then runs it again
            throw new UnrecoverableError(ended.failed);
          }
          if (ended !== "done") {
            await job.moveToDelayed(Date.now() + ended.delayMs, token); // its work sleeps: no slot held meanwhile
            throw new DelayedError();
          }
        } finally {
          running.delete(job.id!);
          replaying.delete(job.id!);
          await logging.get(job.id!); // its lines and progress written before BullMQ records its end
          logging.delete(job.id!);
        }
      }, {
        ...common,
        concurrency,
        lockDuration: lockMs,
        stalledInterval: lockMs,
        maxStalledCount: 1_000_000, // the server ends a job past its tool's retry; a 32-bit integer for the Postgres backend
      });
      worker.on("error", (error) => {
        // A lock lost in an outage of the backend: nothing is lost (the job goes on here, and its result is stored
        // first-writer-wins), so said once a warning, not an error per job per renewal.
        if (!LOCK_LOST.test(error.message)) return report(error);
        if (!lockLost) {
          warn(
            `bullmqQueue: BullMQ lost its lock on running jobs (${error.message}), its backend out of reach; ` +
              "they go on here (BullMQ may hand one whose lock lapsed to another worker, as its next start)",
          );
        }
        lockLost = true;
      });
      worker.on("completed", () => lockLost = false); // BullMQ recorded a job's end: its backend answers again
      // A job failed as its run said, recorded so by BullMQ: marked, so that its next delivery (BullMQ never delivers
      // a failed job again by itself) is an operator's Retry. A run cut short after its failure was stored is no such
      // job (BullMQ recorded no failure): delivered again, it finds its entry ended and ends as it was.
      worker.on("failed", (job) => {
        if (job === undefined || !failedHere.delete(job.id!)) return;
        job.updateData({ ...job.data as JobData, failed: true }).catch(late(job.id!, "the mark of its failure"));
      });
      workers.add(worker);
      return {
        close: async () => {
          closing = true;
          await worker.close();
          workers.delete(worker);
        },
      };
    },
    async wake(id) {
      // Its run may still be ending (the signal came as its wait handed it back): looked at again, a while at most.
      for (let look = 0; look < WAKE_LOOKS; look++) {
        const job = await queueOf().getJob(id) as Job | undefined;
        const state = await job?.getState();
        if (state === "delayed") {
          const promoted = await job!.promote().then(() => true, () => false); // it moved meanwhile: looked at again
          if (promoted) return;
        } else if (state !== "active") return;
        await new Promise((resolve) => setTimeout(resolve, WAKE_EVERY_MS));
      }
    },
    async retry(id, { from } = {}) {
      // Bull Board's Retry, with the step to run again from: only a job failed as its run said (marked so).
      const job = await queueOf().getJob(id) as Job | undefined;
      const data = job?.data as Partial<JobData> | undefined;
      if (job === undefined || data?.failed !== true || await job.getState() !== "failed") return false;
      const { from: _from, ...kept } = data as JobData;
      await job.updateData(from === undefined ? kept : { ...kept, from });
      await job.retry("failed");
      return true;
    },
    async remove(id) {
      // BullMQ refuses a locked job (a worker runs it) with 0, as it answers for one it no longer has.
      return await queueOf().remove(id) === 1;
    },
    about(id, { taskId }) {
      // Read, then written whole (BullMQ has no write of one field of a job's data): once per task, on the web side.
      (async () => {
        const job = await queueOf().getJob(id) as Job | undefined;
        if (job !== undefined) await job.updateData({ ...job.data as JobData, taskId });
      })().catch(report);
    },
    async inspect({ id, states, limit = 20 }) {
      const board = queueOf();
      // The latest of each state asked for (BullMQ reads each state's own range), then the latest of them all.
      const jobs = id === undefined
        ? (await board.getJobs(
          (states ?? ["active", "waiting", "delayed", "prioritized", "failed", "completed"]) as never,
          0,
          limit - 1,
        )).filter((job) => job != null).sort((a, b) => b.timestamp - a.timestamp).slice(0, limit)
        : [await board.getJob(id)];
      return await Promise.all(
        jobs.filter((job) => job !== undefined && job !== null).map(async (found) => {
          const job = found as Job;
          const data = (job.data ?? {}) as Partial<JobData>;
          const log = id === undefined ? undefined : (await board.getJobLogs(job.id!)).logs;
          return {
            id: job.id!,
            state: await job.getState(),
            ...(data.tool === undefined ? {} : { tool: data.tool }),
            ...(data.callId === undefined ? {} : { callId: data.callId }),
            ...(data.taskId === undefined ? {} : { taskId: data.taskId }),
            ...(data.attempt === undefined ? {} : { attempt: data.attempt }),
            addedAt: job.timestamp,
            ...(job.finishedOn === undefined ? {} : { finishedAt: job.finishedOn }),
            ...(job.failedReason ? { failedReason: job.failedReason } : {}),
            ...(log === undefined ? {} : { log }),
          };
        }),
      );
    },
    log(id, line) {
      const job = running.get(id);
      if (job === undefined) return;
      // Bull Board's "Logs" of the job. In order, one at a time: PostgreSQL's backend numbers lines as it writes them.
      const written = (logging.get(id) ?? Promise.resolve()).then(() => job.log(line)).then(
        () => {},
        late(id, "a log line"),
      );
      logging.set(id, written);
    },
    progress(id, update) {
      const job = running.get(id);
      if (job === undefined) return;
      const percent = "total" in update && update.total !== undefined && update.total > 0
        ? Math.min(100, Math.max(0, Math.round((100 * update.progress) / update.total)))
        : undefined;
      if (percent !== undefined && replaying.has(id)) {
        // Never backwards, across wake-ups, restarts and workers: what it reports again of its last start is dropped.
        if (percent <= (job.progress as number)) return;
        replaying.delete(id);
      }
      // To the instances that follow the job, as sent; to BullMQ's boards, a percentage (when the total is known).
      if (publisher === undefined) {
        publisher = new classes.QueueEventsProducer(name, common);
        publisher.on("error", report);
      }
      const published = publisher.publishEvent(
        { eventName: PROGRESS_EVENT, jobId: id, update: JSON.stringify(update) },
        EVENTS_KEPT,
      ).then(() => {}, report);
      // Published before BullMQ records the job's end, as its log lines are: a follower hears the last report
      // before the end (on PostgreSQL's backend the publisher's connection could otherwise lose that race).
      logging.set(id, Promise.all([logging.get(id), published]).then(() => {}));
      if (percent !== undefined && !(typeof job.progress === "number" && percent <= job.progress)) {
        job.updateProgress(percent).catch(late(id, "a progress update")); // the highest: what a later start goes by
      }
    },
    watch(id, listener) {
      if (events === undefined) {
        events = new classes.QueueEvents(name, common);
        events.on("error", report);
        // A custom event of BullMQ's (QueueEventsProducer): its fields as published, its name as sent.
        (events as unknown as { on(name: string, listener: (event: { jobId: string; update: unknown }) => void): void })
          .on(PROGRESS_EVENT, ({ jobId, update }) => {
            const followers = watchers.get(jobId); // every instance hears every job's updates: most follow none
            if (followers === undefined) return;
            const data = typeof update === "string" ? parsed(update) : update;
            if (isUpdate(data)) { for (const follow of followers) follow(data); }
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
      await Promise.all([producer?.close(), events?.close(), publisher?.close()]);
    },
  };
}

/**
 * A job's data in BullMQ: what an operator reads (its tool, the call's request id, the MCP task's id when the call
 * became one, which start of it runs or ran last), and the sealed job.
 */
interface JobData {
  readonly tool?: string;
  readonly callId?: string | number;
  readonly taskId?: string;
  readonly attempt?: number;
  readonly data: string;
  /** BullMQ failed it as its run said: delivered again, it is an operator's Retry (Bull Board, `mcplite jobs retry`). */
  readonly failed?: true;
  /** The step an operator's retry runs again from (`mcplite jobs retry --from`). */
  readonly from?: string;
  /** The times its lock lapsed before its current run began (a run again starts counting from there). */
  readonly base?: number;
}

/**
 * Which start of a job a delivery is: one more than the times BullMQ found its lock lapsed (`stalledCounter`, on
 * Redis and on PostgreSQL alike) since its current run began (an operator's run again is a new run). Not `attemptsMade`, which counts only rejected runs here (the store out of reach,
 * before any start), nor `attemptsStarted`, which counts every delivery, a give-back and a sleep's included.
 */
function start(job: Job): number {
  return (job.stalledCounter ?? 0) - ((job.data as Partial<JobData> | null)?.base ?? 0) + 1;
}

/** JSON text's value, or `undefined` when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A job's update, as `WorkQueue.progress` carries it: its progress, or a log line. */
type Update = Parameters<NonNullable<WorkQueue["progress"]>>[1];

/** Whether an event's data is an update that `progress` sent (any process may publish on a queue's events). */
function isUpdate(data: unknown): data is Update {
  const update = data as { progress?: unknown; total?: unknown; message?: unknown; log?: unknown } | null;
  if (typeof update !== "object" || update === null) return false;
  if ("log" in update) {
    const log = update.log as { level?: unknown; logger?: unknown } | null;
    return typeof log === "object" && log !== null && typeof log.level === "string" &&
      (log.logger === undefined || typeof log.logger === "string");
  }
  return typeof update.progress === "number" &&
    (update.total === undefined || typeof update.total === "number") &&
    (update.message === undefined || typeof update.message === "string");
}
