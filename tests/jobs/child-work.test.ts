/**
 * Parallel steps and child work (`invoke()`) in one process: a `Promise.all` of steps, whose branches take a second
 * step after their first, replays the same values when its next start takes them in another order; a name used twice
 * is refused saying how to name them; a step renamed stays a `JournalMismatch`. Children: three in parallel answer in
 * the order of the calls; a child's failure is a `ChildWorkError` the parent catches; cancelling a parent cancels its
 * running children; on a queue the parent waits holding no slot (one worker of concurrency 1 runs the parent and its
 * children) and starts each child once.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import {
  type CallOutcome,
  createMemoryResultStore,
  createServer,
  defineTool,
  invoke,
  runWorker,
  type ServerOptions,
} from "../../mod.ts";
import { ChildWorkError } from "../../src/errors/mod.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { answered, ended, failedWith, promised } from "../helpers/outcome.ts";
import { sleep } from "../../src/internal/sleep.ts";

/** The items of the parallel steps, and how long each one's first step takes: they end in another order. */
const ITEMS = [["x", 40], ["y", 5], ["z", 20]] as const;

/** A `Promise.all` over the items, each branch a step `a:<item>` then a step `b:<item>`; a sleep; then the values. */
function fanout(runs: string[], rename?: string) {
  return defineTool("fanout").describe("Two steps per item, in parallel, then a sleep").longRunning()
    .defer(async (_, work) => {
      const values = await Promise.all(ITEMS.map(async ([item, ms]) => {
        const a = await work.step(`${item === rename ? "c" : "a"}:${item}`, async () => {
          await sleep(ms);
          runs.push(`a:${item}`);
          return `${item}${runs.length}`;
        });
        return await work.step(`b:${item}`, () => (runs.push(`b:${item}`), `${a}+${runs.length}`));
      }));
      await work.sleep(30); // back to the queue: the next delivery replays the steps
      return { values };
    });
}

/** Begins `fanout` on one worker and wakes it from its sleep on a worker of `next`: its end. */
async function fanoutResumed(first: ReturnType<typeof fanout>, next: ReturnType<typeof fanout>): Promise<CallOutcome> {
  const { queue, delays } = memoryQueue();
  const options: ServerOptions = {
    name: "q",
    version: "1",
    secret: SECRET,
    resultStore: createMemoryResultStore(),
    queue,
  };
  const began = createServer({ ...options, logger: false }).tool(first);
  const worker = runWorker(began);
  const call = await began.call("fanout", {});
  try {
    await waitFor(() => delays.length === 1);
  } finally {
    await worker.close();
  }
  const resumer = runWorker(createServer({ ...options, logger: false }).tool(next));
  try {
    return await ended(began, call);
  } finally {
    await resumer.close();
  }
}

describe("parallel steps", () => {
  it("a Promise.all of steps replays the same values when the next start takes them in another order", async () => {
    const runs: string[] = [];
    const outcome = await fanoutResumed(fanout(runs), fanout(runs));
    const { values } = answered<{ values: string[] }>(outcome);
    // The first steps ended y, z, x, each branch's second step as its first ended; the next start took them in the
    // order of the calls (a:x, a:y, a:z from the journal, then b:x first), each found by its name.
    assert.deepEqual(runs, ["a:y", "b:y", "a:z", "b:z", "a:x", "b:x"]);
    assert.deepEqual(values, ["x5+6", "y1+2", "z3+4"]); // each step ran once, its value replayed on the next start
  });

  it("a step renamed in one branch stays a JournalMismatch naming it", async () => {
    const runs: string[] = [];
    const text = failedWith(await fanoutResumed(fanout(runs), fanout(runs, "x")));
    assert.match(text, /takes "c:x" at place 1 of its steps and sleeps, where its journal recorded "a:x" there/, text);
  });

  it("a name used twice in a Promise.all is refused, saying how to name them", async () => {
    const twice = defineTool("twice").describe("One step name for every item").longRunning()
      .defer(async (_, work) => await Promise.all(["x", "y"].map(() => work.step("charge", () => 1))));
    const server = createServer({ name: "t", version: "1", secret: SECRET, logger: false }).tool(twice);
    const text = failedWith(await ended(server, await server.call("twice", {})));
    assert.match(text, /"charge" is used twice in one job: name each by what it works on/, text);
  });
});

