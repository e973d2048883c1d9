/**
 * `resultStoreCases()` (`@mcplite/sdk/testing`) fails the stores that break the contract, each on the case that
 * names what it broke, and runs under any runner (here the cases are called directly, as a runner would).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore, type ResultStore } from "../../mod.ts";
import { hasEnded } from "../../src/jobs/result-store.ts";
import { resultStoreCases } from "../../src/testing/mod.ts";
import { failureOfCase } from "../helpers/case-failure.ts";

/** Runs the case named `name` against `store`; what it threw, or `undefined` when it passed. */
async function failureOf(store: ResultStore, name: RegExp, maxBytes?: number): Promise<unknown> {
  return await failureOfCase(resultStoreCases(() => store, { maxBytes }), name);
}

describe("resultStoreCases", () => {
  it("passes the memory store, and leaves out the bound's case when the store has no bound", async () => {
    const bounded = resultStoreCases(() => createMemoryResultStore({ maxBytes: 1 << 16 }), { maxBytes: 1 << 16 });
    assert.equal(bounded.length, 6); // the journal's case (work.step()) among them
    for (const { name, run } of bounded.filter((c) => !/expires/.test(c.name))) await assert.doesNotReject(run, name);
    const unbounded = resultStoreCases(() => createMemoryResultStore());
    assert.deepEqual(unbounded.map((c) => c.name), bounded.slice(0, 5).map((c) => c.name));
  });

  it("fails a store where the last writer wins, naming the entry it replaced", async () => {
    const memory = createMemoryResultStore();
    const lastWins: ResultStore = {
      ...memory,
      set: async (id, entry, ttlMs) => {
        await memory.delete(id);
        return memory.set(id, entry, ttlMs);
      },
    };
    const error = await failureOf(lastWins, /never replaces/);
    assert.match(String(error), /a cancellation after it: expected false, got true/);
  });

  it("fails a store where two concurrent final writers both win", async () => {
    const entries = new Map<string, unknown>();
    const racy: ResultStore = { // reads, then writes after a turn of the event loop: no compare-and-set
      get: (id) => Promise.resolve(entries.get(id) as never),
      set: async (id, entry) => {
        const kept = entries.get(id) as Parameters<typeof hasEnded>[0] | undefined;
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (kept !== undefined && hasEnded(kept)) return false;
        entries.set(id, entry);
        return true;
      },
      delete: (id) => Promise.resolve(void entries.delete(id)),
    };
    assert.match(String(await failureOf(racy, /concurrent final writers/)), /writers that won: expected 1, got \d+/);
  });

  it("fails a store that loses a field, and one that takes an entry over its bound", async () => {
    const memory = createMemoryResultStore();
    const lossy: ResultStore = {
      ...memory,
      get: async (id) => {
        const entry = await memory.get(id);
        return entry && { ...entry, at: undefined };
      },
    };
    assert.match(
      String(await failureOf(lossy, /reads back/)),
      /the entry written: expected \{"at":1,"status":"working"\}/,
    );
    // A store that drops a completed entry's structured content: the journal's steps would run again.
    const forgetful: ResultStore = {
      ...memory,
      get: async (id) => {
        const entry = await memory.get(id);
        return entry?.status === "completed" ? { ...entry, result: { content: entry.result.content } } : entry;
      },
    };
    assert.match(String(await failureOf(forgetful, /journal/)), /a later start's read: expected "/);
    const unbounded = createMemoryResultStore();
    assert.match(
      String(await failureOf(unbounded, /larger than its bound/, 1_000)),
      /an entry over the bound: expected a RangeError, but it was written/,
    );
  });
});
