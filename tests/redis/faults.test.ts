/**
 * Redis failing under load: three instances share one real redis-server (with an append-only file, as in
 * production) while jobs run, and Redis is stopped (SIGTERM) or killed (`kill -9`) mid-load, then restarted, with
 * each client the store takes; what holds meanwhile is `survive()`'s (tests/helpers/store-faults.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { redisNotifier, redisResultStore } from "../../src/redis/mod.ts";
import { REDIS_CLIENTS, type RedisClientKind, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { survive } from "../helpers/store-faults.ts";

if (REDIS_MISSING) console.error(`redis faults: skipped: ${REDIS_MISSING}`);

/** Starts Redis with an append-only file, and breaks it with `breakIt` in the middle of `survive()`. */
async function onRedis(kind: RedisClientKind, breakIt: (redis: RedisServer) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-redis-"));
  let redis = await startRedis({ persistIn: dir });
  const clients: TestRedisClient[] = [];
  try {
    await survive({
      async instance() {
        const connected = await kind.connect(redis.url); // with the application's own error listener
        clients.push(connected);
        return {
          resultStore: redisResultStore(connected.client),
          notifier: redisNotifier(connected.client),
          close: connected.close,
        };
      },
      listening: async () => (await clients[0].subscribers("mcplite:notifications")) === 3,
      break: () => breakIt(redis),
      async restore() {
        redis = await startRedis({ port: redis.port, persistIn: dir });
      },
    });
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("three instances on one Redis that fails under load", { skip: REDIS_MISSING }, () => {
  for (const kind of REDIS_CLIENTS) {
    it(`survives a stop (SIGTERM) and restart: nothing lost, every redeem retryable meanwhile (${kind.name})`, async () => {
      await onRedis(kind, (redis) => redis.stop());
    });

    it(`survives a kill -9 and restart: nothing lost, every redeem retryable meanwhile (${kind.name})`, async () => {
      await onRedis(kind, (redis) => redis.kill());
    });
  }
});
