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
    assert.equal(bounded.length, 12); // the journal's case (work.step()) and six of sets among them
    for (const { name, run } of bounded.filter((c) => !/expire|lengthens/.test(c.name))) {
      await assert.doesNotReject(run, name); // (the cases that wait for a TTL left out)
    }
    const unbounded = resultStoreCases(() => createMemoryResultStore());
    assert.deepEqual(unbounded.map((c) => c.name), bounded.slice(0, -1).map((c) => c.name));
  });

  it("passes a store without sets through the cases of sets untested, and fails one with only some of them", async () => {
    const { addMember: _a, removeMember: _r, members: _m, ...memory } = createMemoryResultStore();
    for (const { name, run } of resultStoreCases(() => memory).filter((c) => /^sets/.test(c.name))) {
      await assert.doesNotReject(run, name);
    }
    const partial: ResultStore = { ...memory, members: () => Promise.resolve([]) };
    assert.match(String(await failureOf(partial, /^sets.*once/)), /addMember, removeMember and members, all three/);
  });

  it("fails a store whose set keeps a member twice, and one whose set an add shortens", async () => {
    const twice = listSets(createMemoryResultStore(), (kept, ttlMs) => Date.now() + Math.max(kept, ttlMs), false);
    assert.match(String(await failureOf(twice, /^sets.*once/)), /a, b, then a again: expected the members \["a","b"\]/);
    const shortened = listSets(createMemoryResultStore(), (_, ttlMs) => Date.now() + ttlMs, true);
    assert.match(
      String(await failureOf(shortened, /^sets.*lengthens/)),
      /a set lengthened to 60 s, once a shorter lifetime passed/,
    );
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

/**
 * `store` with sets kept in lists: `lifetime` gives a set's end from its remaining ms and the TTL an add asks,
 * `unique` whether an add skips a member already there.
 */
function listSets(
  store: ResultStore,
  lifetime: (keptMs: number, ttlMs: number) => number,
  unique: boolean,
): ResultStore {
  const sets = new Map<string, { members: string[]; until: number }>();
  const live = (key: string) => {
    const set = sets.get(key);
    return set !== undefined && Date.now() < set.until ? set : undefined;
  };
  return {
    ...store,
    addMember(key, member, ttlMs) {
      const set = live(key) ?? { members: [], until: 0 };
      if (!unique || !set.members.includes(member)) set.members.push(member);
      sets.set(key, { members: set.members, until: lifetime(Math.max(0, set.until - Date.now()), ttlMs) });
      return Promise.resolve();
    },
    removeMember(key, member) {
      const set = live(key);
      if (set !== undefined) set.members = set.members.filter((m) => m !== member);
      return Promise.resolve();
    },
    members: (key) => Promise.resolve([...live(key)?.members ?? []]),
  };
}
