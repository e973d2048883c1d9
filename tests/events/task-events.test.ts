/**
 * Task events (issue 88, item 4; src/events/task-ends.ts): a long-running tool's `.longRunning({ endEvent })` event
 * reaches a webhook once when a call's work ends, with the id its caller holds: the MCP 2026-07-28 task id of a
 * task-augmented call, the promise token of an MCP-lite call. Completed, failed (thrown), cancelled (`tasks/cancel`);
 * work that ends at once (its end racing the caller's id) raises it once; on BullMQ over a redis-server and over
 * PostgreSQL (the halves meeting in the job's journal: a hash, a table), the worker that ran the work raises it. A tool
 * naming an event the server does not serve (or a server serving none) is refused, its work not run. On Node 22 too.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import {
  createMemoryResultStore,
  createServer,
  defineTool,
  type JournalEntry,
  type ResultStore,
  runWorker,
} from "../../mod.ts";
import { defineEvent, type TaskEnded } from "../../src/events/mod.ts";
import { killable } from "../helpers/instances.ts";
import { waitFor } from "../helpers/long-running.ts";
import { queueBackends } from "../helpers/queue-backends.ts";
import { queueAndStore } from "../helpers/queue-store.ts";
import { REDIS_MISSING } from "../helpers/redis-server.ts";
import { POSTGRES_MISSING } from "../helpers/postgres-server.ts";
import { modernMeta, modernRequest, post } from "../helpers/request.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { newSecret, type Received, type Receiver, startReceiver } from "./receiver.ts";

const SECRET = "task events' token secret: 32+ bytes";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** The end event of the tests' tools: its payload a `TaskEnded`. */
const taskEnded = defineEvent("report.ended")
  .describe("A report's work ended")
  .payload(v.object({
    taskId: v.string(),
    tool: v.string(),
    status: v.picklist(["completed", "failed", "cancelled"]),
    error: v.optional(v.string()),
  }));

/**
 * What the tests' work does: answers, throws, or waits for its signal (to be cancelled); with `hold`, only once the
 * test lets it go ({@link held}), so that its end surely comes after the caller got its id.
 */
type Plan = { readonly mode: "answer" | "throw" | "wait"; readonly hold?: string };

/** The gates of held work, by key: opened by the test, awaited by the work (in this process: web side or worker). */
const gates = new Map<string, PromiseWithResolvers<void>>();
const gate = (key: string) => gates.get(key) ?? gates.set(key, Promise.withResolvers<void>()).get(key)!;

/** The keys of held work that began, in this process. */
const begun = new Set<string>();

/** A key for work held until `release()`. */
function held(): { readonly hold: string; release(): void } {
  const hold = crypto.randomUUID();
  return { hold, release: () => gate(hold).resolve() };
}

function reportTool() {
  return defineTool("report")
    .input(v.object({ mode: v.picklist(["answer", "throw", "wait"]), hold: v.optional(v.string()) }))
    .longRunning({ endEvent: taskEnded })
    .defer(async ({ mode, hold }: Plan, work) => {
      if (hold !== undefined) begun.add(hold), await gate(hold).promise;
      if (mode === "throw") throw new Error("no data for this quarter");
      if (mode === "wait") {
        await new Promise((_, reject) => work.signal.addEventListener("abort", () => reject(work.signal.reason)));
      }
      return { rows: 3 };
    });
}

let receiver: Receiver;
const secrets: string[] = [newSecret()];
const servers = queueBackends("task events on BullMQ");
before(async () => {
  receiver = await startReceiver(() => secrets);
});
after(async () => {
  await receiver.close();
});

type AnyServer = { fetch(request: Request): Response | Promise<Response> };

/** Subscribes the receiver to the end event over MCP-lite's JSON-RPC endpoint; resolves once it is active. */
async function subscribe(server: AnyServer, name = "report.ended"): Promise<void> {
  const response = await server.fetch(post("/mcp-lite/v1/rpc", {
    jsonrpc: "2.0",
    id: 1,
    method: "events/subscribe",
    params: {
      name,
      arguments: {},
      delivery: { mode: "webhook", url: `${receiver.url}/hooks/${crypto.randomUUID()}`, secret: secrets[0] },
    },
  }));
  const body = await response.json();
  assert.match(body.result?.id ?? JSON.stringify(body), /^sub_/);
}

