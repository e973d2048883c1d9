/**
 * A follower never misses a job's end, on either backend: BullMQ's `QueueEvents` missed `completed` events under
 * concurrency on its PostgreSQL backend in a peer's comparison, and a stream that follows a queued job (our client
 * over MCP-lite SSE, MCP-lite spec v0.042 §5.3) hears its progress through queue events, but its end from the result
 * store, read again until the job has ended. 64 calls at once, each followed to its result, 16 jobs at a time on
 * one worker, on a real redis-server and a real PostgreSQL (BullMQ's Postgres backend), each started by the test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { defineTool, runWorker, serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { queuedInProcess } from "../helpers/queued-in-process.ts";

const servers = queueBackends("followers");

const CALLS = 64;

const BACKENDS = bullmqBackends(servers);

for (const backend of BACKENDS) {
  describe(`followers of queued jobs (${backend.on})`, { skip: backend.missing }, () => {
    it(`${CALLS} calls at once, each followed over SSE: every one gets its own result`, async () => {
      const queue = backend.queue(`followers-${crypto.randomUUID()}`);
      const server = queuedInProcess("followers", queue).server.tool(
        defineTool("echo").describe("Echoes n").input(v.object({ n: v.number() })).longRunning().defer(
          ({ n }, work) => {
            work.progress(1, 1, `echo ${n}`);
            return { n };
          },
        ),
      );
      const worker = runWorker(server, { concurrency: 16 });
      const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
      const client = createClient(`${listener.url}/mcp-lite/v1`);
      try {
        const results = await Promise.all(
          Array.from(
            { length: CALLS },
            (_, n) => client.callTool("echo", { n }, { onProgress: () => {}, timeoutMs: 60_000 }),
          ),
        );
        assert.deepEqual(results.map((result) => result.structuredContent), results.map((_, n) => ({ n })));
      } finally {
        await client.close();
        await worker.close();
        await listener.close();
        await queue.close();
      }
    });
  });
}
