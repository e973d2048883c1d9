import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { redisResultStore } from "../../src/redis/mod.ts";
import type { ResultStore } from "../../mod.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";
import { describeSharedStore } from "../helpers/shared-store-conformance.ts";
import { describeSharedInstances } from "../helpers/instances.ts";
import { assertTooLarge, exportThrough } from "../helpers/large-results.ts";
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
  // The store contract, natively (issue 100, item 1): the shared store the result store is a view of.
  describeSharedStore(
    `redis (${name})`,
    () => redisResultStore(clients.get(name)!.client, { maxBytes: 1 << 20 }).store!,
    { maxBytes: 1 << 20, skip: REDIS_MISSING },
  );

  describeResultStore(
    `redis (${name})`,
    () => redisResultStore(clients.get(name)!.client, { maxBytes: 1 << 20 }),
    { maxBytes: 1 << 20, skip: REDIS_MISSING },
  );

  let shared: ResultStore | undefined;
  describeSharedInstances(
    `redis (${name})`,
    () => shared ??= redisResultStore(clients.get(name)!.client, { prefix: `test:${crypto.randomUUID()}:` }),
    REDIS_MISSING,
  );
}

describe("a deferred result larger than the Redis store's bound", { skip: REDIS_MISSING }, () => {
  for (const { name } of REDIS_CLIENTS) {
    it(`fails past the default 1 MiB saying how to get past it, and passes a raised bound (${name})`, async () => {
      const client = clients.get(name)!.client;
      const prefix = `large:${crypto.randomUUID()}:`;
      assertTooLarge(await exportThrough(redisResultStore(client, { prefix }), 2 << 20), 1 << 20);
      const raised = await exportThrough(redisResultStore(client, { prefix, maxBytes: 8 << 20 }), 5 << 20);
      assert.deepEqual(raised, { type: "text", text: "x".repeat(5 << 20) });
    });
  }
});