/** A task-augmented MCP 2026-07-28 call (the client declared the tasks extension): its task id. */
async function callAsTask(server: AnyServer, args: Record<string, unknown>, name = "report"): Promise<string> {
  const meta = modernMeta({ "io.modelcontextprotocol/clientCapabilities": TASKS });
  const response = await server.fetch(modernRequest("tools/call", { name, arguments: args, _meta: meta }));
  const { result } = await response.json();
  assert.equal(result?.resultType, "task", JSON.stringify(result));
  return result.taskId;
}

/** The end events of each of `taskIds`, once each has one (waits at most `ms`), and a moment more for any second one. */
async function endsOf(taskIds: readonly string[], ms = 20_000): Promise<Received[][]> {
  const of = (taskId: string) =>
    receiver.received.filter((r) => (r.body.data as TaskEnded | undefined)?.taskId === taskId);
  await receiver.until(() => taskIds.every((taskId) => of(taskId).length > 0), "an end event of every task", ms);
  // About time: that no second one comes is seen only over a while (each raise is its own delivery).
  await new Promise((resolve) => setTimeout(resolve, 300));
  return taskIds.map(of);
}

/** The one end event of each of `taskIds`, checked signed and raised once, under `name`. */
async function oneEndOf(...taskIds: string[]): Promise<TaskEnded[]> {
  return await oneEndNamed("report.ended", ...taskIds);
}

async function oneEndNamed(name: string, ...taskIds: string[]): Promise<TaskEnded[]> {
  return (await endsOf(taskIds)).map((ends) => {
    assert.equal(ends.length, 1, "raised once");
    assert.ok(ends[0].verified, "signed with the subscription's secret");
    assert.equal(ends[0].body.name, name);
    return ends[0].body.data as TaskEnded;
  });
}

/** The half of a job's end one side writes: the caller's (`taskId`, `tool`) or the end's (`status`). */
type Half = Partial<TaskEnded>;

/**
 * `store` with each write to its journal's meeting entry (`~task-end`, where the halves of a job's end meet: first writer
 * wins) passed through `meeting`, which makes the write (`append`) or not; the store's own in every other way.
 */
function meetingsThrough(
  store: ResultStore,
  meeting: (job: string, half: Half, append: () => Promise<JournalEntry>) => Promise<JournalEntry>,
): ResultStore {
  const journal = store.journalStore!;
  return Object.assign(Object.create(store), {
    journalStore: {
      load: (job: string) => journal.load(job),
      append: (job: string, entry: JournalEntry, ttlMs: number) =>
        entry.name === "~task-end"
          ? meeting(job, entry.value as Half, () => journal.append(job, entry, ttlMs))
          : journal.append(job, entry, ttlMs),
    },
  });
}

/** A server running the work in process, over `resultStore` (default: its own in memory). */
function inProcessServer(resultStore?: ResultStore, onError?: (error: unknown) => void) {
  return createServer({
    name: "reports",
    version: "1.0.0",
    secret: SECRET,
    resultStore,
    onError,
    events: { allowCallbacks: ["http://127.0.0.1"] },
  }).event(taskEnded).tool(reportTool());
}

describe("task events on the queue kept in the store", () => {
  it("are raised once, failed, for a job whose instance stopped, by the instance that ends it: nobody reads it", async () => {
    const shared = createMemoryResultStore();
    const dying = killable(shared);
    // Instances of one server (one name: one queue) sharing a store and no queue server, with short leases.
    const name = `reports-${crypto.randomUUID()}`;
    const instance = (resultStore: ResultStore) =>
      createServer({
        name,
        version: "1.0.0",
        secret: SECRET,
        resultStore,
        leaseMs: 300,
        events: { allowCallbacks: ["http://127.0.0.1"] },
      }).event(taskEnded).tool(reportTool());
    const a = instance(dying.store);
    await subscribe(a);
    const work = held();
    const taskId = await callAsTask(a, { mode: "answer", hold: work.hold });
    await waitFor(() => begun.has(work.hold)); // A took its job (no other instance serves yet)
    dying.kill(); // A stops: its claim is never renewed, nothing of it reaches the store
    const b = instance(shared);
    await b.fetch(new Request("http://127.0.0.1/health")); // B serves: it takes its share of the queue, and sweeps it
    const [ended] = await oneEndOf(taskId);
    assert.equal(ended.status, "failed");
    assert.match(ended.error ?? "", /instance running this job stopped before it finished/);
    work.release(); // too late: A's end reaches no store
  });
});

