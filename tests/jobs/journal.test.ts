/**
 * The journal of declared work on the in-process engine (no queue): a later start of the same job (`retry`, its
 * instance stopped, another sharing the store starts it) returns a completed step's recorded value without calling
 * fn; a step whose instance died inside fn runs again (at least once) with the same key; a name used twice in a run,
 * a value over the bound and a step past the most a run takes are refused, clearly; `work.sleep(ms)` in process is a
 * timer, and a later start reads its wake time back.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, type ResultStore, type ServerOptions } from "../../mod.ts";
import { asOwnStore, killable, tokenOf } from "../helpers/instances.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { callAny, ended, failedWith } from "../helpers/outcome.ts";

/** The lease of the stopped-instance tests, in ms: a stopped instance's job starts again after about two. */
const LEASE_MS = 300;
/** The sleep of `slumber`, in ms: far longer than the test may take, on a real timer. */
const SLUMBER_MS = 60_000;
/** The most bytes of JSON a step's value may take, as `WorkContext.step` documents it. */
const MAX_STEP_BYTES = 262_144;
/** The most steps and sleeps one run of a job may take, as `WorkContext.step` documents it. */
const MAX_STEPS = 1_000;

/** What the steps' functions saw: the step, the key fn was given, the start it ran in. */
type Seen = { step: string; key: string; attempt: number };

/** Work held until the test ends (an instance that stopped never finishes it). */
let releases: (() => void)[] = [];
afterEach(() => {
  for (const release of releases) release();
  releases = [];
});
const held = () => new Promise<void>((resolve) => releases.push(resolve));

/** A server of the journal's tools, recording in `seen` each run of a step's fn. */
function journalServer(seen: Seen[], options: Partial<ServerOptions> = {}) {
  const input = v.object({ n: v.number(), hang: v.optional(v.boolean()) });
  return createServer({ name: "journal", version: "1.0.0", secret: SECRET, ...options })
    .tool(
      defineTool("steps").describe("Two journaled steps; on its first start b may never end").input(input)
        .longRunning({ retryAfterMs: 5, retry: { attempts: 2 } })
        .defer(async ({ n, hang }, work) => {
          const a = await work.step("a", (key) => {
            seen.push({ step: "a", key, attempt: work.attempt });
            return { n, madeIn: work.attempt };
          });
          const b = await work.step("b", async (key) => {
            seen.push({ step: "b", key, attempt: work.attempt });
            if (hang && work.attempt === 1) await held(); // its instance stops while fn runs
            return { n, madeIn: work.attempt };
          });
          return { a, b, attempt: work.attempt };
        }),
    )
    .tool(
      defineTool("twice").describe("Uses one step name twice").longRunning().defer(async (_, work) => {
        await work.step("x", () => seen.push({ step: "x", key: "", attempt: work.attempt }));
        await work.step("x", () => seen.push({ step: "x again", key: "", attempt: work.attempt }));
        return { done: true };
      }),
    )
    .tool(
      defineTool("sized").describe("A step whose value takes `bytes` bytes of JSON (a string: two are its quotes)")
        .input(v.object({ bytes: v.number() })).longRunning().defer(async ({ bytes }, work) => {
          const value = await work.step("big", () => "x".repeat(bytes - 2));
          return { length: value.length };
        }),
    )
    .tool(
      defineTool("many").describe("Takes `steps` steps").input(v.object({ steps: v.number() })).longRunning()
        .defer(async ({ steps }, work) => {
          for (let i = 1; i <= steps; i++) await work.step(`s${i}`, () => i);
          return { steps };
        }),
    )
    .tool(
      defineTool("caught").describe("steps, each step in a try/catch that logs and goes on, as a logging wrapper does")
        .input(input).longRunning({ retryAfterMs: 5, retry: { attempts: 2 } })
        .defer(async ({ n }, work) => {
          const logged = async <T>(step: Promise<T>) => {
            try {
              return await step;
            } catch (error) {
              seen.push({ step: `caught ${(error as Error).message}`, key: "", attempt: work.attempt });
            }
          };
          const a = await logged(work.step("a", () => ({ n, madeIn: work.attempt })));
          const b = await logged(work.step("b", (key) => {
            seen.push({ step: "b", key, attempt: work.attempt });
            return { n, madeIn: work.attempt };
          }));
          return { a, b, attempt: work.attempt };
        }),
    )
    .tool(
      defineTool("json").describe("A step whose value is `kind`")
        .input(v.object({ kind: v.picklist(["date", "undefined", "function", "symbol", "bigint", "cycle"]) }))
        .longRunning().defer(async ({ kind }, work) => {
          const cycle: { self?: unknown } = {};
          cycle.self = cycle;
          const values = {
            date: new Date(0),
            undefined: undefined,
            function: () => 1,
            symbol: Symbol("s"),
            bigint: { count: 1n },
            cycle,
          };
          const value: unknown = await work.step(`made ${kind}`, () => values[kind]);
          return { type: typeof value, value: value ?? null };
        }),
    )
    .tool(
      defineTool("slumber").describe("Sleeps a minute, on the servers' clock; its first start gives up after 3 s")
        .longRunning({ retryAfterMs: 5, retry: { attempts: 2 }, timeoutMs: 3_000 })
        .defer(async (_, work) => {
          await work.sleep(SLUMBER_MS);
          return { attempt: work.attempt };
        }),
    )
    .tool(
      defineTool("nap").describe("Sleeps ms; says whether a timer of ms, set as it began, had fired when it woke")
        .input(v.object({ ms: v.number() })).longRunning()
        .defer(async ({ ms }, work) => {
          let due = false;
          // A timer may fire up to a millisecond early by its rounding; never sooner.
          const timer = setTimeout(() => due = true, ms - 1);
          await work.sleep(ms);
          clearTimeout(timer);
          return { due };
        }),
    );
}

