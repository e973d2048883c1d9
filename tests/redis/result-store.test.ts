import { after, before } from "node:test";
import { createClient } from "redis";
import { redisResultStore } from "../../src/redis/mod.ts";
import type { ResultStore } from "../../mod.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";
import { describeSharedInstances } from "../helpers/instances.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

if (REDIS_MISSING) console.error(`redis: skipped: ${REDIS_MISSING}`);

let server: RedisServer | undefined;
let client: ReturnType<typeof createClient> | undefined;
let shared: ResultStore | undefined;

before(async () => {
  if (REDIS_MISSING) return;
  server = await startRedis();
  client = await createClient({ url: server.url, disableOfflineQueue: true }).connect();
  shared = redisResultStore(client, { prefix: `test:${crypto.randomUUID()}:` });
});

after(async () => {
  client?.destroy();
  await server?.stop();
});

describeResultStore(
  "redis",
  () =>
    Promise.resolve({
      store: redisResultStore(client!, { maxBytes: 1 << 20 }),
      prefix: crypto.randomUUID(),
      maxBytes: 1 << 20,
    }),
  { skip: REDIS_MISSING },
);

describeSharedInstances("redis", () => shared!, REDIS_MISSING);
