import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore } from "../../src/jobs/result-store.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";
import { describeSharedInstances } from "../helpers/instances.ts";

describeResultStore("memory", () => createMemoryResultStore({ maxBytes: 1 << 20 }), { maxBytes: 1 << 20 });

const done = (text: string) => ({
  status: "completed" as const,
  result: { content: [{ type: "text" as const, text }] },
});

describe("createMemoryResultStore", () => {
  it("keeps, replaces and deletes entries", async () => {
    const store = createMemoryResultStore();
    await store.set("a", { status: "working" }, 1000);
    assert.deepEqual(await store.get("a"), { status: "working" });
    await store.set("a", done("ok"), 1000);
    assert.deepEqual(await store.get("a"), done("ok"));
    await store.delete("a");
    assert.equal(await store.get("a"), undefined);
  });

  it("expires entries after their TTL", async () => {
    let now = 0;
    const store = createMemoryResultStore({ now: () => now });
    await store.set("a", { status: "working" }, 100);
    now = 99;
    assert.ok(await store.get("a"));
    now = 100;
    assert.equal(await store.get("a"), undefined);
  });

  it("is bounded by count, dropping the oldest first", async () => {
    const store = createMemoryResultStore({ maxEntries: 3 });
    for (const id of ["a", "b", "c", "d"]) await store.set(id, { status: "working" }, 1000);
    assert.equal(await store.get("a"), undefined);
    for (const id of ["b", "c", "d"]) assert.ok(await store.get(id));
    await store.set("b", done("again"), 1000); // a rewrite makes it the youngest
    await store.set("e", { status: "working" }, 1000);
    assert.equal(await store.get("c"), undefined);
    assert.ok(await store.get("b"));
  });

  it("is bounded by bytes, and refuses an entry larger than the whole store", async () => {
    const store = createMemoryResultStore({ maxBytes: 300 });
    await store.set("a", done("x".repeat(100)), 1000);
    await store.set("b", done("y".repeat(100)), 1000);
    await store.set("c", done("z".repeat(100)), 1000);
    assert.equal(await store.get("a"), undefined);
    assert.ok(await store.get("c"));
    await assert.rejects(store.set("big", done("w".repeat(400)), 1000), RangeError);
  });
});

const shared = createMemoryResultStore();
describeSharedInstances("memory, shared in one process", () => shared);