describe("task events, in process", () => {
  it("reach a webhook once with the MCP task id the caller holds: completed", async () => {
    const server = inProcessServer();
    await subscribe(server);
    const work = held();
    const taskId = await callAsTask(server, { mode: "answer", hold: work.hold });
    work.release();
    assert.deepEqual(await oneEndOf(taskId), [{ taskId, tool: "report", status: "completed" }]);
  });

  it("report a failed work as failed, with its error's message, and a cancelled one as cancelled", async () => {
    const server = inProcessServer();
    await subscribe(server);
    const work = held();
    const failing = await callAsTask(server, { mode: "throw", hold: work.hold });
    work.release();
    const [failed] = await oneEndOf(failing);
    assert.equal(failed.status, "failed");
    assert.match(failed.error ?? "", /no data for this quarter/);

    const waiting = await callAsTask(server, { mode: "wait" });
    const meta = modernMeta({ "io.modelcontextprotocol/clientCapabilities": TASKS });
    const cancelled = await server.fetch(modernRequest("tasks/cancel", { taskId: waiting, _meta: meta }));
    assert.equal(cancelled.status, 200);
    assert.deepEqual(await oneEndOf(waiting), [{ taskId: waiting, tool: "report", status: "cancelled" }]);
  });

  it("carry the promise token an MCP-lite caller got", async () => {
    const server = inProcessServer();
    await subscribe(server);
    const work = held();
    const response = await server.fetch(post("/mcp-lite/v1/calltools", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "report", arguments: { mode: "answer", hold: work.hold } },
    }));
    const { result } = await response.json();
    work.release();
    const token = result?._meta?.promise_token;
    assert.equal(typeof token, "string", JSON.stringify(result));
    assert.deepEqual(await oneEndOf(token), [{ taskId: token, tool: "report", status: "completed" }]);
  });

  it("are raised once whichever of the work's end and the caller's id comes first", async () => {
    // The store where the two halves meet orders them: for every other job the caller's half is written first, for
    // the others the end's (the second waits for the first to be written), so both orders are met, ten times each.
    const store = createMemoryResultStore();
    const firsts = { caller: 0, end: 0 };
    const orders = new Map<
      string,
      { readonly first: "caller" | "end"; readonly written: Promise<void>; open(): void }
    >();
    const racing = meetingsThrough(store, async (job, half, append) => {
      const kind = "taskId" in half ? "caller" : "end";
      let order = orders.get(job);
      if (order === undefined) {
        let open = () => {};
        const written = new Promise<void>((resolve) => open = resolve);
        order = { first: orders.size % 2 === 0 ? "caller" : "end", written, open };
        orders.set(job, order);
      }
      if (kind !== order.first) await order.written;
      const kept = await append();
      if (kind === order.first) order.open();
      if (("taskId" in (kept.value as Half)) === (kind === "caller")) firsts[kind]++; // its own half kept: the first
      return kept;
    });
    const server = inProcessServer(racing);
    await subscribe(server);
    // Work that ends at once, twenty calls.
    const ids = await Promise.all(Array.from({ length: 20 }, () => callAsTask(server, { mode: "answer" })));
    assert.deepEqual(await oneEndOf(...ids), ids.map((taskId) => ({ taskId, tool: "report", status: "completed" })));
    assert.deepEqual(firsts, { caller: 10, end: 10 }); // each order met, and each end raised once
  });

  it("are raised once when the store fails as the work's end meets the caller's id, a cancellation's too", async () => {
    // The store takes the work's final entry, then is out of reach for the end's half of the meeting (the outage
    // a store's restart makes between two writes), once per job: the event still comes, once each.
    const store = createMemoryResultStore();
    const failed = new Set<string>();
    const flaky = meetingsThrough(store, async (job, half, append) => {
      if (!("taskId" in half) && !failed.has(job)) {
        failed.add(job);
        throw new Error("connection lost");
      }
      return await append();
    });
    const server = inProcessServer(flaky, () => {}); // the outage, told once
    await subscribe(server);
    const quick = await callAsTask(server, { mode: "answer" }); // its end may come before the caller's id
    const work = held();
    const slow = await callAsTask(server, { mode: "answer", hold: work.hold }); // after it
    work.release();
    const waiting = await callAsTask(server, { mode: "wait" });
    const meta = modernMeta({ "io.modelcontextprotocol/clientCapabilities": TASKS });
    const cancelled = await server.fetch(modernRequest("tasks/cancel", { taskId: waiting, _meta: meta }));
    assert.equal(cancelled.status, 200, "the cancellation is answered at once");
    assert.deepEqual(await oneEndOf(quick, slow, waiting), [
      { taskId: quick, tool: "report", status: "completed" },
      { taskId: slow, tool: "report", status: "completed" },
      { taskId: waiting, tool: "report", status: "cancelled" },
    ]);
    assert.equal(failed.size, 3, "each end's meeting failed once");
  });

  it("of a grouped member's tool are raised by the member, under the name the group serves its event by", async () => {
    const group = createServer({
      name: "gateway",
      version: "1.0.0",
      secret: SECRET,
      events: { allowCallbacks: ["http://127.0.0.1"] },
    }).group("shop", inProcessServer());
    await subscribe(group, "shop.report.ended");
    const work = held();
    const taskId = await callAsTask(group, { mode: "answer", hold: work.hold }, "shop.report");
    work.release();
    assert.deepEqual(await oneEndNamed("shop.report.ended", taskId), [{
      taskId,
      tool: "shop.report",
      status: "completed",
    }]);
  });

  it("leave the call and its result alone when the end event's emit is refused, telling the server", async () => {
    // A payload schema that takes a TaskEnded's type but refuses its other keys as they are emitted.
    const strict = defineEvent("strict.ended").payload(v.strictObject({ taskId: v.string() }));
    const errors: unknown[] = [];
    const server = createServer({
      name: "reports",
      version: "1.0.0",
      secret: SECRET,
      onError: (error) => errors.push(error),
    }).event(strict).tool(
      defineTool("strict_report").longRunning({ endEvent: strict }).defer(() => Promise.resolve({ rows: 1 })),
    );
    const called = await server.call("strict_report", {});
    assert.equal(called.kind, "promise");
    await waitFor(() => errors.length > 0);
    assert.match(String(errors[0]), /payload does not match the event's schema/);
    if (called.kind === "promise") {
      assert.deepEqual((await server.call("redeem", { promise: called.token })).kind, "answer");
    }
  });

  it("refuse a call of a tool whose end event the server does not serve", async () => {
    const errors: unknown[] = [];
    const server = createServer({ name: "reports", version: "1.0.0", secret: SECRET, onError: (e) => errors.push(e) })
      .event(defineEvent("other.ended")).tool(reportTool());
    const outcome = await server.call("report", { mode: "wait" });
    assert.equal(outcome.kind, "failure"); // the server's own error, masked to the caller
    assert.match(String(errors[0]), /TypeError: tool "report": its endEvent "report\.ended" is not served/);
  });

  // A server serving no events at all, the tool its own or mounted through group(): refused under its served name.
  const noEvents = [
    { how: "on a server serving no events at all", served: "report", grouped: false },
    {
      how: "when the tool comes through group() onto a server serving no events",
      served: "reports.report",
      grouped: true,
    },
  ];
  for (const { how, served, grouped } of noEvents) {
    it(`refuse it ${how}, before its work runs`, async () => {
      const errors: unknown[] = [];
      let ran = 0;
      const tool = defineTool("report")
        .longRunning({ endEvent: taskEnded })
        .defer(() => ({ rows: ++ran }));
      const onError = (e: unknown) => void errors.push(e);
      // Work starts only once its job's entry is written as working (the server's start of deferred work): the ids of
      // those written, none of which may be.
      const store = createMemoryResultStore();
      const started: string[] = [];
      const resultStore: ResultStore = Object.assign(Object.create(store), {
        set: (id: string, entry: Parameters<ResultStore["set"]>[1], ttlMs: number) => {
          if (entry.status === "working") started.push(id);
          return store.set(id, entry, ttlMs);
        },
      });
      const own = createServer({ name: "reports", version: "1.0.0", secret: SECRET, onError, resultStore }).tool(tool);
      const app = createServer({ name: "app", version: "1.0.0", secret: SECRET, onError })
        .group("reports", createServer({ name: "reports", version: "1.0.0", secret: SECRET, resultStore }).tool(tool));
      const outcome = await (grouped ? app.call("reports.report", {}) : own.call("report", {}));
      assert.equal(outcome.kind, "failure"); // the server's own error, masked to the caller
      const named = served.replace(".", "\\.");
      assert.match(
        String(errors[0]),
        new RegExp(`TypeError: tool "${named}": its endEvent "report\\.ended" is not served`),
      );
      assert.deepEqual(started, [], "no job started, so none runs later in the background");
      assert.equal(ran, 0);
    });
  }
});

