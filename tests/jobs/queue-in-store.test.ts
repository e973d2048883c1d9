/**
 * `createServer({ queue: "store" })`: a server's instances keep their queue in their shared result store and each
 * takes its jobs from its first request until it drains, by the server's name (issue 100, item 2). Refused where it
 * cannot work; a process that only loads the server (as `mcplite jobs` does) takes nothing; servers of other names
 * sharing the store keep their jobs apart; an instance that drained takes no more. The instances' own deaths are
 * tests/helpers/instances.ts' (every store) and tests/jobs/instances-queue.test.ts' (processes, `kill -9`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, type ResultStore } from "../../mod.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { tokenOf } from "../helpers/instances.ts";
import { ended } from "../helpers/outcome.ts";
import { attachListener } from "../../src/binding.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";
import { continuationsOf } from "../../src/jobs/continuations.ts";

/** A server named `name` whose declared work says which server ran it (`ran`). */
function instance(name: string, resultStore: ResultStore | undefined, ran: string[], label = name) {
  return createServer({ name, version: "1.0.0", secret: SECRET, resultStore, queue: "store" }).tool(
    defineTool("job").describe("Declared work, run by whichever instance takes it").input(v.object({ n: v.number() }))
      .longRunning({ retryAfterMs: 5 }).defer(({ n }) => (ran.push(`${label}:${n}`), { n, by: label })),
  );
}

describe('createServer({ queue: "store" })', () => {
  it("is refused without a shared result store, or over a result store of the user's own", () => {
    assert.throws(() => instance("a", undefined, []), /queue: "store" \}\) needs a resultStore the instances share/);
    const memory = createMemoryResultStore();
    const own: ResultStore = { get: memory.get, set: memory.set, delete: memory.delete }; // no store contract
    assert.throws(() => instance("a", own, []), /needs a result store of this SDK/);
  });

  it("runs a job on the instance that took the call; one that only loaded the server takes none", async () => {
    const store = createMemoryResultStore();
    const ran: string[] = [];
    const loaded = instance("app", store, ran, "loaded"); // as `mcplite jobs` loads it: no request, so no taker
    const serving = instance("app", store, ran, "serving");
    const token = tokenOf(await serving.call("job", { n: 1 }));
    await waitFor(() => ran.length > 0);
    assert.deepEqual(ran, ["serving:1"]);
    const answer = await ended(serving, await serving.call("redeem", { promise: token })); // its result stored
    assert.deepEqual(answer.kind === "answer" && answer.result.structuredContent, { n: 1, by: "serving" });
    // Its taking of the queue was never claimed: the first claim is this one.
    assert.equal(continuationsOf(registryOf(attachListener(loaded).core).runtime).claimTaking(), true);
    assert.equal(continuationsOf(registryOf(attachListener(serving).core).runtime).claimTaking(), false);
  });

  it("keeps the jobs of servers of other names apart on one store", async () => {
    const store = createMemoryResultStore();
    const ran: string[] = [];
    const billing = instance("billing", store, ran);
    const search = instance("search", store, ran);
    await search.fetch(new Request("http://127.0.0.1/health")); // serving: it takes its own server's jobs only
    const token = tokenOf(await billing.call("job", { n: 2 }));
    await waitFor(() => ran.length > 0);
    assert.deepEqual(ran, ["billing:2"]);
    const answer = await ended(billing, await billing.call("redeem", { promise: token })); // its result stored
    assert.deepEqual(answer.kind === "answer" && answer.result.structuredContent, { n: 2, by: "billing" });
  });

  it("stops taking jobs on the instance that drains: its next job runs on another instance", async () => {
    const store = createMemoryResultStore();
    const ran: string[] = [];
    const draining = instance("app", store, ran, "draining");
    await draining.fetch(new Request("http://127.0.0.1/health")); // serving: it takes the queue's jobs
    await draining.drain(); // as `listener.close()` does on its way out
    const token = tokenOf(await draining.call("job", { n: 3 })); // queued; taken here at once, had it not drained
    const other = instance("app", store, ran, "other");
    await other.fetch(new Request("http://127.0.0.1/health"));
    await waitFor(() => ran.length > 0);
    assert.deepEqual(ran, ["other:3"]);
    const answer = await other.call("redeem", { promise: token });
    assert.deepEqual(answer.kind === "answer" && answer.result.structuredContent, { n: 3, by: "other" });
  });
});
