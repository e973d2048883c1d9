/**
 * The first store-backed request of a fresh process, made while its Redis client is still connecting (the client
 * created as the process starts, its connection not awaited), waits for that connection, within the store's
 * `timeoutMs`, and gets its real answer instead of a 503; a Redis that is really down still answers 503 with
 * `Retry-After` (RFC 9110 §15.6.4), the retryable "send again later", and at once once it was found down.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding } from "../../mod.ts";
import { redisResultStore, type RedisResultStoreOptions } from "../../src/redis/mod.ts";
import { SECRET } from "../helpers/long-running.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";
import { modernRequest } from "../helpers/request.ts";

if (REDIS_MISSING) console.error(`redis first connection: skipped: ${REDIS_MISSING}`);

const TASKS = {
  _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } },
};

/** A server whose one tool defers its work (its task is written to the store before the call answers). */
function jobsServer(connected: Pick<TestRedisClient, "client">, options?: RedisResultStoreOptions) {
  const server = createServer({
    name: "jobs",
    version: "0.0.1",
    secret: SECRET,
    resultStore: redisResultStore(connected.client, options),
    onError: () => {},
    bindings: [mcpBinding()],
  }).tool(
    defineTool("work").describe("Works in the background").input(v.object({ n: v.number() }))
      .longRunning({ retryAfterMs: 50 })
      .handle(({ n }, ctx) => ctx.defer(() => Promise.resolve({ n }))),
  );
  return (method: string, params: Record<string, unknown>) =>
    server.fetch(new Request(modernRequest(method, { ...params, ...TASKS })));
}

describe("the first store-backed request of a fresh process", { skip: REDIS_MISSING }, () => {
  for (const kind of REDIS_CLIENTS) {
    it(`waits for the client's first connection and gets its task (${kind.name})`, async () => {
      const redis = await startRedis();
      const connected = kind.start(redis.url);
      try {
        const mcp = jobsServer(connected);
        const response = await mcp("tools/call", { name: "work", arguments: { n: 1 } });
        const created = await response.json();
        assert.equal(response.status, 200, JSON.stringify(created));
        assert.equal(created.result.resultType, "task");
        const got = await (await mcp("tasks/get", { taskId: created.result.taskId })).json();
        assert.equal(got.result.taskId, created.result.taskId, JSON.stringify(got));
      } finally {
        connected.close();
        await redis.stop();
      }
    });

    it(`answers 503 with Retry-After while Redis is down, first request and next (${kind.name})`, async () => {
      const redis = await startRedis();
      await redis.stop(); // nothing listens on its port any more
      const connected = kind.start(redis.url);
      try {
        const mcp = jobsServer(connected, { timeoutMs: 300 });
        for (let attempt = 0; attempt < 2; attempt++) {
          const response = await mcp("tools/call", { name: "work", arguments: { n: attempt } });
          assert.equal(response.status, 503);
          assert.equal(response.headers.get("retry-after"), "1");
          const body = await response.json();
          assert.equal(body.error.data.reason, "unavailable");
        }
      } finally {
        connected.close();
      }
    });
  }

  it("connects an ioredis client made with lazyConnect, which connects on its first command (ioredis)", async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url, { lazyConnect: true });
    client.on("error", () => {});
    try {
      const mcp = jobsServer({ client });
      const response = await mcp("tools/call", { name: "work", arguments: { n: 1 } });
      assert.equal(response.status, 200, await response.clone().text());
      assert.equal((await response.json()).result.resultType, "task");
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });
});
