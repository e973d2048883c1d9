/**
 * Queued deferred work in one process, with a queue in memory that behaves as the contract of `WorkQueue` asks
 * (delivered again when a run rejects or gives the job back): what the job carries to the worker and what it
 * does not, refusals that are honest (a job too large for a token is not "send again later"; a queue out of
 * reach is), a job a worker cannot verify delivered again until a worker with the secret runs it, a job
 * cancelled before a worker took it never run, and the settings a queue needs.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import type { CallOutcome, ResultStore } from "../../mod.ts";
import type { WorkQueue } from "../../src/types.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { describeWorkQueue } from "../helpers/work-queue-conformance.ts";
import { killable } from "../helpers/instances.ts";
import { waitFor } from "../helpers/long-running.ts";

const SECRET = "queued jobs in process: thirty-two bytes or more";
const OTHER_SECRET = "another deployment's secret, also 32+ bytes";

interface Seen {
  headers?: Record<string, string>;
  auth?: unknown;
  runs: number;
  /** What the work waits for before it answers. */
  gate?: Promise<void>;
  /** What the store was asked, in order: `set <status> <key>`, `get <key>`, `delete <key>`. */
  store?: string[];
  /** What the store had been asked when the work first ran. */
  atRun?: string[];
}

function queuedServer(queue: WorkQueue, seen: Seen, secret: string | string[] = SECRET) {
  const memory = createMemoryResultStore();
  const asked = (what: string) => (seen.store ??= []).push(what);
  const store: ResultStore = {
    get: (id) => (asked(`get ${id}`), memory.get(id)),
    set: (id, entry, ttlMs) => (asked(`set ${entry.status} ${id}`), memory.set(id, entry, ttlMs)),
    delete: (id) => (asked(`delete ${id}`), memory.delete(id)),
  };
  const server = createServer({ name: "queued", version: "1.0.0", secret, resultStore: store, queue })
    .tool(
      defineTool("report").describe("A report, later").input(v.object({ id: v.string() })).longRunning()
        .defer(async ({ id }, work) => {
          seen.headers = Object.fromEntries(work.meta.headers);
          seen.auth = work.auth;
          seen.atRun ??= [...seen.store ?? []];
          seen.runs++;
          await seen.gate;
          return `report ${id}`;
        }),
    );
  return { server, store };
}

async function redeemed(
  server: { call(name: string, args: unknown, options?: { auth?: { subject: string } }): Promise<CallOutcome> },
  token: string,
  auth?: { subject: string },
) {
  let outcome: CallOutcome | undefined;
  await waitFor(
    async () => (outcome = await server.call("redeem", { promise: token }, { auth })).kind !== "promise",
    10_000,
  );
  return outcome!;
}

function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise", JSON.stringify(outcome));
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).token;
}