const backends = [
  { on: "a redis-server", missing: REDIS_MISSING, url: () => servers.redis!.url },
  { on: "PostgreSQL", missing: POSTGRES_MISSING, url: () => servers.postgres!.url },
];
for (const { on, missing, url } of backends) {
  describe(`task events on BullMQ over ${on}`, { skip: missing }, () => {
    it("are raised by the worker that ran the work, with the task id the caller holds", async () => {
      const name = `task-events-${crypto.randomUUID()}`;
      // One queue and one store for each instance, on the same backend: BullMQ's, and the results and journals beside it.
      const made = [0, 1].map(() => queueAndStore({ url: url(), queue: name, lockMs: 30_000 }));
      // Which instance wrote the second half of a job's end, and so raised its event.
      const raisedBy = new Map<string, string>();
      const storeOf = (instance: string, store: ResultStore): ResultStore =>
        meetingsThrough(store, async (job, half, append) => {
          const kept = await append();
          if (("taskId" in (kept.value as Half)) !== ("taskId" in half)) raisedBy.set(job, instance); // the second
          return kept;
        });
      // Two instances over one queue and one store: the web side takes calls, the other only runs workers.
      const [web, worker] = made.map(({ queue, resultStore }, i) =>
        createServer({
          name: "reports",
          version: "1.0.0",
          secret: SECRET,
          resultStore: storeOf(i === 0 ? "web" : "worker", resultStore),
          queue,
          events: { allowCallbacks: ["http://127.0.0.1"] },
        }).event(taskEnded).tool(reportTool())
      );
      const running = runWorker(worker, { concurrency: 2 });
      try {
        await subscribe(web);
        // Work that outlasts the call's answer: the caller's id is handed over first, so the worker, seeing the end,
        // raises it (the web side never sees the end).
        const work = held();
        const taskId = await callAsTask(web, { mode: "answer", hold: work.hold });
        const failing = await callAsTask(web, { mode: "throw", hold: work.hold });
        const quick = await callAsTask(web, { mode: "answer" }); // and one whose end may come first
        work.release();
        const [completed, failed, quickly] = await oneEndOf(taskId, failing, quick);
        assert.deepEqual(completed, { taskId, tool: "report", status: "completed" });
        assert.deepEqual(failed, {
          taskId: failing,
          tool: "report",
          status: "failed",
          error: "no data for this quarter",
        });
        assert.deepEqual(quickly, { taskId: quick, tool: "report", status: "completed" });
        const raisers = [...raisedBy.values()];
        assert.equal(raisers.length, 3);
        assert.ok(raisers.filter((by) => by === "worker").length >= 2, "the worker raised the end of the longer work");
      } finally {
        await running.close();
        for (const each of made) await each.close();
      }
    });
  });
}

describe("task events on Node 22", { skip: ONCE_PER_RUN }, () => {
  it("a task's end is kept in the event's log with the task id its caller got", async (t) => {
    const node = await node22();
    if (!node) return t.skip(NODE22_MISSING);
    const done = await run(node, [`${ROOT}tests/events/task-events-node.ts`], 60_000, ROOT);
    assert.equal(done.code, 0, done.stderr);
    const printed = JSON.parse(done.stdout);
    assert.match(printed.runtime, /^v22\./);
    assert.deepEqual(printed.events, [{ taskId: printed.taskId, tool: "report", status: "completed" }]);
  });
});
