/**
 * MCP through an outage of the shared store (a real redis-server stopped, then restarted on the same
 * port with its append-only file): `tasks/get` of a task whose work runs (MCP 2026-07-28, tasks
 * extension) and a `tools/call` that starts deferred work answer what every other wire answers, 503 with
 * `Retry-After` (RFC 9110 §15.6.4, §10.2.3) and the JSON-RPC body -32603 with `data: { reason:
 * "unavailable", retryAfterMs }`; once Redis is back the same task reads `completed`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createClient } from "redis";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, serve } from "../../mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { modernRequest } from "../helpers/request.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";

if (REDIS_MISSING) console.error(`redis tasks outage: skipped: ${REDIS_MISSING}`);

const TASKS = {
  _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } },
};

describe("MCP tasks/get while the store is down", { skip: REDIS_MISSING }, () => {
  it("answers 503 with Retry-After and -32603 unavailable, then the task's result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-redis-"));
    let redis = await startRedis({ persistIn: dir });
    const client = createClient({ url: redis.url });
    client.on("error", () => {}); // node-redis needs a listener; the outage reaches onError
    await client.connect();
    let release = () => {};
    const gate = new Promise<void>((resolve) => release = resolve);
    const server = createServer({
      name: "tasks",
      version: "0.0.1",
      secret: SECRET,
      resultStore: redisResultStore(client),
      onError: () => {},
      bindings: [mcpBinding()],
    }).tool(
      defineTool("work").describe("Answers once released").input(v.object({ n: v.number() }))
        .longRunning({ retryAfterMs: 50 })
        .handle(({ n }, ctx) => ctx.defer(async () => (await gate, { n }))),
    );
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const mcp = (method: string, params: Record<string, unknown>) => {
      const request = modernRequest(method, { ...params, ...TASKS });
      return fetch(new Request(listener.url + "/mcp", request), { signal: AbortSignal.timeout(5_000) });
    };
    try {
      const created = await (await mcp("tools/call", { name: "work", arguments: { n: 1 } })).json();
      assert.equal(created.result?.resultType, "task", JSON.stringify(created));
      const taskId = created.result.taskId;

      await redis.stop();
      for (
        const response of [
          await mcp("tasks/get", { taskId }),
          await mcp("tools/call", { name: "work", arguments: { n: 2 } }),
        ]
      ) {
        assert.equal(response.status, 503);
        const body = await response.json();
        assert.equal(body.error.code, -32603);
        assert.equal(body.error.data.reason, "unavailable");
        assert.equal(body.error.data.retryAfterMs, 1_000, "the tokens.retryAfterMs default");
        assert.equal(response.headers.get("retry-after"), "1", "retryAfterMs in whole seconds");
      }

      redis = await startRedis({ port: redis.port, persistIn: dir });
      release();
      await waitFor(async () => {
        const body = await (await mcp("tasks/get", { taskId })).json();
        return body.result?.status === "completed";
      });
      const done = await (await mcp("tasks/get", { taskId })).json();
      assert.deepEqual(done.result.result.structuredContent, { n: 1 });
    } finally {
      release();
      await listener.close();
      if (client.isOpen) client.destroy();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