describe("createServer({ queue }) and runWorker() in one process", () => {
  it("runs the job on the worker with the caller and headers, never the raw credential nor credential headers", async () => {
    const { queue } = memoryQueue();
    const seen: Seen = { runs: 0 };
    const { server } = queuedServer(queue, seen);
    const token = tokenOf(
      await server.call("report", { id: "q3" }, {
        auth: { subject: "ada", scopes: ["reports"], token: "the-bearer-token" },
        headers: { authorization: "Bearer the-bearer-token", cookie: "s=1", "x-request-id": "r-7" },
      }),
    );
    assert.equal(seen.runs, 0, "nothing ran in the process that took the call");
    const worker = runWorker(server, { concurrency: 2 });
    try {
      const outcome = await redeemed(server, token, { subject: "ada" });
      assert.equal(outcome.kind, "answer");
      assert.deepEqual(outcome.kind === "answer" && outcome.result.content, [{ type: "text", text: "report q3" }]);
      assert.equal(seen.runs, 1);
      // What the work saw on the worker: the caller without its token, no credential headers.
      assert.deepEqual(seen.auth, { subject: "ada", scopes: ["reports"] });
      assert.equal(seen.headers?.["x-request-id"], "r-7");
      assert.equal(seen.headers?.authorization, undefined);
      assert.equal(seen.headers?.cookie, undefined);
    } finally {
      await worker.close();
    }
  });

  it("asks the store nothing per job beyond its entry: written on the call, read by the worker, then its result", async () => {
    // The queue's lock, stalled-job check and start count are the job's life: no lease, no heartbeat, no start
    // claim, and the working entry is not written again (it would be by a job that runs in process).
    const { queue } = memoryQueue();
    const seen: Seen = { runs: 0 };
    const { server } = queuedServer(queue, seen);
    const worker = runWorker(server);
    try {
      const token = tokenOf(await server.call("report", { id: "q1" }));
      const id = seen.store![0].split(" ")[2];
      const outcome = await redeemed(server, token);
      assert.deepEqual(outcome.kind === "answer" && outcome.result.content, [{ type: "text", text: "report q1" }]);
      assert.deepEqual(seen.store!.filter((what) => what.startsWith("set ")), [
        `set working ${id}`,
        `set completed ${id}`,
      ]);
      assert.deepEqual(seen.store!.filter((what) => !what.endsWith(` ${id}`)), [], "no key but the job's entry");
    } finally {
      await worker.close();
    }
  });

  it("fails a call whose job is too large for a token as such, not as 'send again later'", async () => {
    const { queue, jobs } = memoryQueue();
    const { server } = queuedServer(queue, { runs: 0 });
    const outcome = await server.call("report", { id: "x".repeat(40_000) });
    assert.notEqual(outcome.kind, "promise");
    assert.equal(jobs.length, 0, "nothing was queued");
    assert.doesNotMatch(JSON.stringify(outcome), /send the request again later/);
  });

  it("answers 'send again later' (unavailable, retryAfterMs) when the queue cannot take the job", async () => {
    const { queue } = memoryQueue({ refuseAdd: true });
    const { server } = queuedServer(queue, { runs: 0 });
    await assert.rejects(server.call("report", { id: "q3" }), (error: unknown) => {
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.code, ErrorCode.Unavailable);
      assert.match(error.message, /The job queue is unavailable; send the request again later/);
      assert.equal(typeof (error.data as { retryAfterMs?: unknown }).retryAfterMs, "number");
      return true;
    });
  });

  it("delivers a job a worker cannot verify again, until a worker with the secret runs it", async () => {
    const { queue, rejections } = memoryQueue();
    const seen: Seen = { runs: 0 };
    const web = queuedServer(queue, seen);
    const token = tokenOf(await web.server.call("report", { id: "r1" }));
    // A worker deployed with another secret: it cannot check the job, and gives it back.
    const stranger = queuedServer(queue, { runs: 0 }, OTHER_SECRET);
    const wrong = runWorker(stranger.server);
    await waitFor(() => rejections.length > 0, 5_000).catch(() => {}); // asserted below
    await wrong.close();
    assert.ok(rejections.length > 0, "the job was refused, not dropped");
    assert.equal(seen.runs, 0);
    const right = runWorker(web.server);
    try {
      assert.equal((await redeemed(web.server, token)).kind, "answer");
      assert.equal(seen.runs, 1);
    } finally {
      await right.close();
    }
  });

  it("a job delivered again as its next start while a worker still runs it ends as the queue counts: stopped, the first run aborted", async () => {
    // As BullMQ's stalled-job check does once its backend is back from an outage longer than its lock: the job of a
    // worker that is alive goes to another worker too, as its next start. The queue's count stands (no lease of ours):
    // without retry the job ends as stopped, and the first run, reading its entry, is aborted.
    const { queue, jobs, stall } = memoryQueue();
    let open = () => {};
    let aborted = false;
    const seen: Seen = { runs: 0, gate: new Promise<void>((resolve) => open = resolve) };
    const memory = createMemoryResultStore();
    const server = createServer({
      name: "q",
      version: "1.0.0",
      secret: SECRET,
      resultStore: memory,
      queue,
      leaseMs: 150,
    })
      .tool(
        defineTool("report").input(v.object({ id: v.string() })).longRunning()
          .defer(async ({ id }, work) => {
            seen.runs++;
            work.signal.addEventListener("abort", () => aborted = true);
            await seen.gate;
            return `report ${id}`;
          }),
      );
    const token = tokenOf(await server.call("report", { id: "twice" }));
    const job = jobs[0];
    const worker = runWorker(server, { concurrency: 2 });
    try {
      await waitFor(() => seen.runs === 1, 5_000); // the first run
      stall(job); // its lock lapsed: delivered again as start 2
      const outcome = await redeemed(server, token);
      assert.deepEqual(outcome.kind === "failure" ? outcome.result.content : outcome, [{
        type: "text",
        text: "The instance running this job stopped before it finished",
      }]);
      await waitFor(() => aborted, 5_000); // the first run aborted once it read its entry
      open();
      assert.equal(seen.runs, 1);
    } finally {
      open();
      await worker.close();
    }
  });

  it("a worker notices a cancellation made on another instance by reading the entry of a job that runs a while", async () => {
    // No lease, no heartbeat: the worker (a server instance of its own) reads the entry of a job that has run a third of
    // leaseMs, as often, and aborts it once another instance ended it; it writes nothing meanwhile.
    const { queue } = memoryQueue();
    const memory = createMemoryResultStore();
    const writes: string[] = [];
    const store: ResultStore = {
      ...memory,
      set: (id, entry, ttlMs) => (writes.push(id), memory.set(id, entry, ttlMs)),
    };
    let aborted = false;
    let started = false;
    const server = () =>
      createServer({ name: "q", version: "1.0.0", secret: SECRET, resultStore: store, queue, leaseMs: 150 }).tool(
        defineTool("report").input(v.object({ id: v.string() })).longRunning().defer(({ id }, work) =>
          new Promise((resolve) => {
            started = true;
            work.signal.addEventListener("abort", () => (aborted = true, resolve(`report ${id}`)));
          })
        ),
      );
    const [web, elsewhere] = [server(), server()];
    const token = tokenOf(await web.call("report", { id: "c2" }));
    const worker = runWorker(elsewhere);
    try {
      await waitFor(() => started, 5_000); // the job started
      assert.equal(writes.length, 1, "the worker wrote nothing as it started");
      await web.call("redeem", { promise: token, cancel: true });
      await waitFor(() => aborted, 5_000); // the work's signal aborted
      assert.equal((await redeemed(web, token)).kind, "failure", "cancelled");
    } finally {
      await worker.close();
    }
  });

  it("never runs a job cancelled before a worker took it", async () => {
    const { queue } = memoryQueue();
    const seen: Seen = { runs: 0 };
    const { server } = queuedServer(queue, seen);
    const token = tokenOf(await server.call("report", { id: "c1" }));
    await server.call("redeem", { promise: token, cancel: true });
    // What the worker's run of each job it took resolved with: the cancelled job's, once taken, ends it.
    const ran: unknown[] = [];
    const taking = {
      ...queue,
      take:
        ((run, options) =>
          queue.take((...job) => run(...job).then((end) => (ran.push(end), end)), options)) as typeof queue.take,
    };
    const worker = runWorker(server, { queue: taking });
    try {
      await waitFor(() => ran.length === 1); // taken, and done with
      assert.equal(seen.runs, 0);
    } finally {
      await worker.close();
    }
  });

  it("takes a job cancelled before a worker took it out of a queue that can (remove): it is never delivered", async () => {
    const { queue, jobs } = memoryQueue({ removes: true });
    const seen: Seen = { runs: 0 };
    const { server } = queuedServer(queue, seen);
    const token = tokenOf(await server.call("report", { id: "c2" }));
    assert.equal(jobs.length, 1);
    await server.call("redeem", { promise: token, cancel: true });
    assert.equal(jobs.length, 0, "the cancelled job left its queue");
    const worker = runWorker(server);
    try {
      // About time: nothing is left to deliver, so nothing comes to wait for; a job delivered anyway would run by now.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(seen.runs, 0);
      assert.equal((await redeemed(server, token)).kind, "failure", "cancelled");
    } finally {
      await worker.close();
    }
  });

  it("runs a job's first delivery from a queue that removes cancelled jobs without reading its entry first", async () => {
    // The store's round trips are most of a queued job's cost beyond its queue's (bench/RESULTS.md, issue 85): a job
    // that a cancellation would have taken out of its queue needs no read to know it was not cancelled.
    const { queue } = memoryQueue({ removes: true });
    const seen: Seen = { runs: 0 };
    const { server } = queuedServer(queue, seen);
    const token = tokenOf(await server.call("report", { id: "r1" }));
    const id = seen.store![0].split(" ")[2];
    const worker = runWorker(server);
    try {
      const outcome = await redeemed(server, token);
      assert.deepEqual(outcome.kind === "answer" && outcome.result.content, [{ type: "text", text: "report r1" }]);
      assert.deepEqual(
        seen.atRun!.filter((what) => what === `get ${id}`),
        [],
        "the worker read nothing before the work",
      );
      assert.deepEqual(seen.store!.filter((what) => what.startsWith("set ")), [
        `set working ${id}`,
        `set completed ${id}`,
      ]);
    } finally {
      await worker.close();
    }
  });

  it("sends a job's progress on the queue handle its worker took it from (runWorker's own queue)", async () => {
    const { queue: shared } = memoryQueue();
    const sent: { on: string; id: string }[] = [];
    // Two handles on one queue, as two processes open: progress sent on each is told apart.
    const handle = (on: string): WorkQueue => ({
      ...shared,
      progress: (id) => void sent.push({ on, id }),
      watch: () => () => {},
    });
    const store = createMemoryResultStore();
    const server = createServer({
      name: "queued",
      version: "1.0.0",
      secret: SECRET,
      resultStore: store,
      queue: handle("web"),
    })
      .tool(
        defineTool("steps").describe("Two steps").longRunning().defer((_, work) => {
          work.progress(1, 2);
          work.progress(2, 2);
          return "stepped";
        }),
      );
    const token = tokenOf(await server.call("steps", {}));
    const worker = runWorker(server, { queue: handle("worker") });
    try {
      assert.equal((await redeemed(server, token)).kind, "answer");
      assert.deepEqual(sent.map(({ on }) => on), ["worker", "worker"]);
    } finally {
      await worker.close();
    }
  });

  it("runs inline work (ctx.defer(fn)) in process, never queued; a read on another instance finds its lapsed lease", async () => {
    const { queue, jobs } = memoryQueue();
    const shared = createMemoryResultStore();
    const dying = killable(shared);
    let release: (rows: number) => void = () => {};
    const hold = () => new Promise<number>((resolve) => release = resolve);
    const instance = (resultStore: ResultStore) =>
      createServer({ name: "queued", version: "1.0.0", secret: SECRET, resultStore, queue, leaseMs: 100 })
        .tool(defineTool("inline").describe("Inline work").longRunning().handle((_, ctx) => ctx.defer(hold)))
        .tool(
          // Inline work beside declared work, with retry: in process too, and not started again (its function
          // cannot travel; only the declared work's input does).
          defineTool("beside").describe("Inline work beside declared work").longRunning({ retry: { attempts: 2 } })
            .defer(() => 1).handle((_, ctx) => ctx.defer(hold)),
        );
    const [a, b] = [instance(dying.store), instance(shared)];
    const done = tokenOf(await a.call("inline", {}));
    release(3);
    const answered = await redeemed(b, done); // read on B, run on A
    assert.equal(answered.kind, "answer", JSON.stringify(answered));
    const tokens = [tokenOf(await a.call("inline", {})), tokenOf(await a.call("beside", {}))];
    for (const token of tokens) {
      assert.equal((await b.call("redeem", { promise: token })).kind, "promise"); // A holds its lease
    }
    dying.kill(); // A stops: nobody renews the leases
    for (const token of tokens) {
      let outcome: CallOutcome | undefined;
      await waitFor(async () => (outcome = await b.call("redeem", { promise: token })).kind !== "promise", 10_000);
      assert.equal(outcome?.kind, "failure");
      assert.match(JSON.stringify(outcome), /instance running this job stopped before it finished"/);
    }
    assert.deepEqual(jobs, [], "no job was queued: no worker could run it");
  });

  it("needs a result store its workers share, and runWorker() a server with a queue", () => {
    assert.throws(
      () => createServer({ name: "q", version: "1.0.0", queue: memoryQueue().queue }),
      /a queue needs a result store its workers share/,
    );
    assert.throws(() => runWorker(createServer({ name: "q", version: "1.0.0" })), /needs a server made with a queue/);
    assert.throws(
      () => runWorker(queuedServer(memoryQueue().queue, { runs: 0 }).server, { concurrency: 0 }),
      RangeError,
    );
  });
});

/** The queue of these tests, one per name: every handle of a name is that queue, as in one process. */
const memoryQueues = new Map<string, WorkQueue>();
describeWorkQueue("memory", (name) => memoryQueues.get(name) ?? memoryQueues.set(name, memoryQueue().queue).get(name)!);
const removing = new Map<string, WorkQueue>();
describeWorkQueue(
  "memory, with remove",
  (name) => removing.get(name) ?? removing.set(name, memoryQueue({ removes: true }).queue).get(name)!,
);
