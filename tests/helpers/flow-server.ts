/**
 * A server whose declared work has flow control (`.longRunning({ concurrency, rateLimit })`), with a BullMQ queue and
 * a shared result store (Redis or PostgreSQL, as tests/helpers/jobs-server.ts), for tests/jobs/flow-control.test.ts.
 * Each job records what it did in Redis (`COUNTER_URL`, else `REDIS_URL`): how many of its key run (an INCR that
 * finds another is an overlap), when it started and ended. Exports `server` made from the environment (with
 * `LEASE_MS`, the slots' lease) for `mcplite worker`, and `flowServer()` to make one in a test.
 */
import process from "node:process";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { sleep } from "../../src/internal/sleep.ts";
import { countedQueueAndStore, fromEnvironment, type QueueStoreOptions } from "./queue-store.ts";
import { readUntil } from "./wait.ts";

const SECRET = "flow control's secret: thirty-two bytes or more";

/** How long a `keyed` job works, in ms: long enough that jobs of two keys overlap. */
const WORK_MS = 300;
/** How long a `held` job waits at its gate at most: a bound for a stuck test, not a measure. */
const GATE_MS = 60_000;

/** Where a queue's records of `what` (`running:K`, `overlaps`, `spans:K`, `starts:K`, `gate`) are kept. */
export const flowKey = (queue: string, what: string): string => `${queue}:${what}`;

/** Options of {@link flowServer}: its queue and store, where it records, and its slots' lease. */
export interface FlowServerOptions extends QueueStoreOptions {
  readonly counters?: string;
  readonly leaseMs: number;
}

/** A server with the tools, its counters' client, and `close()` for their connections. */
export function flowServer(options: FlowServerOptions) {
  const { resultStore, queue, counters, close, ready } = countedQueueAndStore(options);
  const key = (what: string) => flowKey(options.queue, what);
  const say = (line: string) => process.stderr.write(`${line}\n`); // on the worker: the tests wait for these lines
  const keyed = v.object({ n: v.number(), key: v.string() });
  const server = createServer({
    name: "flow",
    version: "1.0.0",
    secret: SECRET,
    resultStore,
    queue,
    leaseMs: options.leaseMs,
  })
    .tool(
      defineTool("keyed").describe("Works a while, one at a time per key").input(keyed)
        .longRunning({ concurrency: { limit: 1, key: ({ key }) => key } })
        .defer(async ({ n, key: k }, work) => {
          const started = Date.now();
          if (await counters.incr(key(`running:${k}`)) > 1) await counters.incr(key("overlaps"));
          await sleep(WORK_MS, work.signal);
          await counters.decr(key(`running:${k}`));
          await counters.rpush(key(`spans:${k}`), JSON.stringify([started, Date.now(), process.pid]));
          return { n };
        }),
    )
    .tool(
      defineTool("rated").describe("Records its start, at most 5 a second per key").input(keyed)
        .longRunning({ rateLimit: { limit: 5, periodMs: 1_000, key: ({ key }) => key } })
        .defer(async ({ n, key: k }) => {
          await counters.rpush(key(`starts:${k}`), String(Date.now()));
          return { n };
        }),
    )
    .tool(
      defineTool("held").describe("Says it holds its key's slot, then waits at the gate").input(keyed)
        .longRunning({ concurrency: { limit: 1, key: ({ key }) => key }, retry: { attempts: 3 } })
        .defer(async ({ n }, work) => {
          say(`job ${n} holds its key`);
          await readUntil(() => counters.exists(key("gate")), (set) => set > 0, `job ${n}: the gate's opening`, {
            timeoutMs: GATE_MS,
            everyMs: 50,
            signal: work.signal,
          });
          return { n, pid: process.pid };
        }),
    );
  return { server, counters, close, ready };
}

/** The server of the environment's settings, for `mcplite worker`. */
const made = fromEnvironment((options) => flowServer({ ...options, leaseMs: Number(process.env.LEASE_MS ?? 2_000) }));
export const server = made?.server;
/** Closes the connections of `server`. */
export const close = made?.close;
