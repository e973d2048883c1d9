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
import { readUntil } from "../helpers/wait.ts";

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
  const redeem = () => server.call("redeem", { promise: token });
  const outcome = await readUntil(redeem, (outcome) => outcome.kind !== "promise", "the job's end", {
    timeoutMs: 20_000,
    everyMs: 10,
  });
  return { outcome, at: performance.now() };
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
      const asleep = Promise.withResolvers<void>();
      // The wake time on the servers' clock, read as the work goes to sleep (the journal's, read after it, is no
      // earlier): each later delivery must come at it or after, whatever the machine's load made of the wait.
      let wakeAt = Infinity;
      const woke: boolean[] = []; // at each delivery of the sleeper after the first, whether its wake time had come
      const runs: string[] = [];
      const server = queuedInProcess("sleeper", queue).server.tool(
        defineTool("nap").input(v.object({ id: v.string() })).longRunning().defer(async ({ id }, work) => {
          runs.push(id);
          if (id === "sleeper") {
            if (runs.filter((run) => run === id).length === 1) {
              wakeAt = Date.now() + SLEEP_MS;
              asleep.resolve();
            } else woke.push(Date.now() >= wakeAt);
            await work.sleep(SLEEP_MS); // asleep on the first delivery; past its wake time on the second
          }
          return `${id} done`;
        }),
      );
      const worker = runWorker(server, { concurrency: 1 });
      try {
        const sleeper = tokenOf(await server.call("nap", { id: "sleeper" }));
        await asleep.promise;
        const other = tokenOf(await server.call("nap", { id: "other" }));
        const [first, second] = await Promise.all([ended(server, sleeper), ended(server, other)]);
        for (const [{ outcome }, text] of [[first, "sleeper done"], [second, "other done"]] as const) {
          assert.deepEqual(outcome.kind === "answer" ? outcome.result.content : outcome, [{ type: "text", text }]);
        }
        assert.deepEqual(woke, [true], "the sleeper was delivered again at its wake time or after, not before");
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