/**
 * A memory store out of reach as step b's value is written, once, and back at once; its journals in its entries (as a
 * result store of the user's own, without a journal store or a shared store beneath, keeps them), where the outage is.
 */
function outageAtB(): ResultStore {
  const { journalStore: _journals, store: _shared, ...shared } = createMemoryResultStore();
  let refused = 0;
  return {
    ...shared,
    set: (id, entry, ttlMs) =>
      id.endsWith(":b") && refused++ === 0
        ? Promise.reject(new Error("the store is restarting"))
        : shared.set(id, entry, ttlMs),
  };
}

// The in-process engine: a result store of the user's own keeps no queue, and a read starts a stopped instance's job
// again (`lapsed-jobs.ts`).
describe("work.step on the in-process engine", () => {
  it("a later start of the same job returns a completed step's value without calling fn; one left inside fn runs again", async () => {
    const seen: Seen[] = [];
    const shared = asOwnStore(createMemoryResultStore());
    const dying = killable(shared);
    const options = { leaseMs: LEASE_MS };
    const a = journalServer(seen, { resultStore: dying.store, ...options });
    const b = journalServer(seen, { resultStore: shared, ...options });
    const token = tokenOf(await a.call("steps", { n: 1, hang: true }));
    await waitFor(() => seen.some((each) => each.step === "b")); // a is journaled, b's fn is running on A
    dying.kill(); // A stops, inside b's fn
    const outcome = await ended(b, await b.call("redeem", { promise: token }));
    assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    assert.deepEqual((outcome as { result: { structuredContent?: unknown } }).result.structuredContent, {
      a: { n: 1, madeIn: 1 }, // the value recorded on A's start
      b: { n: 1, madeIn: 2 }, // fn ran again on B's: A died inside it (at least once)
      attempt: 2,
    });
    assert.deepEqual(seen.map(({ step, attempt }) => ({ step, attempt })), [
      { step: "a", attempt: 1 },
      { step: "b", attempt: 1 },
      { step: "b", attempt: 2 },
    ]);
    // The key fn gets is the job's and the step's: the same on each start, another for another step.
    const [keyA, keyB1, keyB2] = seen.map((each) => each.key);
    assert.equal(keyB1, keyB2);
    assert.notEqual(keyA, keyB1);
    assert.ok(keyA.length > 0 && keyB1.length > 0, JSON.stringify(seen));
  });

  it("a step whose value the store could not record (out of reach then) runs again on the next start, with the same key", async () => {
    const seen: Seen[] = [];
    const server = journalServer(seen, { resultStore: outageAtB(), leaseMs: LEASE_MS, onError: () => {} });
    const outcome = await ended(server, await server.call("steps", { n: 1 }));
    assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    assert.deepEqual((outcome as { result: { structuredContent?: unknown } }).result.structuredContent, {
      a: { n: 1, madeIn: 1 }, // recorded on the first start
      b: { n: 1, madeIn: 2 }, // its value was lost: fn ran again on the next start (at least once)
      attempt: 2,
    });
    assert.deepEqual(seen.map(({ step, attempt }) => ({ step, attempt })), [
      { step: "a", attempt: 1 },
      { step: "b", attempt: 1 },
      { step: "b", attempt: 2 },
    ]);
    assert.equal(seen[1].key, seen[2].key, "the same key on both runs of b");
  });

  it("a store out of reach as a step's value is written ends the start unseen by a try/catch around the step", async () => {
    const seen: Seen[] = [];
    const server = journalServer(seen, { resultStore: outageAtB(), leaseMs: LEASE_MS, onError: () => {} });
    const outcome = await ended(server, await server.call("caught", { n: 1 }));
    assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    // The first start ended at the outage, as a death would: its catch never ran, and the next start ran b again.
    assert.deepEqual((outcome as { result: { structuredContent?: unknown } }).result.structuredContent, {
      a: { n: 1, madeIn: 1 },
      b: { n: 1, madeIn: 2 },
      attempt: 2,
    });
    assert.deepEqual(seen.map(({ step, attempt }) => ({ step, attempt })), [
      { step: "b", attempt: 1 },
      { step: "b", attempt: 2 },
    ]);
  });

  it("a value comes back as JSON gives it, on the start that ran the step too; undefined is no value", async () => {
    const server = journalServer([]);
    const structured = async (kind: string) => {
      const outcome = await ended(server, await callAny(server, "json", { kind }));
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
      return (outcome as { result: { structuredContent?: unknown } }).result.structuredContent;
    };
    assert.deepEqual(await structured("date"), { type: "string", value: "1970-01-01T00:00:00.000Z" });
    assert.deepEqual(await structured("undefined"), { type: "undefined", value: null });
  });

  it("a value with no JSON form is refused as it is recorded, naming the step", async () => {
    const server = journalServer([]);
    for (const kind of ["function", "symbol", "bigint", "cycle"]) {
      const text = failedWith(await ended(server, await callAny(server, "json", { kind })));
      assert.match(text, new RegExp(`"made ${kind}" has no JSON form`), text);
    }
  });

  it("the key fn gets differs from job to job, for the same step", async () => {
    const seen: Seen[] = [];
    const server = journalServer(seen);
    for (const n of [1, 2]) {
      const outcome = await ended(server, await server.call("steps", { n }));
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    }
    const keysOf = (step: string) => seen.filter((each) => each.step === step).map((each) => each.key);
    assert.equal(keysOf("a").length, 2, JSON.stringify(seen));
    assert.notEqual(keysOf("a")[0], keysOf("a")[1]);
    assert.notEqual(keysOf("b")[0], keysOf("b")[1]);
  });

  it("one name used twice in a run is refused, naming the step, and the second fn never runs", async () => {
    const seen: Seen[] = [];
    const server = journalServer(seen);
    const text = failedWith(await ended(server, await server.call("twice", {})));
    assert.match(text, /"x"/, text);
    assert.match(text, /twice|already|unique/i, text);
    assert.deepEqual(seen.map((each) => each.step), ["x"]);
  });

  it("a step's value over the bound is refused, naming the step; one at the bound is kept", async () => {
    const server = journalServer([]);
    const kept = await ended(server, await server.call("sized", { bytes: MAX_STEP_BYTES }));
    assert.equal(kept.kind, "answer", JSON.stringify(kept).slice(0, 500));
    const text = failedWith(await ended(server, await server.call("sized", { bytes: MAX_STEP_BYTES + 1 })));
    assert.match(text, /"big"/, text);
    assert.match(text, new RegExp(`${MAX_STEP_BYTES} bytes`), text);
  });

  it("past the most steps a run may take, the next is refused", async () => {
    const server = journalServer([]);
    const kept = await ended(server, await server.call("many", { steps: MAX_STEPS }));
    assert.equal(kept.kind, "answer", JSON.stringify(kept));
    const text = failedWith(await ended(server, await server.call("many", { steps: MAX_STEPS + 1 })));
    assert.match(text, /\b1[ ,]?000 steps/, text);
  });
});

