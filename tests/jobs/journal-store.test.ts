/**
 * Where jobs keep their journals (`JournalStore`): the conformance cases on a result store's entries (with and without
 * sets); a 1,000-step job woken from a sleep loads its journal once, not once per step; a start whose steps or sleeps
 * come in another order than its journal's is refused naming the step and what the journal holds, never replayed,
 * unless `work.patched()` keeps the old way for the jobs begun before the change.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type CallOutcome,
  createMemoryResultStore,
  createServer,
  defineTool,
  type JournalStore,
  runWorker,
  type ServerOptions,
} from "../../mod.ts";
import { journalStoreFromResults } from "../../src/jobs/result-store-journals.ts";
import { describeJournalStore } from "../helpers/journal-store-conformance.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { ended, failedWith } from "../helpers/outcome.ts";

/** A memory store large enough for a journal of 1,000 entries besides their index. */
const roomy = () => createMemoryResultStore({ maxEntries: 10_000 });

describeJournalStore("a result store's entries (memory, with sets)", () => journalStoreFromResults(roomy()));
describeJournalStore("a result store's entries (memory, without sets)", () => {
  const { get, set, delete: remove } = roomy();
  return journalStoreFromResults({ get, set, delete: remove });
});

describe("a job's journal", () => {
  it("is loaded once by a start that resumes a 1,000-step job after its sleep, not once per step", async () => {
    const { queue, delays } = memoryQueue();
    const results = roomy();
    const inner = journalStoreFromResults(results);
    const loads: string[] = [];
    const journalStore: JournalStore = { load: (job) => (loads.push(job), inner.load(job)), append: inner.append };
    let runs = 0;
    // 999 steps and a sleep: the most one job may take. The sleep hands the job back to its queue, whose next
    // delivery starts it again: its 999 steps come from the journal.
    const tool = defineTool("long").describe("999 steps, then a sleep").longRunning().defer(async (_, work) => {
      let sum = 0;
      for (let i = 1; i <= 999; i++) sum += await work.step(`s${i}`, () => (runs++, i));
      await work.sleep(500);
      return { sum };
    });
    const server = createServer({ name: "q", version: "1", secret: SECRET, resultStore: results, journalStore, queue })
      .tool(tool);
    const worker = runWorker(server);
    try {
      const outcome = await ended(server, await server.call("long", {}));
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
      assert.deepEqual((outcome as { result: { structuredContent?: unknown } }).result.structuredContent, {
        sum: 999 * 1_000 / 2,
      });
      assert.equal(delays.length, 1, "the job slept once, handed back to its queue");
      assert.equal(runs, 999, "each step ran once");
      assert.equal(loads.length, 1, "the start after the sleep loaded the journal once (the first loads none)");
    } finally {
      await worker.close();
    }
  });

  describe("a start whose steps or sleeps differ from its journal", () => {
    let runsOfRetried = 0;
    /** The jobs whose patched step ran. */
    const patchedRuns: string[] = [];
    /** The work as the job began it: a step, a sleep (the job goes back to its queue), a step. */
    const began = defineTool("job").describe("Steps and a sleep").longRunning().defer(async (_, work) => {
      await work.step("a", () => 1);
      await work.sleep(300);
      return { b: await work.step("b", () => 2) };
    });
    const versions = {
      /** The same work: the job goes on from its journal. */
      same: began,
      /** Its first step renamed. */
      renamed: defineTool("job").describe("Steps and a sleep").longRunning().defer(async (_, work) => {
        await work.step("x", () => 1);
        await work.sleep(300);
        return { b: await work.step("b", () => 2) };
      }),
      /** Its first step renamed, in work that retries thrown errors: a refusal is final, never retried. */
      renamedRetried: defineTool("job").describe("Steps and a sleep").longRunning({ retry: { attempts: 3 } })
        .defer(async (_, work) => {
          runsOfRetried++;
          await work.step("x", () => 1);
          await work.sleep(300);
          return { b: await work.step("b", () => 2) };
        }),
      /** A step added before the sleep, where `work.patched()` says so: jobs begun before it go on the old way. */
      patched: defineTool("job").describe("Steps and a sleep").longRunning().defer(async (_, work) => {
        await work.step("a", () => 1);
        const c = await work.patched("add-c") ? await work.step("c", () => (patchedRuns.push(work.jobId), 3)) : 0;
        await work.sleep(300);
        return { b: await work.step("b", () => 2), c };
      }),
      /** A step added before the sleep. */
      added: defineTool("job").describe("Steps and a sleep").longRunning().defer(async (_, work) => {
        await work.step("a", () => 1);
        await work.step("c", () => 3);
        await work.sleep(300);
        return { b: await work.step("b", () => 2) };
      }),
    };

    /** Begins the job on one worker, then wakes it from its sleep on a worker of `next`; its end. */
    async function resumedBy(next: keyof typeof versions): Promise<CallOutcome> {
      const { queue, delays } = memoryQueue();
      const options: ServerOptions = { name: "q", version: "1", secret: SECRET, resultStore: roomy(), queue };
      const first = createServer({ ...options, logger: false }).tool(began);
      const second = createServer({ ...options, logger: false }).tool(versions[next]); // the same store and queue
      const worker = runWorker(first);
      const call = await first.call("job", {});
      try {
        await waitFor(() => delays.length === 1); // asleep: handed back to the queue
      } finally {
        await worker.close();
      }
      const resumer = runWorker(second);
      try {
        return await ended(second, call);
      } finally {
        await resumer.close();
      }
    }

    it("goes on from the journal when they are the same", async () => {
      const outcome = await resumedBy("same");
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    });

    it("is refused naming the step and what the journal holds: a step renamed", async () => {
      const text = failedWith(await resumedBy("renamed"));
      assert.match(text, /takes "x" at place 1 of its steps and sleeps, where its journal recorded "a" there/, text);
    });

    it("is refused once, not retried, in work whose retry covers thrown errors", async () => {
      runsOfRetried = 0;
      const text = failedWith(await resumedBy("renamedRetried"));
      assert.match(text, /takes "x" at place 1 of its steps and sleeps/, text);
      assert.equal(runsOfRetried, 1);
    });

    it("goes on the old way where work.patched() says so: a step added before a sleep, for jobs begun without it", async () => {
      patchedRuns.length = 0;
      const outcome = await resumedBy("patched");
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
      assert.match(JSON.stringify(outcome), /\{"b":2,"c":0\}/);
      assert.deepEqual(patchedRuns, [], "the added step never ran for a job begun before it");
    });

    it("takes the new way in a job begun after the change, across its sleep: the marker takes the step's place", async () => {
      patchedRuns.length = 0;
      const { queue, delays } = memoryQueue();
      const options: ServerOptions = { name: "q", version: "2", secret: SECRET, resultStore: roomy(), queue };
      const server = createServer({ ...options, logger: false }).tool(versions.patched);
      const worker = runWorker(server);
      try {
        const call = await server.call("job", {});
        await waitFor(() => delays.length === 1); // asleep after the new step, then woken from its journal
        const outcome = await ended(server, call);
        assert.match(JSON.stringify(outcome), /\{"b":2,"c":3\}/);
        assert.equal(patchedRuns.length, 1, "the new step ran once, its value read from the journal after the sleep");
      } finally {
        await worker.close();
      }
    });

    it("is refused naming the step and what the journal holds: a step added before a sleep", async () => {
      const text = failedWith(await resumedBy("added"));
      assert.match(text, /takes "c" at place 2 .* recorded "~sleep:1" there/, text);
    });
  });
});
