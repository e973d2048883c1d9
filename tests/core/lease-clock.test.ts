/**
 * The lease of deferred work on a store shared by instances, on a clock the test moves: a job whose
 * instance stopped counts as stopped only once its lease has lapsed and then stayed missing a whole
 * lease (a store restart is not a stop), and not a millisecond later. The shared-store suites
 * (tests/helpers/instances.ts) run the same on real timers, against each store's own expiry.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CallOutcome } from "../../mod.ts";
import { createMemoryResultStore } from "../../src/jobs/result-store.ts";
import { asOwnStore, killable, tokenOf } from "../helpers/instances.ts";
import { createJobTools, jobServer, waitFor } from "../helpers/long-running.ts";
import { retryInstance } from "../helpers/retry-jobs.ts";

const LEASE_MS = 300;

/** A clock that stands still until the test moves it; the store and the servers read it. */
function movableClock() {
  let time = Date.now();
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

describe("a stopped instance's lease, on a controllable clock", () => {
  it("fails the job once its lease has been missing a whole lease, not before", async () => {
    const clock = movableClock();
    const shared = asOwnStore(createMemoryResultStore({ now: clock.now })); // keeps no queue: a read starts it again
    const tools = createJobTools();
    const dying = killable(shared);
    const options = { leaseMs: LEASE_MS, tokens: { now: clock.now } };
    const a = jobServer({ resultStore: dying.store, ...options }, tools).server;
    const b = jobServer({ resultStore: shared, ...options }, tools).server;
    const token = tokenOf(await a.call("crunch", {}));
    dying.kill(); // A renews nothing from now on
    const redeem = () => b.call("redeem", { promise: token });
    clock.advance(LEASE_MS - 1);
    assert.equal((await redeem()).kind, "promise", "the lease still holds");
    clock.advance(1);
    assert.equal((await redeem()).kind, "promise", "the lease lapsed just now: it may be a store restart");
    clock.advance(LEASE_MS - 1);
    assert.equal((await redeem()).kind, "promise", "missing for less than a whole lease");
    clock.advance(1);
    const outcome = await redeem();
    assert.equal(outcome.kind, "failure", JSON.stringify(outcome));
    assert.match(JSON.stringify(outcome), /instance running this job stopped/);
    tools.release(1); // too late: the failure stands
    assert.deepEqual(await redeem(), outcome);
  });

  it("starts a retry job again on a live instance at the same moment, and only then", async () => {
    const clock = movableClock();
    const shared = asOwnStore(createMemoryResultStore({ now: clock.now })); // keeps no queue: a read starts it again
    const dying = killable(shared);
    const options = { leaseMs: LEASE_MS, tokens: { now: clock.now } };
    const a = retryInstance({ name: "a", hang: true }, { resultStore: dying.store, ...options });
    const b = retryInstance({ name: "b" }, { resultStore: shared, ...options });
    const token = tokenOf(await a.server.call("ingest", { n: 4 }));
    dying.kill();
    const redeem = () => b.server.call("redeem", { promise: token });
    clock.advance(LEASE_MS);
    assert.equal((await redeem()).kind, "promise");
    clock.advance(LEASE_MS - 1);
    assert.equal((await redeem()).kind, "promise");
    // About time: that no restart begins is seen only over a while (the clock stands still meanwhile).
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(b.counters, { handled: 0, started: 0 }, "not started again while the lease may come back");
    clock.advance(1);
    let outcome: CallOutcome | undefined;
    await waitFor(async () => (outcome = await redeem()).kind !== "promise");
    assert.deepEqual(outcome?.kind === "answer" && outcome.result.structuredContent, { n: 4, by: "b" });
    assert.deepEqual(b.counters, { handled: 0, started: 1 }, "its work started again once, its handler never");
  });
});
