import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { redisNotifier } from "../../src/redis/mod.ts";
import { assertAcrossInstances, assertNotifierContract } from "../helpers/notifier-instances.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

let server: RedisServer | undefined;
const clients = new Map<string, TestRedisClient>();

before(async () => {
  if (REDIS_MISSING) return;
  server = await startRedis();
  for (const kind of REDIS_CLIENTS) clients.set(kind.name, await kind.connect(server.url));
});

after(async () => {
  for (const client of clients.values()) client.close();
  await server?.stop();
});

describe("redisNotifier: notifications across instances", { skip: REDIS_MISSING }, () => {
  for (const { name } of REDIS_CLIENTS) {
    it(`carries resource updates and list changes raised on A to listeners on B and C (${name})`, async () => {
      const redis = clients.get(name)!;
      const channel = `test:${crypto.randomUUID()}`;
      const notifiers = [0, 1, 2].map(() => redisNotifier(redis.client, { channel }));
      await assertAcrossInstances(notifiers, async () => (await redis.subscribers(channel)) === 3);
    });
  }
});

describe("redisNotifier: the Notifier contract", { skip: REDIS_MISSING }, () => {
  for (const { name } of REDIS_CLIENTS) {
    it(`gives each message to every listener of one notifier, until each unsubscribes (${name})`, async () => {
      const redis = clients.get(name)!;
      const channel = `test:${crypto.randomUUID()}`;
      await assertNotifierContract(redisNotifier(redis.client, { channel }), () => redis.subscribers(channel));
      assert.equal(await redis.subscribers(channel), 0, "the channel is left with its last listener");
    });
  }
});
