import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DelayQueue, type Waiting } from "../../src/internal/delay-queue.ts";
import { sleep } from "../../src/internal/sleep.ts";
import { waitFor } from "../helpers/long-running.ts";

for (const [mode, perEntry] of [["one shared timer", false], ["a timer per entry (Workers)", true]] as const) {
  describe(`DelayQueue, ${mode}`, () => {
    it("runs each entry after the delay, in the order they were added", async () => {
      const queue = new DelayQueue(20, perEntry);
      const fired: number[] = [];
      const started = performance.now();
      for (let i = 0; i < 5; i++) queue.add({ due: () => fired.push(i) });
      assert.equal(queue.size, 5);
      await sleep(10);
      assert.deepEqual(fired, [], "nothing fires before the delay");
      await sleep(60);
      assert.deepEqual(fired, [0, 1, 2, 3, 4]);
      assert.ok(performance.now() - started >= 20);
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
      await sleep(50);
      assert.deepEqual(fired, ["b"]);
      b.cancel();
      assert.equal(queue.size, 0);
    });

    it("keeps later entries waiting their own delay when earlier ones are cancelled or fire", async () => {
      const queue = new DelayQueue(40, perEntry);
      const fired: string[] = [];
      queue.add({ due: () => fired.push("first") });
      await sleep(25);
      queue.add({ due: () => fired.push("second") });
      await sleep(30); // the first is due (55 ms), the second (added at 25 ms) is not
      assert.deepEqual(fired, ["first"]);
      await sleep(60);
      assert.deepEqual(fired, ["first", "second"]);
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
      await waitFor(() => fired.includes("c"), 5_000);
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
    // A delay of 300 ms leaves a loaded machine room between "the overdue entry fires" and "the new one falls due".
    const queue = new DelayQueue(300, false);
    const fired: string[] = [];
    globalThis.setTimeout = dropped;
    try {
      queue.add({ due: () => fired.push("lost") });
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    await sleep(700); // a whole delay past the entry's due time: the queue reads its timer as dropped
    assert.equal(fired.length, 0, "the dropped timer never fired");
    queue.add({ due: () => fired.push("next") });
    // At once, not with the new one 300 ms later: the two firing in one tick would read ["lost", "next"].
    await waitFor(() => fired.length > 0, 5_000);
    assert.deepEqual(fired, ["lost"], "the overdue entry fires as soon as the timer is re-armed");
    await waitFor(() => fired.length > 1, 5_000);
    assert.deepEqual(fired, ["lost", "next"], "and the new one after its own delay");
    assert.equal(queue.size, 0);
  });
});
