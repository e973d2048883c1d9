/**
 * The store contract in memory (issue 100, item 1): `createMemoryStore()` passes `sharedStoreCases()`, bounded by
 * count and bytes with its clock; a feature's namespace keeps its keys apart; the in-memory result store is a view of
 * job entries over it; and a result store of the user's own, written before the contract, still keeps the features'
 * records through the adapter.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore, type ResultStore } from "../../src/jobs/result-store.ts";
import { hasEnded, type StoredResult } from "../../src/jobs/stored-result.ts";
import { sharedStoreOf } from "../../src/store/store-of.ts";
import { createMemoryStore } from "../../src/store/memory-store.ts";
import { storeSpace } from "../../src/store/store-space.ts";
import type { SharedStore } from "../../src/store/shared-store.ts";
import { sharedStoreCases } from "../../src/testing/mod.ts";
import { describeSharedStore } from "../helpers/shared-store-conformance.ts";

describeSharedStore("memory", () => createMemoryStore({ maxBytes: 1 << 20 }), { maxBytes: 1 << 20 });

describe("createMemoryStore()", () => {
  it("expires a record at its lifetime by its clock, final or not", async () => {
    let now = 0;
    const store = createMemoryStore({ now: () => now });
    await store.put("a", 1, 100, { final: true });
    await store.putIfAbsent("b", 2, 100);
    now = 99;
    assert.deepEqual([await store.get("a"), await store.get("b")], [1, 2]);
    now = 100;
    assert.deepEqual([await store.get("a"), await store.get("b")], [undefined, undefined]);
    assert.equal(await store.put("a", 3, 100), true); // a final record that expired is replaced
  });

  it("is bounded by count and bytes, dropping the oldest first", async () => {
    const store = createMemoryStore({ maxEntries: 3, maxBytes: 1_000 });
    for (const key of ["a", "b", "c", "d"]) await store.put(key, key, 1_000);
    assert.deepEqual(await Promise.all(["a", "b", "c", "d"].map((k) => store.get(k))), [undefined, "b", "c", "d"]);
    await store.put("x", "x".repeat(600), 1_000);
    await store.put("y", "y".repeat(600), 1_000); // past 1,000 bytes: the oldest go, x among them
    assert.equal(await store.get("x"), undefined);
    await assert.rejects(store.put("z", "z".repeat(1_000), 1_000), RangeError);
  });
});

describe("a feature's namespace (storeSpace)", () => {
  it("keeps its records and sets under <name>: and refuses a name that could run into another's", async () => {
    const store = createMemoryStore();
    const dpop = storeSpace<true>(store, "dpop");
    const seen = storeSpace<true>(store, "evseen");
    assert.equal(await dpop.putIfAbsent("k", true, 1_000), true);
    assert.equal(await seen.putIfAbsent("k", true, 1_000), true); // another namespace: another key
    assert.equal(await store.get("dpop:k"), true);
    await dpop.addMember("index", "m", 1_000);
    assert.deepEqual(await store.members("dpop:index"), ["m"]);
    assert.deepEqual(await seen.members("index"), []);
    for (const name of ["", "Dpop", "a:b", "1st", "x".repeat(33)]) {
      assert.throws(() => storeSpace(store, name), TypeError, name);
    }
  });
});

describe("the in-memory result store, a view of job entries", () => {
  it("writes an ended entry final: the store's first final writer is the result store's first writer", async () => {
    const results = createMemoryResultStore();
    const store = results.store!;
    assert.equal(await results.set("job", { status: "working" }, 1_000), true);
    assert.equal(await store.put("job", { status: "working", at: 1 }, 1_000), true); // not final yet
    assert.equal(await results.set("job", { status: "cancelled" }, 1_000), true);
    assert.equal(await store.put("job", { status: "working" }, 1_000), false);
    assert.deepEqual(await results.get("job"), { status: "cancelled" });
  });
});

/** A result store as a user wrote one before the store contract: entries only, set-unless-ended, and sets. */
function usersOwnResultStore(): ResultStore {
  const entries = new Map<string, StoredResult>();
  const sets = new Map<string, Set<string>>();
  return {
    get: (id) => Promise.resolve(entries.get(id)),
    set(id, entry) {
      const kept = entries.get(id);
      if (kept !== undefined && hasEnded(kept)) return Promise.resolve(false);
      entries.set(id, entry);
      return Promise.resolve(true);
    },
    delete: (id) => Promise.resolve(void entries.delete(id)),
    addMember: (key, member) => Promise.resolve(void sets.set(key, (sets.get(key) ?? new Set()).add(member))),
    removeMember: (key, member) => Promise.resolve(void sets.get(key)?.delete(member)),
    members: (key) => Promise.resolve([...sets.get(key) ?? []]),
  };
}

