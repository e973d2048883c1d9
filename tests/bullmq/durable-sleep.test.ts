/**
 * The durable sleep's seam through the queue: work whose `work.sleep()` suspends its run on a worker is never a
 * result; the worker resolves its run `{ delayMs }`, the queue delivers the job again once the sleep is over (BullMQ: a
 * delayed job), as the same start, and a job queued meanwhile runs on the one slot the sleeper does not hold. On the
 * queue in memory of the tests, on BullMQ over a real redis-server and over a real PostgreSQL.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { type CallOutcome, defineTool, runWorker } from "../../mod.ts";
import type { WorkQueue } from "../../src/types.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { queuedInProcess } from "../helpers/queued-in-process.ts";

/** How long the work sleeps, in ms. */
const SLEEP_MS = 800;

const servers = queueBackends("durable sleep");

const QUEUES: { on: string; missing: string | false; open(): WorkQueue & { close?(): Promise<void> } }[] = [
  { on: "memory", missing: false, open: () => memoryQueue().queue },
  ...bullmqBackends(servers).map(({ on, missing, queue }) => ({
    on: `BullMQ on ${on}`,
    missing,
    open: () => queue(`sleep-${crypto.randomUUID()}`),
  })),
];

/** Redeems `token` until it ends (at most 20 s, a bound for a loaded machine), noting when it did. */
async function ended(server: { call(name: string, args: unknown): Promise<CallOutcome> }, token: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const outcome = await server.call("redeem", { promise: token });
    if (outcome.kind !== "promise") return { outcome, at: performance.now() };
    assert.ok(Date.now() < deadline, "the job did not end in 20 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise", JSON.stringify(outcome));
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).token;
}

for (const { on, missing, open } of QUEUES) {
  describe(`a durable sleep through the queue (${on})`, { skip: missing }, () => {
    it("delivers the job again once it wakes, as the same start, never as a result; a job meanwhile takes the slot", async () => {
      const opened = open();
      const starts: number[] = []; // each delivery's start, as the queue gives it
      const queue: WorkQueue = {
        ...opened,
        take: (run, options) => opened.take((data, start) => (starts.push(start), run(data, start)), options),
      };
      let slept = false;
      const runs: string[] = [];
      const server = queuedInProcess("sleeper", queue).server.tool(
        defineTool("nap").input(v.object({ id: v.string() })).longRunning().defer(async ({ id }, work) => {
          runs.push(id);
          if (id === "sleeper") {
            slept = true;
            await work.sleep(SLEEP_MS); // asleep on the first delivery; past its wake time on the second
          }
          return `${id} done`;
        }),
      );
      const worker = runWorker(server, { concurrency: 1 });
      try {
        const sleeper = tokenOf(await server.call("nap", { id: "sleeper" }));
        const began = performance.now();
        while (!slept) await new Promise((resolve) => setTimeout(resolve, 5));
        const other = tokenOf(await server.call("nap", { id: "other" }));
        const [first, second] = await Promise.all([ended(server, sleeper), ended(server, other)]);
        for (const [{ outcome }, text] of [[first, "sleeper done"], [second, "other done"]] as const) {
          assert.deepEqual(outcome.kind === "answer" ? outcome.result.content : outcome, [{ type: "text", text }]);
        }
        assert.ok(first.at - began >= SLEEP_MS - 50, `the sleeper ended ${first.at - began} ms after it was called`);
        assert.ok(second.at < first.at, "the job queued meanwhile ran while the sleeper slept");
        assert.deepEqual(runs, ["sleeper", "other", "sleeper"]);
        assert.deepEqual(starts, [1, 1, 1], "a sleep is no start");
      } finally {
        await worker.close();
        await opened.close?.();
      }
    });
  });
}
