/**
 * `.longRunning()`'s flow control through a server and a worker in one process, on BullMQ over a real redis-server and
 * a real PostgreSQL: a call deduplicated joins the first call's job (its work runs once, both get its result); a
 * priority reaches BullMQ; a priority function's value out of range, or a key that throws, fails the call as it is (not
 * as the queue out of reach). A worker refuses, as it starts, limits out of range, and `dedupe` or `priority` on a
 * queue without `flowControl`; a server without a queue refuses them as it adds the tool (nothing would hold them). A job
 * counts once against its rate limit, woken from its sleeps.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { queuedInProcess } from "../helpers/queued-in-process.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { answered, failedWith, redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";
import type { LongRunningOptions } from "../../src/types.ts";

const servers = queueBackends("flow control options");

/** How long a job may take to end, at most: a bound for a loaded machine, not a measure. */
const END_MS = 30_000;

/** A tool deduplicated by `key`, whose work waits for `gate` and counts its runs; ordered by `rank`. */
function flowTools(gate: Promise<void>) {
  const runs: number[] = [];
  const once = defineTool("once").input(v.object({ key: v.string(), n: v.number() }))
    .longRunning({ dedupe: { key: ({ key }) => key } })
    .defer(async ({ n }) => {
      runs.push(n);
      await gate;
      return { ran: n };
    });
  const ranked = defineTool("ranked").input(v.object({ rank: v.number() }))
    .longRunning({ priority: ({ rank }) => rank })
    .defer(({ rank }) => ({ rank }));
  const keyless = defineTool("keyless").input(v.object({}))
    .longRunning({ dedupe: { key: () => JSON.parse("{") } })
    .defer(() => "never");
  return { runs, tools: [once, ranked, keyless] as const };
}

for (const backend of bullmqBackends(servers)) {
  describe(`flow control options through a server (${backend.on})`, { skip: backend.missing }, () => {
    it("a deduplicated call joins the first call's job: one run, both answered its result", async () => {
      const name = `flow-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      let open!: () => void;
      const { runs, tools: [once] } = flowTools(new Promise((resolve) => open = resolve));
      const server = queuedInProcess("flow", queue).server.tool(once);
      const worker = runWorker(server, { concurrency: 4 });
      try {
        const first = tokenOf(await server.call("once", { key: "k", n: 1 }));
        const second = tokenOf(await server.call("once", { key: "k", n: 2 }));
        const other = tokenOf(await server.call("once", { key: "j", n: 3 }));
        open();
        const answers = await Promise.all(
          [first, second, other].map(async (token) => answered(await redeemedWithin(server, token, END_MS))),
        );
        assert.deepEqual(answers, [{ ran: 1 }, { ran: 1 }, { ran: 3 }]);
        assert.deepEqual(runs.sort(), [1, 3]);
      } finally {
        await worker.close();
        await queue.close();
      }
    });

    it("a job counts once against its rate, however often it wakes from a sleep", async () => {
      const name = `flow-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      // One start a minute: a wake-up counted as a start would wait that minute.
      const napper = defineTool("napper").input(v.object({}))
        .longRunning({ rateLimit: { limit: 1, periodMs: 60_000 } })
        .defer(async (_, work) => {
          await work.sleep(100);
          await work.sleep(100);
          return { woke: 2 };
        });
      const server = queuedInProcess("flow", queue).server.tool(napper);
      const worker = runWorker(server, { concurrency: 2 });
      try {
        const token = tokenOf(await server.call("napper", {}));
        assert.deepEqual(answered(await redeemedWithin(server, token, END_MS)), { woke: 2 });
      } finally {
        await worker.close();
        await queue.close();
      }
    });

    it("a priority reaches BullMQ; one out of range, or a key that throws, fails the call as it is", async () => {
      const name = `flow-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      const { tools } = flowTools(Promise.resolve());
      const made = queuedInProcess("flow", queue, { logger: false }); // the failures are this test's, not news
      const [ranked, keyless] = [tools[1], tools[2]];
      const server = made.server.tool(ranked).tool(keyless);
      const ids = made.ids;
      try {
        tokenOf(await server.call("ranked", { rank: 7 }));
        assert.equal((await board.getJob(ids[0]))?.opts.priority, 7);
        for (
          const [tool, args, message] of [
            ["ranked", { rank: 0 }, /priority 0 is not an integer from 1 \(first\) to 2097152/],
            ["keyless", {}, /its priority or dedupe key failed on these arguments/],
          ] as const
        ) {
          // Its own message, not "The job queue is unavailable; send the request again later".
          assert.match(failedWith(await server.call(tool, args)), message);
        }
      } finally {
        await board.close();
        await queue.close();
      }
    });
  });
}

describe("flow control options, checked", () => {
  const server = (tool: ReturnType<typeof defineTool>, queue = memoryQueue().queue) =>
    createServer({
      name: "flow",
      version: "1.0.0",
      secret: "flow options' secret: thirty-two bytes or more",
      resultStore: createMemoryResultStore(),
      queue,
    }).tool(tool as never);
  const work = () => "done";

  it("a worker refuses limits out of range, and dedupe or priority on a queue without flowControl", async () => {
    const cases = [
      [{ concurrency: { limit: 0 } }, /concurrency.limit must be from 1 to 1000/],
      [{ rateLimit: { limit: 5, periodMs: 0 } }, /rateLimit needs a limit from 1 to 1000 and a periodMs/],
      [{ concurrency: { limit: 1, key: "k" } }, /concurrency.key must be a function/],
      [{ dedupe: { key: () => "k" } }, /dedupe and priority need a queue that orders and deduplicates/],
      [{ priority: 3 }, /dedupe and priority need a queue that orders and deduplicates/],
    ] as const;
    for (const [options, message] of cases) {
      const tool = defineTool("t").describe("Flow-controlled work").input(v.object({})).longRunning(options as never)
        .defer(work);
      assert.throws(() => runWorker(server(tool as never)), message);
    }
    const fine = defineTool("t").describe("Flow-controlled work").input(v.object({})).longRunning({
      concurrency: { limit: 2 },
    }).defer(work);
    await runWorker(server(fine as never)).close();
  });

  it("without a queue the server refuses each option as it adds the tool, naming flow control and the queue that holds it", () => {
    const local = () =>
      createServer({ name: "flow", version: "1.0.0", secret: "flow options' secret: thirty-two bytes or more" });
    const flows: Record<string, LongRunningOptions<{ key: string }>> = {
      concurrency: { concurrency: { limit: 1, key: ({ key }: { key: string }) => key } },
      rateLimit: { rateLimit: { limit: 5, periodMs: 1_000 } },
      dedupe: { dedupe: { key: ({ key }: { key: string }) => key } },
      priority: { priority: 2 },
    };
    for (const options of Object.values(flows)) {
      const tool = defineTool("t").describe("Flow-controlled work").input(v.object({ key: v.string() }))
        .longRunning(options).defer(({ key }) => ({ key }));
      assert.throws(() => local().tool(tool), {
        name: "TypeError",
        message: `tool "t": flow control needs createServer({ queue })`,
      });
    }
    // The same tool with a queue is taken (a worker holds the limits).
    const queued = defineTool("t").describe("Flow-controlled work").input(v.object({ key: v.string() }))
      .longRunning(flows.concurrency!).defer(({ key }) => ({ key }));
    createServer({
      name: "flow",
      version: "1.0.0",
      secret: "flow options' secret: thirty-two bytes or more",
      queue: memoryQueue().queue,
      resultStore: createMemoryResultStore(),
    }).tool(queued);
  });
});
