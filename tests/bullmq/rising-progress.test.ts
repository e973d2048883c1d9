/**
 * Progress never goes backwards (MCP 2025-11-25, Progress: "The progress value MUST increase with each
 * notification"): queued work whose `work.progress()` runs outside a step reports it again after every wake-up of a
 * durable sleep, and our client following the call over MCP-lite (its SSE stream, MCP-lite spec v0.042 §5.3) sees
 * each step once, rising, and BullMQ's percentage for the boards never falls; on a real redis-server and a real
 * PostgreSQL (BullMQ's Postgres backend), each started by the test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { defineTool, runWorker, serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { queuedInProcess } from "../helpers/queued-in-process.ts";
import type { WorkQueue } from "../../src/types.ts";

const servers = queueBackends("rising progress");

/** Each of the work's two durable sleeps: it goes back to the queue, and runs again from the top when it wakes. */
const SLEEP_MS = 300;

const BACKENDS = bullmqBackends(servers);

for (const backend of BACKENDS) {
  describe(`progress across a queued job's wake-ups (${backend.on})`, { skip: backend.missing }, () => {
    it("reaches our client once per step, rising, though the work reports each again after each wake-up", async () => {
      await thirds(backend.queue(`rising-${crypto.randomUUID()}`));
    });

    it("reaches our client past a wake-up when the work began in this process before our client followed it", async () => {
      // As on a loaded machine: the worker beside the web side took the job before the call's stream followed it,
      // and followed that run only, which ends at the first sleep (a CI run saw [1] of 1, 2, 3).
      let began!: () => void;
      const begins = new Promise<void>((resolve) => began = resolve);
      const queue = backend.queue(`rising-${crypto.randomUUID()}`);
      await thirds({ ...queue, add: async (...args) => void await Promise.all([queue.add(...args), begins]) }, began);
    });

    it("reaches our client though the queue carries the last report after the job's end", async () => {
      // As BullMQ's events can on a loaded machine (a CI run saw [1, 2] of 1, 2, 3): the end is found first (here in
      // process, elsewhere by a store read), the last report still on its way through the queue's events.
      await thirds(late(backend.queue(`rising-${crypto.randomUUID()}`)));
    });
  });
}

/** How late `late()` delivers each update: longer than the work takes from its last report to its end. */
const LATE_MS = 1_000;

/** `queue`, its `watch` delivering each update `LATE_MS` after the queue carried it (none once stopped). */
function late<Q extends WorkQueue>(queue: Q): Q {
  return {
    ...queue,
    watch(id, listener) {
      const timers = new Set<ReturnType<typeof setTimeout>>();
      const stop = queue.watch!(id, (update) => {
        const timer = setTimeout(() => timers.delete(timer) && listener(update), LATE_MS);
        timers.add(timer);
      });
      return () => {
        for (const timer of timers) clearTimeout(timer);
        stop();
      };
    },
  };
}

/**
 * Calls `thirds` on a server over `queue` with a worker beside it, and checks what our client saw; `began` is told
 * when the work begins.
 */
async function thirds(queue: WorkQueue & { close(): Promise<void> }, began = () => {}): Promise<void> {
  const server = queuedInProcess("rising", queue).server.tool(
    defineTool("thirds").describe("Three steps, two sleeps").input(v.object({})).longRunning().defer(
      async (_, work) => {
        began();
        work.progress(1, 3, "step 1"); // outside a step: run again at each wake-up
        await work.sleep(SLEEP_MS);
        work.progress(2, 3, "step 2");
        await work.sleep(SLEEP_MS);
        work.progress(3, 3, "step 3");
        return "thirds";
      },
    ),
  );
  const worker = runWorker(server, { concurrency: 1 });
  const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  const client = createClient(`${listener.url}/mcp-lite/v1`);
  try {
    const seen: number[] = [];
    const result = await client.callTool("thirds", {}, {
      onProgress: (progress) => void seen.push(progress.progress),
      timeoutMs: 30_000,
    });
    assert.deepEqual(result.content, [{ type: "text", text: "thirds" }]);
    assert.equal(seen.at(-1), 3, JSON.stringify(seen));
    for (const [i, progress] of seen.entries()) {
      if (i > 0) assert.ok(progress > seen[i - 1], `progress went back: ${JSON.stringify(seen)}`);
    }
  } finally {
    await client.close();
    await worker.close();
    await listener.close();
    await queue.close();
  }
}
