/**
 * A Redis that stops answering without closing its connections (frozen with SIGSTOP, as a stalled host or a
 * dead peer behind a half-open socket looks): each store operation fails within the store's `timeoutMs`, as a
 * retryable outage, the client is reopened, operations fail at once while it reconnects, and once Redis
 * answers again the store reads what it held. On both clients the store takes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { redisResultStore } from "../../src/redis/mod.ts";
import type { StoredResult } from "../../src/jobs/result-store.ts";
import { waitFor } from "../helpers/long-running.ts";
import { REDIS_CLIENTS } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";

const TIMEOUT_MS = 300;
const entry: StoredResult = { status: "completed", result: { content: [{ type: "text", text: "kept" }] } };

describe("the Redis store when Redis stops answering", { skip: REDIS_MISSING }, () => {
  for (const kind of REDIS_CLIENTS) {
    it(`fails each operation within timeoutMs, reopens the client, and reads again once Redis answers (${kind.name})`, {
      timeout: 60_000,
    }, async () => {
      const redis = await startRedis();
      const { client, close } = await kind.connect(redis.url);
      try {
        const store = redisResultStore(client, { prefix: `hung:${crypto.randomUUID()}:`, timeoutMs: TIMEOUT_MS });
        assert.equal(await store.set("a", entry, 60_000), true);
        redis.pause();
        await assert.rejects(store.get("a"), new RegExp(`Redis did not answer within ${TIMEOUT_MS} ms`));
        // Reopening (or reopened but not yet ready): refused at once, not queued behind the frozen server.
        await assert.rejects(store.get("a"), /Redis (is not connected|did not answer)/);
        redis.resume();
        let read: StoredResult | undefined;
        await waitFor(async () => {
          read = await store.get("a").catch(() => undefined);
          return read !== undefined;
        }, 20_000);
        assert.deepEqual(read, entry);
        assert.equal(await store.set("b", entry, 60_000), true);
      } finally {
        close();
        await redis.stop();
      }
    });
  }
});
