/**
 * `storeQueue()` (issue 100, item 2: a queue over the shared store, for instances without a queue server) passes the
 * queue conformance cases (`workQueueCases()`) on the in-memory store, on a real redis-server and on a real
 * PostgreSQL, each started by the test; and a job whose taker stopped mid-run (its claim never renewed, as a process
 * killed) is delivered again by another taker as its next start, with nobody reading it; and operators read the jobs
 * in it (`inspect`: their state, tool, call and start).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { createMemoryResultStore } from "../../mod.ts";
import { storeQueue } from "../../src/jobs/store-queue.ts";
import { postgresResultStore } from "../../src/postgres/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import type { SharedStore } from "../../src/store/shared-store.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { describeWorkQueue } from "../helpers/work-queue-conformance.ts";

let redis: RedisServer | undefined;
let client: TestRedisClient | undefined;
let postgres: PostgresServer | undefined;
let pool: pg.Pool | undefined;

before(async () => {
  if (!REDIS_MISSING) {
    redis = await startRedis();
    client = await REDIS_CLIENTS[0].connect(redis.url, false);
  }
  if (!POSTGRES_MISSING) {
    postgres = await startPostgres();
    pool = new pg.Pool({ connectionString: postgres.url, max: 20 });
    pool.on("error", () => {});
  }
});

after(async () => {
  client?.close();
  await redis?.stop();
  await pool?.end();
  await postgres?.remove();
});

const memory = createMemoryResultStore().store!;
/** The stores the queue is checked on: opened once each, after the servers started. */
const stores: [name: string, open: () => SharedStore, skip: string | false][] = [
  ["the memory store", () => memory, false],
  ["redis-server", () => redisResultStore(client!.client, { prefix: "store-queue:" }).store!, REDIS_MISSING],
  ["PostgreSQL", () => postgresResultStore(pool!, { table: "store_queue" }).store!, POSTGRES_MISSING],
];

// A short lease and poll: the cases of a delivery that never settles, and the sweeps, take little time.
const OPTIONS = { leaseMs: 1_500, pollMs: 50 };

for (const [name, open, skip] of stores) {
  describeWorkQueue(`storeQueue on ${name}`, (queue) => storeQueue(open(), { ...OPTIONS, name: queue }), skip);

  describe(`storeQueue on ${name}: a taker that stops mid-run`, { skip }, () => {
    it("has its job delivered again by another taker, as the next start, once its claim lapsed", async () => {
      const store = open(), queueName = `lapse-${crypto.randomUUID()}`;
      // A's process is cut off mid-run, as one killed: from then on every call it makes to the store fails, so its
      // claim is never renewed, and its run never settles (until the test lets it go, at the end).
      let cut = false;
      const storeOfA = new Proxy(store, {
        get: (target, key) =>
          typeof key === "symbol"
            ? Reflect.get(target, key)
            : (...args: unknown[]) =>
              cut
                ? Promise.reject(new Error("A was killed"))
                : (target[key as keyof SharedStore] as (...a: unknown[]) => unknown).apply(target, args),
      });
      const a = storeQueue(storeOfA, { ...OPTIONS, name: queueName });
      const b = storeQueue(store, { ...OPTIONS, name: queueName });
      let started!: () => void, letGo!: () => void;
      const startedOnA = new Promise<void>((resolve) => started = resolve);
      const hanging = new Promise<"done">((resolve) => letGo = () => resolve("done"));
      const takerA = a.take(() => (started(), hanging), { concurrency: 1, warn: () => {} });
      await a.add("job-1", "the data");
      await startedOnA;
      cut = true;
      const deliveries: [string, number, boolean | undefined][] = [];
      let ran!: () => void;
      const ranOnB = new Promise<void>((resolve) => ran = resolve);
      const takerB = b.take((data, start, first) => {
        deliveries.push([data, start, first]);
        ran();
        return Promise.resolve("done");
      }, { concurrency: 1 });
      try {
        await ranOnB;
      } finally {
        await takerB.close();
        letGo();
        await takerA.close();
      }
      // Its second start, not its first delivery: the one on A began and never settled.
      assert.deepEqual(deliveries, [["the data", 2, false]]);
      // A's late end changes nothing: the job is B's, done, and never delivered again.
      assert.equal(await b.remove!("job-1"), false);
    });
  });

  describe(`storeQueue on ${name}: what operators read (mcplite jobs list and show)`, { skip }, () => {
    it("lists the jobs in the queue, the latest first, with their state, tool, call and start", async () => {
      const queue = storeQueue(open(), { ...OPTIONS, name: `ops-${crypto.randomUUID()}` });
      await queue.add("j1", "d1", { tool: "report", callId: 7 });
      await new Promise((resolve) => setTimeout(resolve, 5)); // a later add, by the clock
      await queue.add("j2", "d2", { tool: "ledger" });
      const brief = (items: Awaited<ReturnType<NonNullable<typeof queue.inspect>>>) =>
        items.map((item) => [item.id, item.state, item.tool, item.callId, item.attempt]);
      assert.deepEqual(brief(await queue.inspect!({})), [
        ["j2", "waiting", "ledger", undefined, undefined],
        ["j1", "waiting", "report", 7, undefined],
      ]);
      assert.deepEqual(brief(await queue.inspect!({ limit: 1 })), [["j2", "waiting", "ledger", undefined, undefined]]);
      // One taker runs one job at a time: the first it claims is active, its first start, the other still waiting.
      let release!: () => void;
      const held = new Promise<"done">((resolve) => release = () => resolve("done"));
      let claimed!: (data: string) => void;
      const running = new Promise<string>((resolve) => claimed = resolve);
      const taker = queue.take((data) => (claimed(data), held), { concurrency: 1 });
      try {
        const first = (await running) === "d1" ? "j1" : "j2";
        assert.deepEqual((await queue.inspect!({ states: ["active"] })).map((item) => [item.id, item.attempt]), [
          [first, 1],
        ]);
        assert.deepEqual((await queue.inspect!({ id: first })).map((item) => item.state), ["active"]);
      } finally {
        release();
        await taker.close();
      }
      assert.deepEqual(await queue.inspect!({ id: "never-added" }), []);
    });
  });
}
