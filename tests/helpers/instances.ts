/**
 * Server instances sharing one result store, as behind a load balancer: deferred work started on one
 * is redeemed on the others, and a job whose instance stops fails within its lease. Run against every
 * shared store (memory shared in process, Redis, Deno KV).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CallOutcome, ResultStore } from "../../mod.ts";
import { attachListener } from "../../src/binding.ts";
import { createJobTools, jobServer, waitFor } from "./long-running.ts";
import { final } from "./outcome.ts";

function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise");
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).token;
}

/** A store whose every operation fails once `dead` is set: the view of an instance that stopped. */
function killable(store: ResultStore): { store: ResultStore; kill(): void } {
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
    },
  };
}

/**
 * Describes the suite of instances sharing a store.
 *
 * @param name The store's name.
 * @param store Returns the shared store (called inside each test, after setup).
 * @param skip A reason to skip (a missing engine).
 */
export function describeSharedInstances(name: string, store: () => ResultStore, skip?: string | false): void {
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
      const many = await Promise.all(
        Array.from({ length: 300 }, (_, i) => [a, b, c][i % 3].call("redeem", { promise: token })),
      );
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
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.deepEqual(final(await a.call("redeem", { promise: token })), ended);
      }
    });

    it("aborts, within its lease, the work running on A when B cancels it", async () => {
      const tools = createJobTools();
      const a = jobServer({ resultStore: store(), leaseMs: 300 }, tools).server;
      const b = jobServer({ resultStore: store(), leaseMs: 300 }, tools).server;
      const token = tokenOf(await a.call("crunch", {}));
      const running = () => attachListener(a).core.registry.runtime.continuations.running;
      assert.equal(running(), 1);
      await b.call("redeem", { promise: token, cancel: true });
      await waitFor(() => running() === 0, 1_000);
      assert.match(JSON.stringify(await a.call("redeem", { promise: token })), /cancelled/);
    });

    it("fails a job whose instance stopped, within two leases, instead of pending until expiry", async () => {
      const tools = createJobTools();
      const dying = killable(store());
      const a = jobServer({ resultStore: dying.store, leaseMs: 300 }, tools).server;
      const b = jobServer({ resultStore: store(), leaseMs: 300 }, tools).server;
      const token = tokenOf(await a.call("crunch", {}));
      await new Promise((resolve) => setTimeout(resolve, 700)); // renewed: still running
      assert.equal((await b.call("redeem", { promise: token })).kind, "promise");
      dying.kill();
      const stoppedAt = Date.now();
      let outcome: CallOutcome | undefined;
      await waitFor(async () => (outcome = await b.call("redeem", { promise: token })).kind !== "promise", 3_000);
      assert.ok(Date.now() - stoppedAt < 1_300, "failed within two leases");
      assert.equal(outcome?.kind, "failure");
      assert.match(JSON.stringify(outcome), /instance running this job stopped/);
      tools.release(1); // too late: the failure stands
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal((await b.call("redeem", { promise: token })).kind, "failure");
    });
  });
}
