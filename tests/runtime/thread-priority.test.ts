/**
 * A thread's CPU clock on Linux (src/runtime/thread-priority.ts): it moves with the CPU the thread uses, and an
 * unknown thread has none.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import process from "node:process";
import { describe, it } from "node:test";
import { threadCpuClock, threadId } from "../../src/runtime/thread-priority.ts";

describe("thread-priority", { skip: !existsSync("/proc/thread-self") }, () => {
  it("gives no clock to an unknown thread", () => {
    assert.equal(threadCpuClock(undefined), undefined);
    assert.equal(threadCpuClock(2 ** 31 - 2), undefined);
  });

  it("reads a thread's CPU time, which grows as it computes", () => {
    // This thread's id; on the process's first thread (Bun, Node run tests there), the process's.
    const clock = threadCpuClock(threadId() ?? process.pid);
    assert.ok(clock !== undefined);
    const from = clock();
    // About time itself (CPU time): each read is a system call, so 5 ms of CPU comes soon; 10 s of wall time at most.
    const end = performance.now() + 10_000;
    while (clock() - from < 5 && performance.now() < end);
    assert.ok(clock() >= from + 5);
  });
});
