/**
 * `redisJournalStore()` on a real redis-server (started by the test), on both clients: the journal store conformance
 * cases, and the store `redisResultStore()` brings, which a server takes without being told: a job's journal is a
 * hash of its own, not entries of the result store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import { redisJournalStore, redisResultStore } from "../../src/redis/mod.ts";
import { describeJournalStore } from "../helpers/journal-store-conformance.ts";
import { SECRET } from "../helpers/long-running.ts";
import { redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

if (REDIS_MISSING) console.error(`redis: skipped: ${REDIS_MISSING}`);

let server: RedisServer | undefined;
const clients = new Map<string, TestRedisClient>();

before(async () => {
  if (REDIS_MISSING) return;
  server = await startRedis();
  for (const kind of REDIS_CLIENTS) clients.set(kind.name, await kind.connect(server.url, false));
});

after(async () => {
  for (const client of clients.values()) client.close();
  await server?.stop();
});

for (const { name } of REDIS_CLIENTS) {
  describeJournalStore(`redis (${name})`, () => redisJournalStore(clients.get(name)!.client), { skip: REDIS_MISSING });
  describeJournalStore(
    `redisResultStore()'s (${name})`,
    () => redisResultStore(clients.get(name)!.client, { prefix: `test:${crypto.randomUUID()}:` }).journalStore!,
    { skip: REDIS_MISSING },
  );
}

describe("a server on redisResultStore()", { skip: REDIS_MISSING }, () => {
  for (const { name } of REDIS_CLIENTS) {
    it(`keeps its jobs' journals in a hash per job, not in the result store's entries (${name})`, async () => {
      const client = clients.get(name)!.client;
      const prefix = `test:${crypto.randomUUID()}:`;
      const resultStore = redisResultStore(client, { prefix });
      const tool = defineTool("stepped").describe("Two steps").longRunning().defer(async (_, work) => {
        await work.step("a", () => 1);
        await work.step("b", () => ({ two: 2 }));
        return { job: work.jobId };
      });
      const app = createServer({ name: "r", version: "1", secret: SECRET, resultStore }).tool(tool);
      const outcome = await redeemedWithin(app, tokenOf(await app.call("stepped", {})), 15_000);
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
      const { job } = (outcome as { result: { structuredContent?: unknown } }).result.structuredContent as {
        job: string;
      };
      const journal = await redisJournalStore(client, { prefix: `${prefix}journal:` }).load(job);
      assert.deepEqual(
        journal.map(({ name, position, value }) => ({ name, position, value })).sort((x, y) => x.position - y.position),
        [{ name: "a", position: 1, value: 1 }, { name: "b", position: 2, value: { two: 2 } }],
      );
      assert.equal(await resultStore.get(`step:${job}:a`), undefined, "no step entry in the result store");
    });
  }
});