/** A child that waits for `gate` (or its signal) inside a step, counting its starts and noting its signal. */
function children(gate: Promise<void>) {
  const starts: number[] = [];
  const signals: AbortSignal[] = [];
  const child = defineTool("child").describe("Waits at the gate, then answers its k")
    .input(v.object({ k: v.number() }))
    .output(v.object({ k: v.number() }))
    .longRunning()
    .defer(async ({ k }, work) => {
      starts.push(k);
      signals.push(work.signal);
      await work.step("gate", () => Promise.race([gate, sleep(60_000, work.signal)]));
      return { k };
    });
  const parent = defineTool("parent").describe("Invokes three children in parallel").longRunning()
    .defer(async (_, work) => {
      const results = await Promise.all([1, 2, 3].map((k) => invoke(work, `child:${k}`, child, { k })));
      const ks: number[] = results.map((result) => result.k); // typed from the child's output schema
      return { ks };
    });
  return { child, parent, starts, signals };
}

describe("child work in process", () => {
  it("three children in parallel: each started once, their results in the order of the calls", async () => {
    let open!: () => void;
    const { child, parent, starts } = children(new Promise((resolve) => open = resolve));
    const server = createServer({ name: "t", version: "1", secret: SECRET, logger: false }).tool(child).tool(parent);
    const call = await server.call("parent", {});
    await waitFor(() => starts.length === 3);
    open();
    assert.deepEqual(answered(await ended(server, call)), { ks: [1, 2, 3] });
    assert.deepEqual(starts.toSorted(), [1, 2, 3]);
  });

  it("a child's failure is a ChildWorkError the parent catches: its tool, status and message", async () => {
    const slow = defineTool("slow").describe("Runs past its time limit").longRunning({ timeoutMs: 20 })
      .defer(async (_, work) => await sleep(60_000, work.signal));
    const parent = defineTool("parent").describe("Catches its child's failure").longRunning()
      .defer(async (_, work) => {
        try {
          await invoke(work, "slow", slow, {});
          return { caught: false };
        } catch (error) {
          assert.ok(error instanceof ChildWorkError);
          return { caught: true, tool: error.tool, status: error.status, message: error.message };
        }
      });
    const server = createServer({ name: "t", version: "1", secret: SECRET, logger: false }).tool(slow).tool(parent);
    const caught = answered<{ tool: string; status: string; message: string }>(
      await ended(server, await server.call("parent", {})),
    );
    assert.deepEqual({ ...caught, message: undefined }, {
      caught: true,
      tool: "slow",
      status: "failed",
      message: undefined,
    });
    assert.match(caught.message, /child work of tool "slow" failed: The job timed out after 20 ms/);
  });

  it("cancelling a parent cancels its running children", async () => {
    const { child, parent, starts, signals } = children(new Promise(() => {}));
    const server = createServer({ name: "t", version: "1", secret: SECRET, logger: false }).tool(child).tool(parent);
    const token = promised(await server.call("parent", {})).token;
    await waitFor(() => starts.length === 3);
    const cancelled = await server.call("redeem", { promise: token, cancel: true });
    assert.notEqual(cancelled.kind, "promise", JSON.stringify(cancelled));
    assert.ok(signals.every((signal) => signal.aborted));
  });

  it("refuses a tool the server does not run, naming it", async () => {
    const { child } = children(Promise.resolve());
    const lone = defineTool("lone").describe("Invokes a tool the server lacks").longRunning()
      .defer(async (_, work) => await invoke(work, "child", child, { k: 1 }));
    const server = createServer({ name: "t", version: "1", secret: SECRET, logger: false }).tool(lone);
    const text = failedWith(await ended(server, await server.call("lone", {})));
    assert.match(text, /no tool "child" with declared work/, text);
  });
});

describe("child work on a queue", () => {
  it("the parent waits holding no slot (one worker, concurrency 1) and starts each child once", async () => {
    let open!: () => void;
    const { child, parent, starts } = children(new Promise((resolve) => open = resolve));
    const { queue, delays } = memoryQueue();
    const server = createServer({
      name: "q",
      version: "1",
      secret: SECRET,
      resultStore: createMemoryResultStore(),
      queue,
      logger: false,
    }).tool(child).tool(parent);
    const worker = runWorker(server, { concurrency: 1 });
    try {
      const call = await server.call("parent", {});
      // The parent started its three children and went back to the queue: the first child took the one slot.
      await waitFor(() => starts.length === 1 && delays.length === 1);
      open();
      assert.deepEqual(answered(await ended(server, call)), { ks: [1, 2, 3] });
      // Each child ran in the slot in turn, then the parent, woken, read their ends: each child started once.
      assert.deepEqual(starts.toSorted(), [1, 2, 3]);
    } finally {
      await worker.close();
    }
  });
});
