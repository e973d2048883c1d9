/**
 * The in-memory result store keeps jobs' journals apart from its entries (`createMemoryResultStore().journalStore`),
 * bounded at 100 times `maxEntries` steps, so one job of 1,000 steps evicts neither the other calls' results nor its
 * own steps, which a start after its sleep reads from the journal.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
import { describeJournalStore } from "../helpers/journal-store-conformance.ts";
import { SECRET } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { tokenOf } from "../helpers/instances.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";

describeJournalStore("the in-memory result store's own", () => {
  const { journalStore } = createMemoryResultStore();
  assert.ok(journalStore, "createMemoryResultStore() has a journal store");
  return journalStore;
});

describe("the in-memory result store's journals", () => {
  it("a job of 1,000 steps evicts no other call's result, nor its own steps, from a store of 1,000 entries", async () => {
    const { queue, delays } = memoryQueue();
    let runs = 0;
    const server = createServer({
      name: "q",
      version: "1",
      secret: SECRET,
      resultStore: createMemoryResultStore(), // its default bounds: 1,000 entries
      queue,
    })
      .tool(defineTool("quick").describe("Answers at once").longRunning().defer(() => ({ kept: true })))
      .tool(
        // 999 steps and a sleep: the job goes back to its queue, and its next start reads its steps from the journal.
        defineTool("long").describe("999 steps, then a sleep").longRunning().defer(async (_, work) => {
          let sum = 0;
          for (let i = 1; i <= 999; i++) sum += await work.step(`s${i}`, () => (runs++, i));
          await work.sleep(200);
          return { sum };
        }),
      );
    const worker = runWorker(server);
    try {
      const quick = tokenOf(await server.call("quick", {}));
      assert.deepEqual(answered(await redeemedWithin(server, quick, 30_000)), { kept: true });
      const long = tokenOf(await server.call("long", {}));
      assert.deepEqual(answered(await redeemedWithin(server, long, 30_000)), { sum: 999 * 1_000 / 2 });
      assert.equal(delays.length, 1, "the job slept once, handed back to its queue");
      assert.equal(runs, 999, "each step ran once: the start after the sleep read them all from the journal");
      assert.deepEqual(answered(await redeemedWithin(server, quick, 30_000)), { kept: true }, "the other result");
    } finally {
      await worker.close();
    }
  });

  it("keeps journals apart from its entries, in up to 100 times maxEntries steps, the oldest steps going first", async () => {
    const store = createMemoryResultStore({ maxEntries: 2 });
    const journals = store.journalStore!;
    const append = async (job: string, steps: number) => {
      for (let i = 1; i <= steps; i++) {
        await journals.append(job, { name: `s${i}`, position: i, value: i, at: i }, 60_000);
      }
    };
    await store.set("r1", { status: "working" }, 60_000);
    await store.set("r2", { status: "working" }, 60_000);
    await append("j1", 150);
    assert.equal((await journals.load("j1")).length, 150);
    assert.deepEqual([await store.get("r1"), await store.get("r2")], [{ status: "working" }, { status: "working" }]);
    await append("j2", 100); // 250 steps in all: 200 are kept, j1's first 50 go
    assert.deepEqual(
      (await journals.load("j1")).map(({ name }) => name),
      [...Array(100).keys()].map((i) => `s${i + 51}`),
    );
    assert.equal((await journals.load("j2")).length, 100);
    assert.deepEqual([await store.get("r1"), await store.get("r2")], [{ status: "working" }, { status: "working" }]);
  });
});
