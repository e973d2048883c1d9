/**
 * The memory result store's sets (the optional `addMember`, `removeMember`, `members` of the `ResultStore`
 * contract), where MCP Events index their subscriptions: one lifetime per set, lengthened by an add and never
 * shortened; an expired set is empty and forgotten, so a new add starts it afresh; an unknown key is empty.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore } from "../../mod.ts";

describe("the memory store's sets", () => {
  it("adds, lists, removes and expires a set as one; an unknown key has none", async () => {
    let now = 1_000;
    const store = createMemoryResultStore({ now: () => now });
    assert.deepEqual(await store.members!("evidx:none"), []);
    await store.addMember!("evidx:a", "s1", 100);
    await store.addMember!("evidx:a", "s2", 1_000);
    await store.addMember!("evidx:a", "s1", 100); // twice is once, and the lifetime stays the longer one
    assert.deepEqual(await store.members!("evidx:a"), ["s1", "s2"]);
    now += 500; // past s1's own ttl, within the set's
    assert.deepEqual(await store.members!("evidx:a"), ["s1", "s2"]);
    await store.removeMember!("evidx:a", "s2");
    await store.removeMember!("evidx:unknown", "s2");
    assert.deepEqual(await store.members!("evidx:a"), ["s1"]);
    now += 1_000; // past the set's lifetime
    assert.deepEqual(await store.members!("evidx:a"), []);
    await store.addMember!("evidx:a", "s3", 100);
    assert.deepEqual(await store.members!("evidx:a"), ["s3"], "an expired set starts afresh");
    assert.equal(await store.get("evidx:a"), undefined, "sets live beside the entries");
  });
});
