/**
 * The server of the queue bench (`bench/queue.ts`), as its web instance and its workers
 * (`bench/queue-worker.ts`) both make it: `.longRunning()` tools whose deferred work awaits 10 ms of
 * simulated I/O (`io10`), nothing (`io0`), or takes 999 steps and a sleep (`steps`, a resume), a shared result store, and, when a queue
 * name is given, a BullMQ queue on the same backend: Redis (`redisResultStore` on ioredis, BullMQ on
 * Redis) or PostgreSQL (`postgresResultStore` on a `pg` pool, BullMQ's `createPostgresBackend`).
 *
 * @module
 */
import { createPostgresBackend } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import * as v from "valibot";
import { createServer, defineTool, type JournalStore, type ResultStore } from "../mod.ts";
import type { StoredResult } from "../src/jobs/result-store.ts";
import { bullmqQueue } from "../src/bullmq/mod.ts";
import { postgresResultStore } from "../src/postgres/mod.ts";
import { redisResultStore } from "../src/redis/mod.ts";
import { sleep } from "../src/internal/sleep.ts";

/** The secret every instance and worker of the bench shares. */
export const QUEUE_BENCH_SECRET = "the queue bench's secret: thirty-two bytes or more";

/** Where the queue and the result store live. */
export type Backend = "redis" | "postgres";

/** Options of {@link queueBenchServer}. */
export interface QueueBenchOptions {
  /** The backend. */
  readonly backend: Backend;
  /** Its URL: `redis://127.0.0.1:port` or `postgres://user@127.0.0.1:port/db`. */
  readonly url: string;
  /** The BullMQ queue's name; none: no queue (the deferred work runs in this process, the default). */
  readonly queue?: string;
  /** The result store to use instead of a new one on the backend (the web instance shares one). */
  readonly store?: ResultStore;
  /** `bullmqQueue`'s `keepCompletedMs` (its default, an hour, when not given; 0: BullMQ removes a job as it completes). */
  readonly keepCompletedMs?: number;
  /** Counts the loads and appends of the jobs' journals (the backend store's own journal store), when given. */
  readonly journals?: { loads: number; appends: number };
}

/** A shared store on the backend, connected, and `close()` for its connection. */
export async function benchStore(
  backend: Backend,
  url: string,
): Promise<{ store: ResultStore; close(): Promise<void> }> {
  if (backend === "redis") {
    const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
    client.on("error", () => {});
    await client.connect(); // the store refuses commands while its client is not connected
    return { store: redisResultStore(client), close: () => Promise.resolve(client.disconnect()) };
  }
  const pool = new pg.Pool({ connectionString: url });
  pool.on("error", () => {});
  return { store: postgresResultStore(pool), close: () => pool.end() };
}

const args = v.object({ n: v.number() });

/** Whether an entry has ended (a result, a failure or a cancellation). */
export function ended(entry: StoredResult | undefined): boolean {
  return entry !== undefined && entry.status !== "working" && entry.status !== "input_required";
}

/** The bench's server; `close()` closes its queue and (when it made it) its store. */
export async function queueBenchServer(options: QueueBenchOptions) {
  const own = options.store === undefined ? await benchStore(options.backend, options.url) : undefined;
  const store = options.store ?? own!.store;
  const queue = options.queue === undefined ? undefined : bullmqQueue(
    options.backend === "redis"
      ? {
        connection: { host: new URL(options.url).hostname, port: Number(new URL(options.url).port) },
        name: options.queue,
        keepCompletedMs: options.keepCompletedMs,
      }
      : {
        // `migrate: true`: BullMQ makes its schema on first use (a bare connection string never does).
        connection: { connectionString: options.url, migrate: true },
        name: options.queue,
        keepCompletedMs: options.keepCompletedMs,
        backend: createPostgresBackend,
      },
  );
  const counted = options.journals;
  const inner = store.journalStore;
  const journalStore: JournalStore | undefined = counted === undefined || inner === undefined ? undefined : {
    load: (job) => (counted.loads++, inner.load(job)),
    append: (job, entry, ttlMs) => (counted.appends++, inner.append(job, entry, ttlMs)),
  };
  const server = createServer({
    name: "queue-bench",
    version: "1.0.0",
    secret: QUEUE_BENCH_SECRET,
    resultStore: store,
    ...(journalStore === undefined ? {} : { journalStore }),
    ...(queue === undefined ? {} : { queue }),
  })
    .tool(
      defineTool("io10").describe("Deferred work: 10 ms of simulated I/O").input(args).longRunning()
        .defer(async ({ n }, work) => {
          await sleep(10, work.signal);
          return { n };
        }),
    )
    .tool(
      defineTool("io0").describe("Deferred work that awaits nothing").input(args).longRunning()
        .defer(({ n }) => ({ n })),
    )
    .tool(
      // 999 steps and a sleep, the most one job takes: queued, the sleep hands it back to the queue, and the
      // next delivery resumes it, its steps read from the journal (once: issue 85, "resuming reads the journal once").
      defineTool("steps").describe("999 steps, then a sleep of 100 ms").input(args).longRunning()
        .defer(async ({ n }, work) => {
          let sum = n;
          for (let i = 1; i <= 999; i++) sum += await work.step(`s${i}`, () => i);
          await work.sleep(100); // long enough to suspend (a shorter one may be over once recorded)
          return { sum };
        }),
    );
  return {
    server,
    store,
    close: async () => {
      await queue?.close();
      await own?.close();
    },
  };
}
