/**
 * Deferred work cannot hold its slot for good: `.longRunning({ timeoutMs })` ends a run that takes too long as
 * `deadline_exceeded` (a timeout, not the tool's failure), its signal aborted and its slot free at once though the
 * work never settles (a worker's, on a queue in memory that keeps `WorkQueue`'s contract; the server's `jobs`
 * budget in one process); a job whose entry expired (its token with it) is aborted, and the lease heartbeat does
 * not write its entry back as if the store had lost it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
import type { CallOutcome, ResultStore } from "../../mod.ts";
import { ProtocolError } from "../../src/errors/mod.ts";
import { waitFor } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";

const SECRET = "jobs that cannot hang: thirty-two bytes or more";
/** The limit of the hung tool's runs: small, so the tests are quick. */
const TIMEOUT_MS = 300;

type Caller = { call(name: string, args: unknown): Promise<CallOutcome> };

function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise", JSON.stringify(outcome));
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).token;
}

/** Redeems until the job ends (at most 20 s, a bound for a loaded machine, not a measure): its outcome or error. */
async function ended(server: Caller, token: string): Promise<CallOutcome | ProtocolError> {
  let end: CallOutcome | ProtocolError | undefined;
  await waitFor(async () => {
    try {
      const outcome = await server.call("redeem", { promise: token });
      if (outcome.kind !== "promise") end = outcome;
    } catch (error) {
      assert.ok(error instanceof ProtocolError, String(error));
      end = error;
    }
    return end !== undefined;
  }, 20_000);
  return end!;
}

/** A timed-out run, as a caller reads it: `deadline_exceeded` with `data.reason: "timeout"`, not a tool error. */
function assertTimedOut(end: CallOutcome | ProtocolError): void {
  assert.ok(end instanceof ProtocolError, JSON.stringify(end));
  assert.equal(end.code, "deadline_exceeded");
  assert.deepEqual(end.data, { reason: "timeout", timeoutMs: TIMEOUT_MS });
}

/** Tools: `hang` never settles (it ignores its signal) and records each run's signal; `quick` answers at once. */
function tools(signals: AbortSignal[]) {
  return [
    defineTool("hang").describe("Never ends").input(v.object({ n: v.number() }))
      .longRunning({ timeoutMs: TIMEOUT_MS })
      .defer((_, work) => {
        signals.push(work.signal);
        return new Promise<never>(() => {});
      }),
    defineTool("quick").describe("Answers at once").longRunning().defer(() => "quick"),
  ] as const;
}

describe(".longRunning({ timeoutMs }): work that never ends frees its slot", () => {
  it("a worker with concurrency 2 and four jobs that never end still runs a fifth", async () => {
    const { queue } = memoryQueue();
    const signals: AbortSignal[] = [];
    const [hang, quick] = tools(signals);
    const server = createServer({
      name: "limits",
      version: "1.0.0",
      secret: SECRET,
      resultStore: createMemoryResultStore(),
      queue,
    }).tool(hang).tool(quick);
    const worker = runWorker(server, { concurrency: 2 });
    try {
      const hung = [];
      for (let n = 0; n < 4; n++) hung.push(tokenOf(await server.call("hang", { n })));
      const fifth = tokenOf(await server.call("quick", {}));
      const answer = await ended(server, fifth);
      assert.ok(!(answer instanceof ProtocolError) && answer.kind === "answer", JSON.stringify(answer));
      assert.deepEqual(answer.result.content, [{ type: "text", text: "quick" }]);
      for (const token of hung) assertTimedOut(await ended(server, token));
      assert.equal(signals.length, 4);
      assert.ok(signals.every((signal) => signal.aborted), "each hung run's signal aborted");
      assert.equal(worker.running, 0, "no slot held");
    } finally {
      await worker.close();
    }
  });

  it("in one process, a timed-out job gives back its share of the jobs budget", async () => {
    const signals: AbortSignal[] = [];
    const [hang, quick] = tools(signals);
    const server = createServer({ name: "limits", version: "1.0.0", secret: SECRET, limits: { jobs: 1 } })
      .tool(hang).tool(quick);
    const token = tokenOf(await server.call("hang", { n: 1 }));
    assertTimedOut(await ended(server, token));
    assert.equal(signals[0]?.aborted, true);
    const answer = await ended(server, tokenOf(await server.call("quick", {})));
    assert.ok(!(answer instanceof ProtocolError) && answer.kind === "answer", JSON.stringify(answer));
  });

  it("refuses a timeoutMs a timer does not take", () => {
    for (const timeoutMs of [0, -1, 0.5, Number.NaN, 2 ** 31]) {
      const tool = defineTool("t").describe("Checked when added").longRunning({ timeoutMs }).defer(() => "");
      assert.throws(
        () => createServer({ name: "s", version: "1", secret: SECRET }).tool(tool),
        RangeError,
        String(timeoutMs),
      );
    }
  });
});

describe("a job whose entry expired", () => {
  it("is aborted, and the lease heartbeat never writes its entry back", async () => {
    const memory = createMemoryResultStore();
    const entries = new Set<string>();
    // The shared store, which records the entry ids (not leases) written as working.
    const store: ResultStore = {
      ...memory,
      set(id, entry, ttlMs) {
        if (!id.includes(":") && entry.status === "working") entries.add(id);
        return memory.set(id, entry, ttlMs);
      },
    };
    let signal: AbortSignal | undefined;
    const server = createServer({ name: "expiry", version: "1.0.0", secret: SECRET, resultStore: store, leaseMs: 150 })
      .tool(
        defineTool("hang").describe("Never ends").longRunning({ ttlMs: 400 }).handle((_, ctx) =>
          ctx.defer((s) => {
            signal = s;
            return new Promise<never>(() => {});
          })
        ),
      );
    tokenOf(await server.call("hang", {}));
    assert.equal(entries.size, 1);
    const [id] = entries;
    await waitFor(() => signal?.aborted === true, 10_000); // the expired job aborted
    // About time: over two heartbeats (every 50 ms) after it, none may write the entry back.
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(await memory.get(id), undefined, "the expired entry stays gone");
  });
});
