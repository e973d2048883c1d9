/**
 * The result store as the server uses it (`guardStore`): any failure but an entry over the bound is "send again
 * later", and `onError` hears of an outage once, also when the store flaps on its way back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore, type ResultStore } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { guardStore } from "../../src/jobs/guarded-store.ts";
import { storeOnce } from "../../src/jobs/store-once.ts";
import { advanceClock, restoreClock } from "../helpers/clock.ts";

/** A memory store whose next operations fail or succeed as `script` says (true: fail), then succeed. */
function scripted(script: boolean[]): ResultStore {
  const memory = createMemoryResultStore();
  const step = <T>(run: () => Promise<T>) =>
    script.shift() ? Promise.reject(new Error("connection terminated unexpectedly")) : run();
  return {
    get: (id) => step(() => memory.get(id)),
    set: (id, entry, ttlMs) => step(() => memory.set(id, entry, ttlMs)),
    delete: (id) => step(() => memory.delete(id)),
  };
}

describe("guardStore", () => {
  it("answers every failure as unavailable with retryAfterMs, and reports a flapping outage once", async () => {
    const reports: unknown[] = [];
    // An outage, then a pool's stale connections failing one by one between successes on fresh ones.
    const store = guardStore(scripted([true, true, false, true, false, true, false]), 60_000, (e) => reports.push(e));
    for (let i = 0; i < 7; i++) {
      await store.get("a").catch((error) => {
        assert.ok(error instanceof ProtocolError && error.code === ErrorCode.Unavailable);
        assert.deepEqual(error.data, { reason: "unavailable", retryAfterMs: 60_000 });
      });
    }
    assert.equal(reports.length, 1);
  });

  it("reports a new outage once retryAfterMs has passed since the last report", async () => {
    const reports: unknown[] = [];
    const store = guardStore(scripted([true, false, true]), 1, (e) => reports.push(e));
    await store.get("a").catch(() => {});
    await store.get("a");
    advanceClock(20); // the guard's clock (Date.now) moves past retryAfterMs, instead of the test waiting
    try {
      await store.get("a").catch(() => {});
    } finally {
      restoreClock();
    }
    assert.equal(reports.length, 2);
  });

  it("passes a RangeError (an entry over the bound) through as it is, unreported", async () => {
    const reports: unknown[] = [];
    const store = guardStore(createMemoryResultStore({ maxBytes: 10 }), 1_000, (e) => reports.push(e));
    await assert.rejects(store.set("a", { status: "working", at: 123456789 }, 1_000), RangeError);
    assert.equal(reports.length, 0);
  });

  it("forwards a store's sets, guarded like its entries, and leaves them out where the store has none", async () => {
    const members = new Map<string, Set<string>>();
    let down = false;
    const up = <T>(run: () => T) => down ? Promise.reject(new Error("ECONNRESET")) : Promise.resolve(run());
    const withSets: ResultStore = {
      ...createMemoryResultStore(),
      addMember: (key, member) => up(() => void members.set(key, (members.get(key) ?? new Set()).add(member))),
      removeMember: (key, member) => up(() => void members.get(key)?.delete(member)),
      members: (key) => up(() => [...members.get(key) ?? []]),
    };
    const reports: unknown[] = [];
    // As the server wraps it: guarded, then stored once (which forwards the sets as they are).
    const store = storeOnce(guardStore(withSets, 1_000, (e) => reports.push(e)));
    await store.addMember!("k", "a", 1_000);
    await store.addMember!("k", "b", 1_000);
    await store.removeMember!("k", "a");
    assert.deepEqual(await store.members!("k"), ["b"]);
    down = true;
    for (
      const operation of [
        () => store.members!("k"),
        () => store.addMember!("k", "c", 1),
        () => store.removeMember!("k", "b"),
      ]
    ) {
      await assert.rejects(
        operation,
        (error) => error instanceof ProtocolError && error.code === ErrorCode.Unavailable,
      );
    }
    assert.equal(reports.length, 1);
    const { addMember: _a, removeMember: _r, members: _m, ...without } = createMemoryResultStore();
    const plain = storeOnce(guardStore(without, 1_000));
    assert.deepEqual([plain.addMember, plain.removeMember, plain.members], [undefined, undefined, undefined]);
    assert.equal("members" in plain, false);
  });
});
