/**
 * Server instances sharing one result store, as behind a load balancer: deferred work started on one
 * is redeemed on the others, and a job whose instance stops fails (or starts again) once its lease has
 * lapsed, not when its token expires. Run against every shared store (memory shared in process, Redis,
 * Deno KV), whose own expiry ends the lease: real timers, so what is asserted is what happened and in which order
 * (never at the first sight of a missing lease), with a wait far below the token's hour; the order in ms is
 * tests/core/lease-clock.test.ts'.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CallOutcome, ResultStore, Server } from "../../mod.ts";
import type { SharedStore } from "../../src/store/shared-store.ts";
import { attachListener } from "../../src/binding.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";
import { createJobTools, jobServer, waitFor } from "./long-running.ts";
import { final } from "./outcome.ts";
import { retryInstance } from "./retry-jobs.ts";

/** How many deferred jobs run on `server`'s instance (its work not yet ended). */
// deno-lint-ignore no-explicit-any
const runningOn = (server: Server<any>) => registryOf(attachListener(server).core).runtime.continuations.running;

/** Makes `server` serve (a request reaches it, as a load balancer's probe would): it takes its share of the queue. */
// deno-lint-ignore no-explicit-any
const serving = async (server: Server<any>) => void await server.fetch(new Request("http://127.0.0.1/health"));

/** Redeems each of `tokens` on `server` until every one has ended, and gives their ends. */
// deno-lint-ignore no-explicit-any
async function endsOn(server: Server<any>, tokens: readonly string[]): Promise<CallOutcome[]> {
  const ends: CallOutcome[] = [];
  await waitFor(async () => {
    ends.length = 0;
    for (const token of tokens) ends.push(await server.call("redeem", { promise: token }));
    return ends.every((each) => each.kind !== "promise");
  }, LAPSE_WAIT_MS);
  return ends;
}

/** The promise token of a deferred call's outcome. */
export function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise");
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).token;
}

/** The lease of these tests, in ms. */
const LEASE_MS = 300;
/** How long a test waits for a lapsed lease's outcome: far above two leases, far below the token's hour. */
const LAPSE_WAIT_MS = 10_000;

/**
 * `store` as a result store of the user's own is (`ResultStore`'s operations, no shared store beneath): its instances
 * keep no queue in it, so a read delivers a stopped instance's job again (`lapsed-jobs.ts`), the path these tests show.
 */
export function asOwnStore(store: ResultStore): ResultStore {
  const { store: _shared, ...own } = store;
  return own;
}

/** A store whose every operation fails once `dead` is set: the view of an instance that stopped. */
export function killable(store: ResultStore): { store: ResultStore; kill(): void } {
  let dead = false;
  const check = () => {
    if (dead) throw new Error("this instance stopped");
  };
  return {
    kill: () => dead = true,
    store: {
      get: async (id) => (check(), await store.get(id)),
      set: async (id, entry, ttlMs) => (check(), await store.set(id, entry, ttlMs)),
      delete: async (id) => (check(), await store.delete(id)),
      // Its sets too, where it has them: a job's journal lists its steps there.
      ...store.addMember && {
        addMember: async (key, member, ttlMs) => (check(), await store.addMember!(key, member, ttlMs)),
        removeMember: async (key, member) => (check(), await store.removeMember!(key, member)),
        members: async (key) => (check(), await store.members!(key)),
      },
      // And the shared store it is a view of, where the instances' queue is kept (`storeQueue()`).
      ...store.store && { store: killableStore(store.store, check) },
      // And its journal store, where it keeps journals apart (the in-memory store does).
      ...store.journalStore && {
        journalStore: {
          load: async (job) => (check(), await store.journalStore!.load(job)),
          append: async (job, entry, ttlMs) => (check(), await store.journalStore!.append(job, entry, ttlMs)),
        },
      },
    },
  };
}

/** `store` with every operation failing once `check` throws. */
function killableStore(store: SharedStore, check: () => void): SharedStore {
  return {
    get: async (key) => (check(), await store.get(key)),
    put: async (key, value, ttlMs, options) => (check(), await store.put(key, value, ttlMs, options)),
    putIfAbsent: async (key, value, ttlMs) => (check(), await store.putIfAbsent(key, value, ttlMs)),
    compareAndSet: async (
      key,
      expected,
      next,
      ttlMs,
    ) => (check(), await store.compareAndSet(key, expected, next, ttlMs)),
    delete: async (key) => (check(), await store.delete(key)),
    addMember: async (key, member, ttlMs) => (check(), await store.addMember(key, member, ttlMs)),
    removeMember: async (key, member) => (check(), await store.removeMember(key, member)),
    members: async (key) => (check(), await store.members(key)),
  };
}

