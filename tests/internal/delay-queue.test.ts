import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DelayQueue, type Waiting } from "../../src/internal/delay-queue.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * Runs `body` with the queue's clock and timers the test's own: `performance.now` stands still and `setTimeout`
 * schedules on it, until `advance(ms)` moves it and runs the timers then due, in the order of their due times (then
 * of their arming), as a runtime does. Real time plays no part, so a loaded machine changes nothing. `body` is
 * synchronous: no other code runs while the globals are replaced.
 */
function onMovedClock(body: (advance: (ms: number) => void) => void): void {
  const real = { now: performance.now, setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
  let now = real.now.call(performance);
  let armed = 0;
  const timers = new Map<unknown, { at: number; order: number; run: () => void }>();
  performance.now = () => now;
  globalThis.setTimeout = ((run: () => void, ms = 0) => {
    const id = real.setTimeout(() => {}, 2 ** 31 - 1); // a real timer's id (unref and clear take it), never due
    timers.set(id, { at: now + Math.max(0, ms), order: armed++, run });
    return id;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((id: ReturnType<typeof setTimeout>) => {
    timers.delete(id);
    real.clearTimeout(id);
  }) as typeof clearTimeout;
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...timers].filter(([, timer]) => timer.at <= until);
      const [id, timer] = due.sort(([, a], [, b]) => a.at - b.at || a.order - b.order)[0] ?? [];
      if (timer === undefined) break;
      timers.delete(id);
      real.clearTimeout(id as ReturnType<typeof setTimeout>);
      now = Math.max(now, timer.at);
      timer.run();
    }
    now = until;
  };
  try {
    body(advance);
  } finally {
    performance.now = real.now;
    globalThis.setTimeout = real.setTimeout;
    globalThis.clearTimeout = real.clearTimeout;
    for (const id of timers.keys()) real.clearTimeout(id as ReturnType<typeof setTimeout>);
  }
}

for (const [mode, perEntry] of [["one shared timer", false], ["a timer per entry (Workers)", true]] as const) {
  describe(`DelayQueue, ${mode}`, () => {
    // On a clock the test moves (onMovedClock): what ran is read a millisecond before each due time and at it.
    it("runs each entry after the delay, in the order they were added", () => {
      onMovedClock((advance) => {
        const queue = new DelayQueue(20, perEntry);
        const fired: number[] = [];
        for (let i = 0; i < 5; i++) queue.add({ due: () => fired.push(i) });
        assert.equal(queue.size, 5);
        advance(19);
        assert.deepEqual(fired, [], "nothing before the delay");
        advance(1);
        assert.deepEqual(fired, [0, 1, 2, 3, 4]);
        assert.equal(queue.size, 0);
      });
    });

    it("never runs a cancelled entry, and cancelling twice or after it ran does nothing", () => {
      onMovedClock((advance) => {
        const queue = new DelayQueue(10, perEntry);
        const fired: string[] = [];
        const a = queue.add({ due: () => fired.push("a") });
        const b = queue.add({ due: () => fired.push("b") });
        a.cancel();
        a.cancel();
        assert.equal(queue.size, 1);
        advance(10);
        assert.deepEqual(fired, ["b"]); // "a", due first, would have run before "b"
        b.cancel();
        assert.equal(queue.size, 0);
      });
    });

    it("keeps later entries waiting their own delay when earlier ones are cancelled or fire", () => {
      onMovedClock((advance) => {
        const queue = new DelayQueue(40, perEntry);
        const fired: string[] = [];
        queue.add({ due: () => fired.push("first") });
        advance(25);
        queue.add({ due: () => fired.push("second") });
        advance(14);
        assert.deepEqual(fired, [], "the first, 39 ms after it was added");
        advance(1);
        assert.deepEqual(fired, ["first"], "the first at its 40 ms; the second not with it");
        // Its own 40 ms from its own add, 25 ms after the first's.
        advance(24);
        assert.deepEqual(fired, ["first"], "the second, 39 ms after it was added");
        advance(1);
        assert.deepEqual(fired, ["first", "second"]);
      });
    });

    it("lets a callback add and cancel entries", () => {
      onMovedClock((advance) => {
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
        advance(10); // "a", which adds "c" (due 10 ms later) and cancels "b"
        advance(10);
        advance(30); // and nothing after
        assert.deepEqual(fired, ["a", "c"]);
        assert.equal(queue.size, 0);
      });
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
