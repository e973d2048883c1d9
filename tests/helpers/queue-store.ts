/**
 * BullMQ and a shared result store for the worker tests' servers (tests/helpers/queued-server.ts,
 * tests/helpers/jobs-server.ts): on Redis (the queue on BullMQ's Redis backend, `redisResultStore` on ioredis) or on
 * PostgreSQL (BullMQ's `createPostgresBackend`, `postgresResultStore` on node-postgres); or, with `kind: "store"`, the
 * queue kept in the shared store itself (`storeQueue()`: instances without a queue server).
 */
import process from "node:process";
import { createPostgresBackend } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { storeQueue } from "../../src/jobs/store-queue.ts";
import type { ResultStore } from "../../src/jobs/result-store.ts";
import { postgresResultStore } from "../../src/postgres/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";

/** Where {@link queueAndStore} makes its queue and store. */
export interface QueueStoreOptions {
  /** The store and queue: a Redis URL (`redis://127.0.0.1:port`) or a PostgreSQL one (`postgres://…`). */
  readonly url: string;
  /** The queue's name: one per test. */
  readonly queue: string;
  /** BullMQ's lock on a running job, and its stalled-job check's period, in ms (the store queue's lease). */
  readonly lockMs: number;
  /**
   * The queue: BullMQ on the store's backend (the default), or the shared store itself (`storeQueue()`), or none given:
   * `queue: "store"`: the server's own, which its instances keep in their store and each take from (`own`).
   */
  readonly kind?: "bullmq" | "store" | "own";
}

/**
 * BullMQ and the result store on the backend of `options.url` (Redis or PostgreSQL), with `close()` for their
 * connections and `ready()`, which resolves once the store answers.
 */
export function queueAndStore(options: QueueStoreOptions) {
  return options.url.startsWith("redis:") ? onRedis(options) : onPostgres(options);
}

/**
 * The queue of `options` on `resultStore`'s backend: BullMQ's (`bullmq`, made by `make`), or the store's own. The
 * store queue is polled every 100 ms (not 250: a test's jobs are taken sooner), its lease the lock's.
 */
function queueOn(options: QueueStoreOptions, resultStore: ResultStore, make: () => ReturnType<typeof bullmqQueue>) {
  // `own`: the server is given none (`queue: "store"`), and makes this one itself; a test may still open this one.
  if (options.kind !== "store" && options.kind !== "own") return make();
  const queue = storeQueue(resultStore.store!, { name: options.queue, leaseMs: options.lockMs, pollMs: 100 });
  return { ...queue, close: () => Promise.resolve() };
}

/** BullMQ on Redis, the results in the same Redis. */
function onRedis(options: QueueStoreOptions) {
  const redis = new Redis(options.url, { maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  const resultStore = redisResultStore(redis);
  const queue = queueOn(options, resultStore, () =>
    bullmqQueue({
      connection: options.url, // a Redis URL, as most deployments give it
      name: options.queue,
      lockMs: options.lockMs,
      onError: () => {}, // a worker killed or stopped in a test drops its connections
    }));
  const close = async () => {
    await queue.close();
    redis.disconnect();
  };
  const ready = async () => void await redis.ping();
  return { resultStore, queue, close, ready };
}

/** BullMQ on PostgreSQL (its Postgres backend), the results in the same database. */
function onPostgres(options: QueueStoreOptions) {
  const pool = new pg.Pool({ connectionString: options.url, max: 10 });
  pool.on("error", () => {});
  // A statement's bound (default 2 s) is one for a loaded machine here: these tests break the backend by stopping or
  // killing it, which fails statements at once; a CI machine running six lanes on two cores once took longer than 2 s
  // for one, which a kill test reads as an outage it did not make (the job suspended, then taken by the other worker).
  const resultStore = postgresResultStore(pool, { timeoutMs: 15_000 });
  const queue = queueOn(options, resultStore, () =>
    bullmqQueue({
      backend: createPostgresBackend,
      connection: { connectionString: options.url, migrate: true }, // BullMQ makes its schema on first use
      name: options.queue,
      lockMs: options.lockMs,
      onError: () => {},
    }));
  const close = async () => {
    await queue.close();
    await pool.end();
  };
  const ready = async () => void await pool.query("SELECT 1");
  return { resultStore, queue, close, ready };
}

/**
 * {@link queueAndStore} with a Redis client that counts the tools' effects outside the journal (`counters`, default
 * `options.url`, which must then be Redis), so that a test reads how often each ran; `close()` closes it too.
 */
export function countedQueueAndStore(options: QueueStoreOptions & { readonly counters?: string }) {
  const made = queueAndStore(options);
  const counters = new Redis(options.counters ?? options.url, { maxRetriesPerRequest: 1 });
  counters.on("error", () => {});
  const close = async () => {
    await made.close();
    counters.disconnect();
  };
  return { ...made, counters, close };
}

/**
 * What a worker's server module makes its server of (`mcplite worker`, a web instance): the environment's
 * `REDIS_URL` or `DATABASE_URL`, `QUEUE`, `LOCK_MS` and `COUNTER_URL`.
 *
 * @param make Makes the server of these options.
 * @returns What it made, or `undefined` without a URL (a test imports the module to make its own).
 */
export function fromEnvironment<T>(
  make: (options: QueueStoreOptions & { readonly counters?: string }) => T,
): T | undefined {
  const url = process.env.REDIS_URL ?? process.env.DATABASE_URL;
  return url === undefined ? undefined : make({
    url,
    counters: process.env.COUNTER_URL,
    queue: process.env.QUEUE ?? "mcplite",
    lockMs: Number(process.env.LOCK_MS ?? 30_000),
    kind: queueKind(process.env.QUEUE_KIND),
  });
}

/** The queue kind a process is told (`QUEUE_KIND`): BullMQ unless `store` or `own`. */
export function queueKind(told: string | undefined): NonNullable<QueueStoreOptions["kind"]> {
  return told === "store" || told === "own" ? told : "bullmq";
}
