/**
 * A real redis-server and a real PostgreSQL for the tests of one file, started before its tests and stopped after
 * them (each skipped, with the reason on stderr, where it is missing), for the BullMQ tests on both backends.
 */
import { after, before } from "node:test";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "./postgres-server.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "./redis-server.ts";
import { ONCE_PER_RUN } from "./once-per-run.ts";
import { createPostgresBackend, Queue, withBackend } from "bullmq";
import { bullmqQueue, type BullmqQueueOptions } from "../../src/bullmq/mod.ts";

/** The running servers of the file, once its `before()` ran (`undefined` where missing). */
export interface QueueBackends {
  readonly redis?: RedisServer;
  readonly postgres?: PostgresServer;
}

/**
 * Starts both in `before()`, stops them in `after()`.
 *
 * @param what What the file tests, for the skip messages.
 * @returns The servers, read once the tests run.
 */
export function queueBackends(what: string): QueueBackends {
  if (REDIS_MISSING) console.error(`${what} on redis-server: skipped: ${REDIS_MISSING}`);
  if (POSTGRES_MISSING) console.error(`${what} on PostgreSQL: skipped: ${POSTGRES_MISSING}`);
  const servers: { redis?: RedisServer; postgres?: PostgresServer } = {};
  before(async () => {
    [servers.redis, servers.postgres] = await Promise.all([
      REDIS_MISSING ? undefined : startRedis(),
      POSTGRES_MISSING ? undefined : startPostgres(),
    ]);
  });
  after(async () => {
    await Promise.all([servers.redis?.stop(), servers.postgres?.remove()]);
  });
  return servers;
}

/** One backend of `bullmqBackends()`: its name, why it is missing (skip), a queue on it, and BullMQ's own `Queue`. */
export interface BullmqBackend {
  readonly on: "redis-server" | "PostgreSQL";
  readonly missing: string | false;
  /** `bullmqQueue()` of `name` on it (with `options`: its lock, how long it keeps jobs), its errors dropped. */
  readonly queue: (name: string, options?: QueueTuning) => ReturnType<typeof bullmqQueue>;
  /** BullMQ's own `Queue` of `name` on it, as a board (Bull Board) or an operator's script opens one. */
  readonly board: (name: string) => Queue;
}

/** What a test may set of `bullmqQueue()`'s options, beside where it connects. */
type QueueTuning = Pick<BullmqQueueOptions, "lockMs" | "keepCompletedMs" | "keepFailedMs">;

/**
 * `bullmqQueue()` on each of a file's servers: BullMQ on redis-server, and on PostgreSQL (its Postgres backend).
 *
 * @param servers The file's servers (`queueBackends()`).
 * @returns Both backends, each making a queue of a name, and BullMQ's own `Queue` of it.
 */
export function bullmqBackends(servers: QueueBackends): readonly BullmqBackend[] {
  // BullMQ makes its schema on PostgreSQL on first use (`migrate`).
  const postgres = () => ({ connectionString: servers.postgres!.url, migrate: true });
  return [
    {
      on: "redis-server",
      missing: REDIS_MISSING,
      queue: (name, options) => bullmqQueue({ ...options, connection: servers.redis!.url, name, onError: () => {} }),
      board: (name) => new Queue(name, { connection: { url: servers.redis!.url } }),
    },
    {
      on: "PostgreSQL",
      missing: POSTGRES_MISSING,
      queue: (name, options) =>
        bullmqQueue({ ...options, backend: createPostgresBackend, connection: postgres(), name, onError: () => {} }),
      // The same methods, on another backend.
      board: (name) =>
        new (withBackend(createPostgresBackend).Queue)(name, { connection: postgres() }) as unknown as Queue,
    },
  ];
}

/**
 * Where a test's `mcplite worker` processes (tests/helpers/jobs-server.ts) run jobs: BullMQ's backend, the variable
 * they read its URL from, and the Redis that counts the jobs' effects and holds their gates.
 */
export interface WorkerBackend {
  readonly url: string;
  readonly variable: "REDIS_URL" | "DATABASE_URL";
  readonly counters: string;
  /** The queue: BullMQ (the default), or the shared store's own (`storeQueue()`). */
  readonly kind?: "bullmq" | "store";
}

/**
 * The backends of the worker tests, once the file's servers are up: BullMQ on redis-server, and on PostgreSQL with
 * the counters on the redis-server.
 *
 * @param servers The file's servers (`queueBackends()`).
 * @returns Each backend's name, why it is missing (read in a test), where it is, and the `skip` of the file's variant
 *   with the workers on Node 22: it runs once per `npm test` (ONCE_PER_RUN) and on redis-server only, since what it
 *   checks is the workers' runtime, which no backend changes (the Bun and Deno variants check each backend).
 */
export function workerBackends(servers: QueueBackends): readonly {
  readonly name: "redis-server" | "PostgreSQL";
  readonly missing: () => string | false;
  readonly backend: () => WorkerBackend;
  readonly node22Skip: string | false;
}[] {
  return [
    {
      name: "redis-server",
      node22Skip: ONCE_PER_RUN,
      missing: () => servers.redis ? false : "needs redis-server",
      backend: () => ({ url: servers.redis!.url, variable: "REDIS_URL", counters: servers.redis!.url }),
    },
    {
      name: "PostgreSQL",
      node22Skip: "the Node 22 variant runs on redis-server: the workers' runtime is what it checks",
      missing: () => servers.redis && servers.postgres ? false : "needs redis-server (the counters) and PostgreSQL",
      backend: () => ({ url: servers.postgres!.url, variable: "DATABASE_URL", counters: servers.redis!.url }),
    },
  ];
}

/**
 * The backends of the worker tests with the queue kept in the shared store itself (`storeQueue()`: instances that
 * share a store and no queue server), on redis-server and on PostgreSQL, the counters on the redis-server: the same
 * shape as {@link workerBackends}', their Node 22 variant skipped (it checks the workers' runtime, which BullMQ's
 * variant does).
 *
 * @param servers The file's servers (`queueBackends()`).
 * @returns Each backend, as {@link workerBackends} gives them.
 */
export function storeQueueBackends(servers: QueueBackends): ReturnType<typeof workerBackends> {
  const node22Skip = "the Node 22 variant runs with BullMQ: the workers' runtime is what it checks";
  return workerBackends(servers).map((bullmq) => ({
    ...bullmq,
    name: bullmq.name,
    node22Skip,
    backend: () => ({ ...bullmq.backend(), kind: "store" as const }),
  }));
}