/**
 * Describes the suite of instances sharing a store.
 *
 * @param name The store's name.
 * @param store Returns the shared store (called inside each test, after setup).
 * @param skip A reason to skip (a missing engine).
 * @param noStoreQueue The store's instances cannot keep a queue in it (a Worker's, whose timers die with its requests):
 *   only the cases without a queue run.
 */
export function describeSharedInstances(
  name: string,
  store: () => ResultStore,
  skip?: string | false,
  noStoreQueue = false,
): void {
  describe(`instances sharing a store: ${name}`, { skip }, () => {
    it("redeems on instance B (and C) the work deferred on instance A", async () => {
      const tools = createJobTools();
      const [a, b, c] = [0, 1, 2].map(() => jobServer({ resultStore: store() }, tools).server);
      const token = tokenOf(await a.call("crunch", {}));
      assert.equal((await b.call("redeem", { promise: token })).kind, "promise");
      tools.release(7);
      let outcome: CallOutcome | undefined;
      await waitFor(async () => (outcome = await c.call("redeem", { promise: token })).kind !== "promise");
      assert.equal(outcome?.kind, "answer");
      assert.deepEqual(outcome?.kind === "answer" && outcome.result.structuredContent, { rows: 7 });
      // Every instance answers the same end. A redeem that met the store out of reach for a moment (300 at once, on a
      // loaded machine) is answered "not done yet, send again" (redeem.ts), and is sent again, as clients do.
      const settled = async (server: typeof a) => {
        let each: CallOutcome | undefined;
        await waitFor(async () => (each = await server.call("redeem", { promise: token })).kind !== "promise");
        return each;
      };
      const many = await Promise.all(Array.from({ length: 300 }, (_, i) => settled([a, b, c][i % 3])));
      for (const each of many) assert.deepEqual(each, outcome);
    });

    it("answers one end to a cancellation on B racing the result on A: the first writer's", async () => {
      const tools = createJobTools();
      const a = jobServer({ resultStore: store() }, tools).server;
      const b = jobServer({ resultStore: store() }, tools).server;
      const token = tokenOf(await a.call("crunch", {}));
      tools.release(3);
      await b.call("redeem", { promise: token, cancel: true });
      let outcome: CallOutcome | undefined;
      await waitFor(async () => (outcome = await b.call("redeem", { promise: token })).kind !== "promise");
      const ended = final(outcome!);
      await waitFor(() => runningOn(a) === 0, LAPSE_WAIT_MS); // A's work has ended too: its end is written or refused
      for (let i = 0; i < 5; i++) assert.deepEqual(final(await a.call("redeem", { promise: token })), ended);
    });

    it("aborts, within its lease, the work running on A when B cancels it", async () => {
      const tools = createJobTools();
      const a = jobServer({ resultStore: store(), leaseMs: LEASE_MS }, tools).server;
      const b = jobServer({ resultStore: store(), leaseMs: LEASE_MS }, tools).server;
      const token = tokenOf(await a.call("crunch", {}));
      assert.equal(runningOn(a), 1);
      await b.call("redeem", { promise: token, cancel: true });
      await waitFor(() => runningOn(a) === 0, LAPSE_WAIT_MS); // uncancelled, it would run until released
      assert.match(JSON.stringify(await a.call("redeem", { promise: token })), /cancelled/);
    });

    it("fails a job whose instance stopped, within two leases, instead of pending until expiry", async () => {
      const tools = createJobTools();
      const dying = killable(store());
      const a = jobServer({ resultStore: dying.store, leaseMs: LEASE_MS }, tools).server;
      const b = jobServer({ resultStore: store(), leaseMs: LEASE_MS }, tools).server;
      const token = tokenOf(await a.call("crunch", {}));
      // About time itself: more than two leases pass, and the lease, renewed, still holds.
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal((await b.call("redeem", { promise: token })).kind, "promise");
      dying.kill();
      const kinds: string[] = [];
      let outcome: CallOutcome | undefined;
      // Ends within seconds instead of pending for the token's hour; never before its lease has been
      // missing a whole lease (a store restart is not a stop): the redeem that finds it missing is told "not yet".
      await waitFor(async () => {
        outcome = await b.call("redeem", { promise: token });
        kinds.push(outcome.kind);
        return outcome.kind !== "promise";
      }, LAPSE_WAIT_MS);
      assert.equal(kinds[0], "promise", `not failed at the stop, on a lease found missing just now: ${kinds}`);
      assert.equal(outcome?.kind, "failure");
      assert.match(JSON.stringify(outcome), /instance running this job stopped/);
      tools.release(1); // too late: the failure stands
      await waitFor(() => runningOn(a) === 0, LAPSE_WAIT_MS); // A's work has ended, its write refused
      assert.equal((await b.call("redeem", { promise: token })).kind, "failure");
    });

    it("fails a stopped instance's job for a reader who reads less often than every two leases", async () => {
      const tools = createJobTools();
      const dying = killable(store());
      const a = jobServer({ resultStore: dying.store, leaseMs: LEASE_MS }, tools).server;
      const b = jobServer({ resultStore: store(), leaseMs: LEASE_MS }, tools).server;
      const token = tokenOf(await a.call("crunch", {}));
      dying.kill();
      // A client that polls at a slow pace (a tool's retryAfterMs of 10 s against a 5 s lease): three leases apart, where
      // the mark of the lease first found missing once lasted two, so that each read found it missing anew.
      const kinds: string[] = [];
      for (let read = 0; read < 4 && kinds.at(-1) !== "failure"; read++) {
        if (read > 0) await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS)); // about time: the reader's pace
        kinds.push((await b.call("redeem", { promise: token })).kind);
      }
      // The first read may still find the lease (renewed just before the stop); a later one marks it missing, and the
      // next, three leases on, finds it missing since: failed, not "not done yet" read after read.
      assert.equal(kinds.at(-1), "failure", kinds.join(", "));
      assert.ok(kinds.length <= 3, kinds.join(", "));
      tools.release(1);
      await waitFor(() => runningOn(a) === 0, LAPSE_WAIT_MS);
    });

    // A server given a shared store and no queue: its instances keep a queue in the store, which delivers a stopped
    // instance's job.
    describe("a queue kept in the store (no queue given)", { skip: noStoreQueue }, () => {
      it("delivers a stopped instance's queued job again on a live instance, with nobody reading it", async () => {
        const dying = killable(store());
        const app = { name: `ingest-${crypto.randomUUID()}`, leaseMs: LEASE_MS }; // one queue, by name
        const a = retryInstance({ name: "a", hang: true }, { ...app, resultStore: dying.store });
        const [b, c] = ["b", "c"].map((name) => retryInstance({ name }, { ...app, resultStore: store() }));
        const token = tokenOf(await a.server.call("ingest", { n: 4 }));
        await waitFor(() => a.counters.started === 1, LAPSE_WAIT_MS); // A took it, the only instance serving
        await Promise.all([b, c].map((each) => serving(each.server))); // live now: each takes its share of the queue
        dying.kill();
        // Nobody reads: the queue kept in the store delivers it again once A's claim has lapsed, on one live instance.
        await waitFor(() => b.counters.started + c.counters.started > 0, LAPSE_WAIT_MS);
        const outcome = await c.server.call("redeem", { promise: token }).then(async (first) => {
          let read = first;
          await waitFor(async () => (read = await c.server.call("redeem", { promise: token })).kind !== "promise");
          return read;
        });
        assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
        const by = outcome.kind === "answer" ? (outcome.result.structuredContent as { by: string }).by : undefined;
        assert.ok(by === "b" || by === "c", `ran on ${by}`);
        assert.deepEqual(outcome.kind === "answer" && outcome.result.structuredContent, { n: 4, by });
        assert.equal(b.counters.started + c.counters.started, 1, "one instance took the second start");
        assert.equal(b.counters.handled + c.counters.handled, 0, "only its work ran again, never its handler");
        assert.deepEqual(await b.server.call("redeem", { promise: token }), outcome);
      });

      it("ends stopped a queued job past its starts (the queue, not a read); inline work fails on a read as before", async () => {
        const first = killable(store());
        const second = killable(store());
        const app = { name: `ingest-${crypto.randomUUID()}`, leaseMs: LEASE_MS }; // one queue, by name
        const a = retryInstance({ name: "a", hang: true }, { ...app, resultStore: first.store });
        const b = retryInstance({ name: "b", hang: true }, { ...app, resultStore: second.store });
        const c = retryInstance({ name: "c" }, { ...app, resultStore: store() });
        const once = tokenOf(await a.server.call("ingest_once", { n: 1 }));
        const twice = tokenOf(await a.server.call("ingest", { n: 2 }));
        await waitFor(() => a.counters.started === 2, LAPSE_WAIT_MS); // inline work here, the queued job taken here
        await serving(b.server); // live only now, so that A took the queued job
        first.kill();
        // B takes the queued job's second (last) start, then stops too; C, live from then on, ends it.
        await waitFor(() => b.counters.started === 1, LAPSE_WAIT_MS);
        second.kill();
        await serving(c.server);
        const ends = await endsOn(c.server, [once, twice]);
        assert.equal(ends[0].kind, "failure");
        assert.match(JSON.stringify(ends[0]), /instance running this job stopped before it finished"/);
        assert.equal(ends[1].kind, "failure");
        assert.match(JSON.stringify(ends[1]), /instance running this job stopped before it finished \(2 attempts\)/);
        assert.equal(c.counters.started, 0, "no start beyond the last");
      });
    });

    // Where instances keep no queue (a Worker's, whose timers die with its requests; a result store of the user's
    // own), a read delivers a stopped instance's job again (`lapsed-jobs.ts`).
    describe("no queue (a result store of the user's own): a read delivers it again", () => {
      const own = () => asOwnStore(store());
      it("starts a retry job again on one live instance when its instance stops: the redeem gets its result", async () => {
        const dying = killable(own());
        const a = retryInstance({ name: "a", hang: true }, { resultStore: dying.store, leaseMs: LEASE_MS });
        const [b, c] = ["b", "c"].map((name) => retryInstance({ name }, { resultStore: own(), leaseMs: LEASE_MS }));
        const token = tokenOf(await a.server.call("ingest", { n: 4 }));
        dying.kill();
        let outcome: CallOutcome | undefined;
        let rounds = 0;
        await waitFor(async () => {
          // Both live instances find the lease lapsed at once: one claim wins.
          const both = await Promise.all([b, c].map((each) => each.server.call("redeem", { promise: token })));
          outcome = both.find((each) => each.kind !== "promise");
          rounds++;
          return outcome !== undefined;
        }, LAPSE_WAIT_MS);
        // Not started again at the stop, on a lease found missing just now: only once it stayed missing a whole lease.
        assert.ok(rounds > 1, `started again and done at the first redeem after the stop`);
        assert.equal(outcome?.kind, "answer", JSON.stringify(outcome));
        const by = outcome?.kind === "answer" ? (outcome.result.structuredContent as { by: string }).by : undefined;
        assert.ok(by === "b" || by === "c", `ran on ${by}`);
        assert.deepEqual(outcome?.kind === "answer" && outcome.result.structuredContent, { n: 4, by });
        assert.equal(b.counters.started + c.counters.started, 1, "one instance took the second attempt");
        assert.equal(b.counters.handled + c.counters.handled, 0, "only its work ran again, never its handler");
        for (const each of [a, b, c].slice(1)) {
          assert.deepEqual(await each.server.call("redeem", { promise: token }), outcome);
        }
      });

      it("fails as before a job without retry, and a retry job once its attempts are spent", async () => {
        const first = killable(own());
        const second = killable(own());
        const a = retryInstance({ name: "a", hang: true }, { resultStore: first.store, leaseMs: LEASE_MS });
        const b = retryInstance({ name: "b", hang: true }, { resultStore: second.store, leaseMs: LEASE_MS });
        const c = retryInstance({ name: "c" }, { resultStore: own(), leaseMs: LEASE_MS });
        const once = tokenOf(await a.server.call("ingest_once", { n: 1 }));
        const twice = tokenOf(await a.server.call("ingest", { n: 2 }));
        first.kill();
        // B takes the retry job's second (last) attempt, then stops too.
        await waitFor(
          async () => (await b.server.call("redeem", { promise: twice }), b.counters.started === 1),
          LAPSE_WAIT_MS,
        );
        second.kill();
        const ends = await endsOn(c.server, [once, twice]);
        assert.equal(ends[0].kind, "failure");
        assert.match(JSON.stringify(ends[0]), /instance running this job stopped before it finished"/);
        assert.equal(ends[1].kind, "failure");
        assert.match(JSON.stringify(ends[1]), /instance running this job stopped before it finished \(2 attempts\)/);
        assert.equal(c.counters.started, 0, "no attempt beyond the last");
      });
    });
  });
}