/** A clock that stands still until the test moves it; the store and the servers read it. */
function movableClock() {
  let time = Date.now();
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

/** `store`, with the key of each entry set written into `written`. */
function spied(store: ResultStore, written: string[]): ResultStore {
  return { ...store, set: (id, entry, ttlMs) => (written.push(id), store.set(id, entry, ttlMs)) };
}

describe("work.sleep on the in-process engine", () => {
  it("is journaled: a later start of the job sleeps only what is left of it", async () => {
    const clock = movableClock();
    // Journals in its entries (a store without a journal store of its own), where `written` sees the sleep's.
    const { journalStore: _journals, store: _shared, ...shared } = createMemoryResultStore({ now: clock.now });
    const written: string[] = [];
    const dying = killable(spied(shared, written));
    const options = { leaseMs: LEASE_MS, tokens: { now: clock.now } };
    const a = journalServer([], { resultStore: dying.store, ...options });
    const b = journalServer([], { resultStore: shared, ...options });
    const token = tokenOf(await a.call("slumber", {}));
    await waitFor(() => written.some((key) => key.includes("sleep"))); // its wake time, journaled
    dying.kill(); // A stops a minute before the job wakes
    clock.advance(SLUMBER_MS); // the wake time has come: the lease has lapsed, B sees it missing
    assert.equal((await b.call("redeem", { promise: token })).kind, "promise");
    clock.advance(LEASE_MS); // missing a whole lease: B starts the job again, which wakes at once
    const outcome = await ended(b, await b.call("redeem", { promise: token }));
    assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    assert.deepEqual((outcome as { result: { structuredContent?: unknown } }).result.structuredContent, {
      attempt: 2,
    });
  });

  it("is a timer: the work goes on once its time has passed", async () => {
    const server = journalServer([]);
    const outcome = await ended(server, await server.call("nap", { ms: 300 }));
    assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    // The order of two timers, not a measure of ms: a loaded machine makes both late, never the sleep early.
    const { due } = (outcome as { result: { structuredContent?: unknown } }).result.structuredContent as {
      due: boolean;
    };
    assert.ok(due, "it woke only once a timer of its length, set as it began, had fired");
  });
});
