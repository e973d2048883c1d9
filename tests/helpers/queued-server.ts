/**
 * A server with a BullMQ queue and a Redis result store, for the worker tests: the module web instances
 * and workers (`mcplite worker tests/helpers/queued-server.ts`) load alike. Exports `server` made from
 * the environment (`REDIS_URL`, `QUEUE`, `LOCK_MS`) and `queuedServer()` to make one in a test.
 *
 * Tools: `slow` (`retry`: three starts) and `fragile` (no `retry`) wait `ms` and answer
 * `{ n, pid }` (the worker's process id); `asks` asks the client a question from the worker.
 */
import process from "node:process";
import { Redis } from "ioredis";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { sleep } from "../../src/internal/sleep.ts";

export const QUEUED_SECRET = "queued jobs' secret: thirty-two bytes or more";

const args = v.object({ n: v.number(), ms: v.number() });
const work = ({ n, ms }: { n: number; ms: number }) => async (signal: AbortSignal) => {
  await sleep(ms, signal);
  return { n, pid: process.pid };
};

/** Options of {@link queuedServer}. */
export interface QueuedServerOptions {
  /** The Redis URL (`redis://127.0.0.1:port`). */
  readonly redisUrl: string;
  /** The queue's name: one per test. */
  readonly queue: string;
  /** BullMQ's lock on a running job, and its stalled-job check's period, in ms. */
  readonly lockMs: number;
}

/** A server with the queue and store, and `close()` for their connections. */
export function queuedServer(options: QueuedServerOptions) {
  const url = new URL(options.redisUrl);
  const redis = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  const queue = bullmqQueue({
    connection: { host: url.hostname, port: Number(url.port) },
    name: options.queue,
    lockMs: options.lockMs,
    onError: () => {}, // a worker killed or stopped in a test drops its connections
  });
  const server = createServer({
    name: "queued",
    version: "1.0.0",
    secret: QUEUED_SECRET,
    resultStore: redisResultStore(redis),
    queue,
    bindings: [mcpLiteBinding(), mcpBinding(), grpcBinding()],
  })
    .tool(
      defineTool("slow").describe("Waits, then answers (three starts)").input(args).longRunning({
        retry: { attempts: 3 },
      }).handle((a, ctx) => ctx.defer(work(a))),
    )
    .tool(
      defineTool("fragile").describe("Waits, then answers (one start)").input(args).longRunning().handle((a, ctx) =>
        ctx.defer(work(a))
      ),
    )
    .tool(
      defineTool("asks").describe("Asks the client, from the worker").longRunning().handle((_, ctx) =>
        ctx.defer(async () => {
          const answer = await ctx.elicit("colour", {
            message: "Which colour?",
            requestedSchema: { type: "object", properties: { colour: { type: "string" } } },
          });
          return { answer: answer.action === "accept" ? answer.content?.colour : answer.action, pid: process.pid };
        })
      ),
    );
  return {
    server,
    queue,
    close: async () => {
      await queue.close();
      redis.disconnect();
    },
  };
}

/** The server of the environment's settings, for `mcplite worker`. */
export const server = process.env.REDIS_URL === undefined ? undefined : queuedServer({
  redisUrl: process.env.REDIS_URL,
  queue: process.env.QUEUE ?? "mcplite",
  lockMs: Number(process.env.LOCK_MS ?? 30_000),
}).server;