describe("a result store of the user's own (before the store contract)", () => {
  it("keeps the features' records as its entries: read back, taken once, final, compared and set", async () => {
    const own = usersOwnResultStore();
    const store = sharedStoreOf(own);
    await store.put("head", { life: "a", n: 1 }, 1_000);
    assert.deepEqual(await store.get("head"), { life: "a", n: 1 });
    assert.equal(await store.compareAndSet("head", { n: 1, life: "a" }, { life: "a", n: 2 }, 1_000), true);
    assert.equal(await store.compareAndSet("head", { life: "a", n: 1 }, { life: "a", n: 3 }, 1_000), false);
    assert.equal(await store.putIfAbsent("mark", true, 1_000), true);
    assert.equal(await store.putIfAbsent("mark", true, 1_000), false);
    assert.equal(await store.put("done", "x", 1_000, { final: true }), true);
    assert.equal(await store.put("done", "y", 1_000), false);
    assert.equal(await store.get("done"), "x");
    await store.addMember("index", "s1", 1_000);
    assert.deepEqual(await store.members("index"), ["s1"]);
  });

  it("is the store's own where the result store carries one", () => {
    const results = createMemoryResultStore();
    assert.equal(sharedStoreOf(results), results.store);
  });

  it("says what is missing when the user's store keeps no sets and a feature asks for one", async () => {
    const { addMember: _, removeMember: __, members: ___, ...noSets } = usersOwnResultStore();
    await assert.rejects(sharedStoreOf(noSets).members("index"), /keeps no sets \(addMember, removeMember, members\)/);
  });
});

describe("sharedStoreCases() fails a store that breaks the contract", () => {
  /** The names of the cases that throw on `store`. */
  async function failing(store: SharedStore): Promise<string[]> {
    const failed: string[] = [];
    for (const { name, run } of sharedStoreCases(() => store, { maxBytes: 1 << 16 })) {
      if (name.includes("expire")) continue; // real time; what is broken here is not lifetimes
      await run().catch(() => failed.push(name));
    }
    return failed;
  }

  it("a putIfAbsent that always writes, a compareAndSet that ignores what was read, a put over a final record", async () => {
    const memory = () => createMemoryStore({ maxBytes: 1 << 16 });
    const always = memory();
    const overwrites: SharedStore = { ...always, putIfAbsent: (k, v, ttl) => always.put(k, v, ttl) };
    assert.deepEqual(await failing(overwrites), [
      "takes a key once (putIfAbsent): one of many concurrent writers, and again once the record is deleted",
    ]);
    const blind = memory();
    const ignoresRead: SharedStore = { ...blind, compareAndSet: (k, _expected, next, ttl) => blind.put(k, next, ttl) };
    assert.ok((await failing(ignoresRead)).some((name) => name.startsWith("compares and sets")));
    const lastWins = memory();
    const noFinal: SharedStore = { ...lastWins, put: (k, v, ttl) => lastWins.put(k, v, ttl) };
    assert.ok((await failing(noFinal)).some((name) => name.startsWith("never replaces a final record")));
  });
});
