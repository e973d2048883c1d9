import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DelayQueue, type Waiting } from "../../src/internal/delay-queue.ts";
import { sleep } from "../../src/internal/sleep.ts";
import { waitFor } from "../helpers/long-running.ts";

for (const [mode, perEntry] of [["one shared timer", false], ["a timer per entry (Workers)", true]] as const) {
  describe(`DelayQueue, ${mode}`, () => {
    // Each entry notes when it ran, and the test waits (bounded) until they all did: on a loaded machine a sleep
    // of the test can end after the queue's timer, so times and order are asserted, not what a sleep saw.
    it("runs each entry after the delay, in the order they were added", async () => {
      const queue = new DelayQueue(20, perEntry);
      const fired: [number, number][] = [];
      const added = performance.now();
      for (let i = 0; i < 5; i++) queue.add({ due: () => fired.push([i, performance.now()]) });
      assert.equal(queue.size, 5);
      await waitFor(() => fired.length === 5);
      assert.deepEqual(fired.map(([i]) => i), [0, 1, 2, 3, 4]);
      // Nothing before the delay (a timer of its own may fire within its 1 ms granularity of it).
      for (const [i, at] of fired) assert.ok(at - added >= 19, `entry ${i} ran ${at - added} ms after it was added`);
      assert.equal(queue.size, 0);
    });

    it("never runs a cancelled entry, and cancelling twice or after it ran does nothing", async () => {
      const queue = new DelayQueue(10, perEntry);
      const fired: string[] = [];
      const a = queue.add({ due: () => fired.push("a") });
      const b = queue.add({ due: () => fired.push("b") });
      a.cancel();
      a.cancel();
      assert.equal(queue.size, 1);
      await waitFor(() => fired.length > 0);
      assert.deepEqual(fired, ["b"]); // "a", due first, would have run before "b"
      b.cancel();
      assert.equal(queue.size, 0);
    });

    it("keeps later entries waiting their own delay when earlier ones are cancelled or fire", async () => {
      const queue = new DelayQueue(40, perEntry);
      const fired: [string, number][] = [];
      const firstAdded = performance.now();
      queue.add({ due: () => fired.push(["first", performance.now()]) });
      await sleep(25);
      const secondAdded = performance.now();
      queue.add({ due: () => fired.push(["second", performance.now()]) });
      await waitFor(() => fired.length === 2);
      assert.deepEqual(fired.map(([name]) => name), ["first", "second"]);
      assert.ok(fired[0][1] - firstAdded >= 39, `the first ran ${fired[0][1] - firstAdded} ms after it was added`);
      // Not with the first (the second was added 25 ms or more after it): its own 40 ms from its own add.
      assert.ok(fired[1][1] - secondAdded >= 39, `the second ran ${fired[1][1] - secondAdded} ms after it was added`);
    });

    it("lets a callback add and cancel entries", async () => {
      const queue = new DelayQueue(10, perEntry);
      const fired: string[] = [];
      const later: { waiting?: Waiting } = {};
      queue.add({
        due: () => {
          fired.push("a");
          queue.add({ due: () => fired.push("c") });
          later.waiting?.cancel();
        },
      });
      later.waiting = queue.add({ due: () => fired.push("b") });
      // "c" falls due 10 ms after "a"; a loaded machine may run both timers late, so wait for "c" (bounded).
      await waitFor(() => fired.includes("c"));
      await sleep(30);
      assert.deepEqual(fired, ["a", "c"]);
      assert.equal(queue.size, 0);
    });
  });
}

describe("DelayQueue", () => {
  it("stays bounded when entries are added and cancelled faster than they fall due", () => {
    const queue = new DelayQueue(10_000);
    const keep = queue.add({ due: () => {} });
    const never = { due: () => assert.fail("cancelled") };
    for (let i = 0; i < 100_000; i++) queue.add(never).cancel();
    assert.equal(queue.size, 1);
    keep.cancel();
    assert.equal(queue.size, 0);
  });

  it("re-arms a shared timer the host dropped, on the next add", async () => {
    // A host that cancels a request's timers once it answered (as workerd does) drops the first timer.
    const realSetTimeout = globalThis.setTimeout;
    const dropped = ((...args: Parameters<typeof setTimeout>) => {
      const timer = realSetTimeout(...args);
      clearTimeout(timer);
      return timer;
    }) as typeof setTimeout;
    const armed: number[] = [];
    const noted = ((handler: () => void, ms?: number) => {
      armed.push(ms ?? 0);
      return realSetTimeout(handler, ms);
    }) as typeof setTimeout;
    // The queue's clock (performance.now) moves only when the test moves it, so a loaded machine running the
    // timers late cannot make the new entry due early and fire it with the overdue one.
    const realNow = performance.now;
    let now = realNow.call(performance);
    performance.now = () => now;
    try {
      const queue = new DelayQueue(300, false);
      const fired: string[] = [];
      globalThis.setTimeout = dropped;
      try {
        queue.add({ due: () => fired.push("lost") });
      } finally {
        globalThis.setTimeout = realSetTimeout;
      }
      now += 700; // a whole delay past the entry's due time: the queue reads its timer as dropped
      assert.equal(fired.length, 0, "the dropped timer never fired");
      globalThis.setTimeout = noted;
      try {
        queue.add({ due: () => fired.push("next") });
      } finally {
        globalThis.setTimeout = realSetTimeout;
      }
      // At once, not with the new one 300 ms later.
      assert.deepEqual(armed, [0], "the timer is re-armed to fire at once");
      await waitFor(() => fired.length > 0);
      assert.deepEqual(fired, ["lost"], "the overdue entry fires as soon as the timer is re-armed");
      now += 300;
      await waitFor(() => fired.length > 1);
      assert.deepEqual(fired, ["lost", "next"], "and the new one after its own delay");
      assert.equal(queue.size, 0);
    } finally {
      performance.now = realNow;
    }
  });
});
