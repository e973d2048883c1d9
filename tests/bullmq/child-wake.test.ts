/**
 * A child's end wakes its parent (issue 100, item 4): on BullMQ over a real redis-server and a real PostgreSQL, a
 * parent that `invoke()`s a child goes back to the queue while the child runs, and the child's end wakes it through
 * `WorkQueue.wake` (asked with the parent's id, once the child ended) instead of the parent reading the child's entry
 * on a timer. The parent's safety read is a minute away: its answer within the bound below is the wake's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, invoke, runWorker } from "../../mod.ts";
import type { WorkQueue } from "../../src/types.ts";
import { queueBackends } from "../helpers/queue-backends.ts";
import { queueAndStore } from "../helpers/queue-store.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";

const SECRET = "child wake's secret: thirty-two bytes or more!";
/** How long a parent may take to end once its child ended: a bound for a loaded machine, under the safety read's. */
const END_MS = 30_000;

const servers = queueBackends("a child's end waking its parent");

for (const on of ["redis-server", "PostgreSQL"] as const) {
  describe(`a child's end wakes its parent (BullMQ on ${on})`, () => {
    it("the parent, asleep on the queue, is woken by its child's end and answers the child's value", async (t) => {
      const url = on === "redis-server" ? servers.redis?.url : servers.postgres?.url;
      if (url === undefined) return t.skip(`needs ${on}`);
      const opened = queueAndStore({ url, queue: `wake-${crypto.randomUUID()}`, lockMs: 5_000 });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => release = resolve);
      const woken: string[] = [];
      // The queue as the server has it, each wake it is asked for recorded.
      const queue: WorkQueue = { ...opened.queue, wake: (id) => (woken.push(id), opened.queue.wake!(id)) };
      const child = defineTool("child").describe("Waits at a gate, then answers").input(v.object({ n: v.number() }))
        .longRunning().defer(async ({ n }) => {
          await gate;
          return { twice: 2 * n };
        });
      const parent = defineTool("parent").describe("Invokes the child").input(v.object({ n: v.number() }))
        .longRunning().defer(async ({ n }, work) => ({
          child: await invoke(work, "child", child, { n }),
          job: work.jobId,
        }));
      const server = createServer({
        name: "wake",
        version: "1.0.0",
        secret: SECRET,
        resultStore: opened.resultStore,
        queue,
      })
        .tool(child).tool(parent);
      const worker = runWorker(server, { concurrency: 2 });
      try {
        const token = tokenOf(await server.call("parent", { n: 21 }));
        // The parent has gone back to the queue (no wake asked yet) while its child waits at the gate.
        assert.deepEqual(woken, []);
        release();
        const answer = answered(await redeemedWithin(server, token, END_MS)) as { child: unknown; job: string };
        assert.deepEqual(answer.child, { twice: 42 });
        assert.deepEqual(woken, [answer.job], "the child's end woke its parent, once");
      } finally {
        await worker.close();
        await opened.close();
      }
    });
  });
}
