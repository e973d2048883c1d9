/**
 * The memory result store's sets (the optional `addMember`, `removeMember`, `members` of the `ResultStore`
 * contract), where MCP Events index their subscriptions: members expire after their TTL, an unknown key is empty.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore } from "../../mod.ts";

describe("the memory store's sets", () => {
  it("adds, lists, removes and expires members; an unknown key has none", async () => {
    let now = 1_000;
    const store = createMemoryResultStore({ now: () => now });
    assert.deepEqual(await store.members!("evidx:none"), []);
    await store.addMember!("evidx:a", "s1", 100);
    await store.addMember!("evidx:a", "s2", 1_000);
    await store.addMember!("evidx:a", "s1", 100); // twice is once
    assert.deepEqual(await store.members!("evidx:a"), ["s1", "s2"]);
    now += 500; // s1's TTL has passed, s2's not
    assert.deepEqual(await store.members!("evidx:a"), ["s2"]);
    await store.addMember!("evidx:a", "s1", 1_000); // added again: the TTL extended
    await store.removeMember!("evidx:a", "s2");
    await store.removeMember!("evidx:unknown", "s2");
    assert.deepEqual(await store.members!("evidx:a"), ["s1"]);
    assert.equal(await store.get("evidx:a"), undefined, "sets live beside the entries");
  });
});
