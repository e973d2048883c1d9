/**
 * A flow-control key's slots are taken in turn, first come first served (issue 100, item 4): with concurrency 1 on one
 * key, 200 queued calls run one at a time in the order they were made, each waiting job asleep until the release before
 * it wakes it (a long safety poll otherwise), and the store operations of the key's line and slots stay bounded per job
 * (counted here, not timed: the count is printed for bench/RESULTS.md). A job cancelled while it waits leaves the line
 * to the next. In one process: a worker of concurrency 8 on a queue in memory, the results in a counted memory store.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, runWorker } from "../../mod.ts";
import { resultStoreOver } from "../../src/jobs/result-store-view.ts";
import { createMemoryStore } from "../../src/store/memory-store.ts";
import type { SharedStore } from "../../src/store/shared-store.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";

/** How many jobs wait on the key. */
const JOBS = 200;
/** The most store operations of the key's line and slots a job may cost, in all its deliveries. */
const OPS_PER_JOB = 30;
/** How long the 200 jobs may take to run one after another: a bound for a loaded machine, not a measure. */
const ALL_MS = 60_000;

/** A shared store whose operations on flow control's keys (its `flow` namespace) are counted. */
function counted(store: SharedStore): { store: SharedStore; readonly ops: number } {
  let ops = 0;
  const count = <A extends unknown[], R>(op: (key: string, ...rest: A) => R) => (key: string, ...rest: A): R => {
    if (key.startsWith("flow:")) ops++;
    return op.call(store, key, ...rest);
  };
  return {
    store: {
      get: count(store.get),
      put: count(store.put),
      putIfAbsent: count(store.putIfAbsent),
      compareAndSet: count(store.compareAndSet),
      delete: count(store.delete),
      addMember: count(store.addMember),
      removeMember: count(store.removeMember),
      members: count(store.members),
    },
    get ops() {
      return ops;
    },
  };
}

describe("a flow-control key's slots, taken in turn", () => {
  it(
    "runs 200 jobs of one key with concurrency 1 in the order of their calls, a bounded count of store operations each",
    {
      timeout: 120_000,
    },
    async () => {
      const store = counted(createMemoryStore({ maxEntries: 100_000 }));
      const { queue } = memoryQueue();
      const started: number[] = [];
      let running = 0, most = 0;
      const server = createServer({
        name: "turns",
        version: "1.0.0",
        secret: SECRET,
        resultStore: resultStoreOver(store.store),
        queue,
        logger: false,
      }).tool(
        defineTool("ledger").describe("Writes one entry of the ledger at a time").input(v.object({ n: v.number() }))
          .longRunning({ concurrency: { limit: 1, key: () => "ledger" } })
          .defer(async ({ n }) => {
            started.push(n);
            most = Math.max(most, ++running);
            await new Promise((resolve) => setTimeout(resolve, 1));
            running--;
            return { n };
          }),
      );
      const worker = runWorker(server, { concurrency: 8 });
      try {
        for (let n = 0; n < JOBS; n++) assert.equal((await server.call("ledger", { n })).kind, "promise");
        await waitFor(() => started.length === JOBS, ALL_MS);
        assert.equal(most, 1, "never two of the key at once");
        assert.deepEqual(started, Array.from({ length: JOBS }, (_, n) => n), "in the order of their calls");
        const perJob = store.ops / JOBS;
        console.log(`flow control, concurrency 1, ${JOBS} jobs: ${perJob.toFixed(1)} store operations a job`);
        assert.ok(perJob <= OPS_PER_JOB, `${perJob} store operations a job`);
      } finally {
        await worker.close();
      }
    },
  );

  it("a job cancelled while it waits leaves the line: the one behind it runs next, the cancelled one never", {
    timeout: 120_000,
  }, async () => {
    const { queue } = memoryQueue();
    const started: string[] = [];
    const gate = Promise.withResolvers<void>();
    const server = createServer({
      name: "turns",
      version: "1.0.0",
      secret: SECRET,
      resultStore: resultStoreOver(createMemoryStore()),
      queue,
      logger: false,
    }).tool(
      defineTool("ledger").describe("Writes one entry of the ledger at a time").input(v.object({ who: v.string() }))
        .longRunning({ concurrency: { limit: 1, key: () => "ledger" } })
        .defer(async ({ who }) => {
          started.push(who);
          if (who === "a") await gate.promise;
          return { who };
        }),
    );
    const worker = runWorker(server, { concurrency: 4 });
    try {
      const tokens: Record<string, string> = {};
      for (const who of ["a", "b", "c"]) {
        const outcome = await server.call("ledger", { who });
        assert.equal(outcome.kind, "promise");
        if (outcome.kind === "promise") tokens[who] = outcome.token;
      }
      await waitFor(() => started.includes("a")); // a holds the slot; b and c wait in line, asleep
      assert.match(JSON.stringify(await server.call("redeem", { promise: tokens.b, cancel: true })), /cancelled/);
      gate.resolve();
      await waitFor(() => started.includes("c"), ALL_MS);
      assert.deepEqual(started, ["a", "c"], "b, cancelled in line, never ran");
    } finally {
      await worker.close();
    }
  });
});
