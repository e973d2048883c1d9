import { after, before } from "node:test";
import { redisResultStore } from "../../src/redis/mod.ts";
import type { ResultStore } from "../../mod.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";
import { describeSharedInstances } from "../helpers/instances.ts";
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
