/**
 * The table of callers' remote sessions a proxy keeps: the least recently used closed past `max`, one idle for
 * `idleMs` closed unless a subscription holds it; and the key a caller is known by (its principal, else its MCP
 * 2025 session; none for a caller that cannot be told apart).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Client } from "../../src/client/client.ts";
import { callerKey, heardBy, UNKNOWN_CALLER } from "../../src/core/call/caller-key.ts";
import { CallerSessions } from "../../src/proxy/caller-sessions.ts";
import { waitFor } from "./gateway.ts";

/** A table whose clients record their closing. */
function table(options: ConstructorParameters<typeof CallerSessions>[1]) {
  const closed: string[] = [];
  const sessions = new CallerSessions(
    (key) => ({ key, close: () => Promise.resolve(void closed.push(key)) }) as unknown as Client,
    options,
  );
  return { sessions, closed };
}

describe("CallerSessions", () => {
  it("closes the least recently used past max", async () => {
    const { sessions, closed } = table({ max: 2 });
    const a = sessions.get("a");
    sessions.get("b");
    assert.equal(sessions.get("a"), a, "kept, and now the most recently used");
    sessions.get("c");
    assert.deepEqual(closed, ["b"]);
    await sessions.close();
    assert.deepEqual(closed.sort(), ["a", "b", "c"]);
  });

  it("closes one idle, but not while a subscription holds it", async () => {
    const { sessions, closed } = table({ idleMs: 20 });
    const held = sessions.hold("held");
    sessions.get("idle");
    await waitFor("the idle session to close", () => closed.includes("idle"));
    assert.deepEqual(closed, ["idle"]);
    held.release();
    await waitFor("the released session to close", () => closed.includes("held"));
    await sessions.close();
  });

  it("never lets one held go past max (the table grows), and closes one let go while held once released", async () => {
    const { sessions, closed } = table({ max: 1 });
    const held = sessions.hold("held");
    sessions.get("other");
    assert.deepEqual(closed, [], "the one held is kept, past max");
    sessions.get("third");
    assert.deepEqual(closed, ["other"], "the least recently used one not held is let go");
    await sessions.close();
    assert.ok(held.dropped(), "let go by close()");
    const count = closed.length;
    held.release();
    assert.equal(closed.length, count + 1, "closed again once released: what it sent meanwhile is ended");
  });

  it("keeps one for good with idleMs: Infinity (never a timer that fires at once)", async () => {
    const { sessions, closed } = table({ idleMs: Infinity });
    sessions.get("kept");
    // About time itself: a delay past setTimeout's longest fires at once (1 ms), so before this 20 ms timer, as
    // timers fire in the order they are due.
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(closed, []);
    await sessions.close();
  });

  it("refuses a bound that is not positive", () => {
    assert.throws(() => table({ max: 0 }), RangeError);
    assert.throws(() => table({ idleMs: -1 }), RangeError);
  });
});

describe("callerKey", () => {
  it("is the principal, else the MCP 2025 session, else none", () => {
    const principal = callerKey({ subject: "alice", clientId: "app" }, "s1");
    assert.equal(principal, callerKey({ subject: "alice", clientId: "app" }, "s2"), "the same principal, any session");
    assert.notEqual(principal, callerKey({ subject: "alice", clientId: "other" }, "s1"));
    assert.notEqual(callerKey(undefined, "s1"), callerKey(undefined, "s2"));
    assert.equal(callerKey(undefined, undefined), undefined);
    assert.equal(callerKey({ token: "t" }, null), undefined);
  });

  it("tells who hears a change meant for one caller", () => {
    const key = callerKey(undefined, "s1");
    assert.ok(heardBy({}, key) && heardBy({}, undefined), "a change for all");
    assert.ok(heardBy({ caller: key }, key) && !heardBy({ caller: key }, callerKey(undefined, "s2")));
    assert.ok(!heardBy({ caller: key }, undefined));
    assert.ok(heardBy({ caller: UNKNOWN_CALLER }, undefined) && !heardBy({ caller: UNKNOWN_CALLER }, key));
  });
});
