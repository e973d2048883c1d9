/**
 * A flow-control claim while the store is down (issue 87: nothing finished lost, every answer honest): a server and a
 * worker in one process on BullMQ over a real redis-server (with an append-only file, as in production), whose result
 * store is Redis too; Redis goes down as the worker claims the job's concurrency slot (the store's write of the claim),
 * and starts again on the same data. The job is not lost and not run twice: it runs once Redis is back, and answers.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, type ResultStore, runWorker } from "../../mod.ts";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";
import { waitFor } from "../helpers/long-running.ts";

if (REDIS_MISSING) console.error(`flow claim outage: skipped: ${REDIS_MISSING}`);

/** How long the job may take to end, at most: a bound for a loaded machine, not a measure. */
const END_MS = 60_000;
/** BullMQ's lock on a running job: a job whose worker lost Redis is delivered again within one to two of these. */
const LOCK_MS = 5_000; // 2 s lapsed now and then on a loaded machine (a live worker's lock, renewed each second)

describe("a flow-control claim while Redis is down", { skip: REDIS_MISSING }, () => {
  const dir = scratchDir("mcplite-flow-outage-"); // made as the file loads: removed after the suite
  let redis: RedisServer | undefined;
  let connected: TestRedisClient | undefined;
  after(async () => {
    connected?.close();
    await redis?.stop();
  });

  it("the job is not lost and not run twice: it runs once Redis is back", async () => {
    redis = await startRedis({ persistIn: dir });
    const port = redis.port;
    connected = await REDIS_CLIENTS[0].connect(redis.url, false);
    const store = redisResultStore(connected.client);
    let restarted: Promise<void> | undefined;
    // The store as Redis keeps it; the first claim of a slot (a record of the shared store's `flow` namespace, which
    // the result store is a view of) stops Redis first, and starts it again a moment later.
    const records = store.store!;
    const resultStore: ResultStore = {
      ...store,
      store: {
        ...records,
        async putIfAbsent(key: string, value: unknown, ttlMs: number) {
          if (key.startsWith("flow:") && restarted === undefined) {
            await redis!.stop();
            restarted = (async () => {
              redis = await startRedis({ port, persistIn: dir });
            })();
          }
          return await records.putIfAbsent(key, value, ttlMs);
        },
      },
    };
    const queue = bullmqQueue({
      connection: redis.url,
      name: `flow-${crypto.randomUUID()}`,
      lockMs: LOCK_MS,
      onError: () => {},
    });
    let runs = 0;
    const server = createServer({
      name: "flow",
      version: "1.0.0",
      secret: "flow outage's secret: thirty-two bytes or more",
      resultStore,
      queue,
      onError: () => {}, // the outage, told: what the test asserts is the job's end
    }).tool(
      defineTool("limited").describe("One at a time").input(v.object({})).longRunning({ concurrency: { limit: 1 } })
        .defer(() => ({ runs: ++runs })),
    );
    const worker = runWorker(server, { concurrency: 2 });
    try {
      const token = tokenOf(await server.call("limited", {}));
      await waitFor(() => restarted !== undefined); // the worker's claim met the outage
      await restarted;
      assert.equal(runs, 0);
      assert.deepEqual(answered(await redeemedWithin(server, token, END_MS)), { runs: 1 });
      assert.equal(runs, 1);
    } finally {
      await restarted;
      await worker.close();
      await queue.close();
    }
  });
});
