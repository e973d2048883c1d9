/**
 * A tool's declared work (`.defer((input, work) => …)`): what a call starts, what a handler before it hands over
 * (`ctx.defer(input)`), what a server refuses where only declared work can run (a queue, `retry`), and the
 * middleware's `work` hook around it, in process and on a worker in this process.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
import type { CallContext, CallOutcome, JournalStore, Middleware } from "../../mod.ts";
import { journalStoreFromResults } from "../../src/jobs/result-store-journals.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";

type Caller = { call(name: string, args: unknown): Promise<CallOutcome> };

/** Redeems a promise until it ends (bounded), and gives its final outcome. */
async function ended(server: Caller, first: CallOutcome): Promise<CallOutcome> {
  assert.equal(first.kind, "promise", JSON.stringify(first));
  let outcome: CallOutcome = first;
  await waitFor(async () => {
    outcome = await server.call("redeem", { promise: (first as { token: string }).token });
    return outcome.kind !== "promise";
  });
  return outcome;
}

const textOf = (outcome: CallOutcome) =>
  outcome.kind === "answer" || outcome.kind === "failure"
    ? (outcome.result.content[0] as { text?: string } | undefined)?.text
    : undefined;

describe("declared work (.defer())", () => {
  it("answers each call with a promise whose job runs the work with the arguments, a handler first handing input", async () => {
    let handled = 0;
    const report = defineTool("report").describe("Reports").input(v.object({ id: v.string() }))
      .defer(({ id }, work) => `report ${id}, start ${work.attempt}, job ${work.jobId.length > 0}`);
    const approved = defineTool("approved").describe("Approves").input(v.object({ id: v.string() }))
      .defer((input: { id: string; by: string }) => `${input.id} approved by ${input.by}`)
      .handle(({ id }, ctx) => {
        handled++;
        return ctx.defer({ id, by: "ada" });
      });
    const server = createServer({ name: "s", version: "1", secret: SECRET }).tool(report).tool(approved);
    assert.equal(
      textOf(await ended(server, await server.call("report", { id: "q3" }))),
      "report q3, start 1, job true",
    );
    assert.equal(textOf(await ended(server, await server.call("approved", { id: "x" }))), "x approved by ada");
    assert.equal(handled, 1);
    assert.throws(() => defineTool("bad").defer("not a function" as never), /\.defer\(\) needs a function/);
  });

  it("refuses a .longRunning() tool that can only defer inline work with retry; with a queue, it serves it", () => {
    // With retry, the types refuse it too (tests/jobs/long-running-combinations.test-d.ts); the server refuses it for
    // code the types do not check. With a queue, its work runs in process (tests/bullmq/inline-work.test.ts).
    const inline = (retry?: { attempts: number }) =>
      defineTool("inline").describe("Defers inline").longRunning(retry && { retry })
        .handle((_, ctx) => (ctx as CallContext).defer(() => "done"));
    const queued = () =>
      createServer({
        name: "q",
        version: "1",
        secret: SECRET,
        resultStore: createMemoryResultStore(),
        queue: memoryQueue().queue,
      });
    const plain = () => createServer({ name: "p", version: "1", secret: SECRET });
    const message = /tool "inline": with retry, declare its work with \.defer\(\)/;
    assert.throws(() => plain().tool(inline({ attempts: 2 })), message);
    assert.throws(() => queued().tool(inline({ attempts: 2 })), message);
    plain().tool(inline()); // in process, at most once: inline work keeps working
    queued().tool(inline()); // with a queue too
    queued().tool(
      defineTool("promised").describe("Continues").handle((_, ctx) => ctx.promise({ state: 1 }))
        .redeem(() => "continued"),
    ); // a continuation needs no declared work
  });

  it("fails a call whose handler hands input to work the tool does not declare, or whose work answers a promise", async () => {
    const server = createServer({ name: "s", version: "1", secret: SECRET, logger: false })
      .tool(
        defineTool("undeclared").describe("No work").longRunning()
          .handle((_, ctx) => (ctx as CallContext).defer({ n: 1 })), // the types refuse it: code they do not check
      )
      .tool(
        defineTool("promising").describe("Promises").defer((_, work) =>
          (work as never as {
            promise(o: unknown): unknown;
          }).promise({ state: 1 })
        ),
      );
    const undeclared = await server.call("undeclared", {});
    assert.equal(undeclared.kind, "failure", JSON.stringify(undeclared));
    const promising = await ended(server, await server.call("promising", {}));
    assert.equal(promising.kind, "failure", JSON.stringify(promising));
  });

  it("refuses a sleep that would wake after the job's entry expired, failing the job with the advice", async () => {
    const napper = defineTool("napper").describe("Naps too long").longRunning({ ttlMs: 60_000 })
      .defer(async (_, work) => (await work.sleep(120_000), "woke"));
    const server = createServer({ name: "s", version: "1", secret: SECRET, logger: false }).tool(napper);
    const outcome = await ended(server, await server.call("napper", {}));
    assert.equal(outcome.kind, "failure", JSON.stringify(outcome));
    assert.match(textOf(outcome) ?? "", /the job expires first; give the tool a longer \.longRunning\(\{ ttlMs \}\)/);
  });

  it("waits a retry's backoff once per start on a queue, as a delay: not again when the job wakes from a sleep", async () => {
    const { queue, jobs, stall, delays } = memoryQueue();
    const tool = defineTool("retried").describe("Sleeps, retried").longRunning({
      retry: { attempts: 2, backoff: 300 },
    })
      .defer(async (_, work) => (await work.sleep(100), `start ${work.attempt}`));
    const server = createServer({
      name: "q",
      version: "1",
      secret: SECRET,
      resultStore: createMemoryResultStore(),
      queue,
    }).tool(tool);
    const first = await server.call("retried", {});
    stall(jobs.shift()!); // as if its first worker died: the next delivery is its second start
    const worker = runWorker(server);
    try {
      assert.equal(textOf(await ended(server, first)), "start 2");
      assert.equal(delays.length, 2, `the backoff, then the sleep: ${delays}`);
      assert.ok(delays[0] > 100 && delays[1] <= 100, `the backoff (300 ms) then the sleep (100 ms): ${delays}`);
    } finally {
      await worker.close();
    }
  });

  it("journals a step in one append on a job's first delivery, reading nothing first, and loads the journal once on later ones", async () => {
    const { queue, jobs, stall } = memoryQueue();
    const results = createMemoryResultStore();
    const journals = journalStoreFromResults(results);
    const touched: string[] = [];
    const journalStore: JournalStore = {
      load: (job) => (touched.push("load"), journals.load(job)),
      append: (job, entry, ttlMs) => (touched.push(`append ${entry.name}`), journals.append(job, entry, ttlMs)),
    };
    let runs = 0;
    const tool = defineTool("two").describe("Two steps").longRunning({ retry: { attempts: 2 } })
      .defer(async (_, work) => `${await work.step("a", () => ++runs)} ${await work.step("b", () => ++runs)}`);
    const server = createServer({ name: "q", version: "1", secret: SECRET, resultStore: results, journalStore, queue })
      .tool(tool);
    const once = await server.call("two", {});
    const worker = runWorker(server);
    try {
      assert.equal(textOf(await ended(server, once)), "1 2");
      assert.deepEqual(touched, ["append a", "append b"], "the first delivery reads no journal");
      touched.length = 0;
      await worker.close();
      const again = await server.call("two", {});
      stall(jobs.shift()!); // its first worker died before it ran: the next delivery is not its first
      const next = runWorker(server);
      assert.equal(textOf(await ended(server, again)), "3 4");
      assert.deepEqual(touched, ["load", "append a", "append b"], "a later delivery loads the journal, once");
      await next.close();
    } finally {
      await worker.close();
    }
  });

  it("hands a queued job back to its queue when the store is out of reach at a step, and resumes it: never a failure", async () => {
    const { queue, delays } = memoryQueue();
    // Journals in its entries (a store without a journal store of its own), where the outage is.
    const { journalStore: _journals, ...memory } = createMemoryResultStore();
    let outage = true;
    const store = {
      ...memory,
      set: (id: string, entry: Parameters<typeof memory.set>[1], ttlMs: number) => {
        if (outage && id.startsWith("step:")) {
          outage = false;
          return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
        }
        return memory.set(id, entry, ttlMs);
      },
    };
    let runs = 0;
    const tool = defineTool("stepped").describe("One step")
      .defer(async (_, work) => `ran ${await work.step("a", () => ++runs)} of ${runs}`);
    const server = createServer({ name: "q", version: "1", secret: SECRET, resultStore: store, queue, logger: false })
      .tool(tool);
    const worker = runWorker(server);
    try {
      const outcome = await ended(server, await server.call("stepped", {}));
      assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
      assert.equal(textOf(outcome), "ran 2 of 2", "its step ran again: at least once when its record was not written");
      assert.equal(delays.length, 1, "handed back to the queue once, for the store's wait");
    } finally {
      await worker.close();
    }
  });

  it("hands a queued job back at a store outage in a step even under a try/catch, which never sees it", async () => {
    const { queue, delays } = memoryQueue();
    // Journals in its entries (a store without a journal store of its own), where the outage is.
    const { journalStore: _journals, ...memory } = createMemoryResultStore();
    let outage = true;
    const store = {
      ...memory,
      set: (id: string, entry: Parameters<typeof memory.set>[1], ttlMs: number) => {
        if (outage && id.startsWith("step:")) {
          outage = false;
          return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
        }
        return memory.set(id, entry, ttlMs);
      },
    };
    let runs = 0;
    const caught: unknown[] = [];
    const tool = defineTool("guarded").describe("One step, in a try/catch that answers instead")
      .defer(async (_, work) => {
        try {
          return `ran ${await work.step("a", () => ++runs)} of ${runs}`;
        } catch (error) {
          caught.push(error);
          return "caught";
        }
      });
    const server = createServer({ name: "q", version: "1", secret: SECRET, resultStore: store, queue, logger: false })
      .tool(tool);
    const worker = runWorker(server);
    try {
      const outcome = await ended(server, await server.call("guarded", {}));
      assert.equal(textOf(outcome), "ran 2 of 2", JSON.stringify(outcome));
      assert.deepEqual(caught, [], "the work's catch saw the outage");
      assert.equal(delays.length, 1, "handed back to the queue once, for the store's wait");
    } finally {
      await worker.close();
    }
  });

  it("wraps each start of the work in the middleware's work hooks, outermost first, on a worker too", async () => {
    const seen: string[] = [];
    const hook = (name: string): Middleware =>
      Object.assign((_call: unknown, next: () => Promise<unknown>) => next(), {
        work: async (work: { tool: string; attempt: number }, next: () => Promise<unknown>) => {
          seen.push(`${name} in ${work.tool} ${work.attempt}`);
          const value = await next();
          seen.push(`${name} out`);
          return value;
        },
      });
    const tool = defineTool("job").describe("A job").defer(() => (seen.push("work"), "done"));
    const here = createServer({ name: "here", version: "1", secret: SECRET }).use(hook("a")).use(hook("b")).tool(tool);
    assert.equal(textOf(await ended(here, await here.call("job", {}))), "done");
    assert.deepEqual(seen, ["a in job 1", "b in job 1", "work", "b out", "a out"]);
    seen.length = 0;
    const queue = memoryQueue().queue;
    const store = createMemoryResultStore();
    const queued = createServer({ name: "queued", version: "1", secret: SECRET, resultStore: store, queue })
      .use(hook("a")).tool(tool);
    const worker = runWorker(queued);
    try {
      assert.equal(textOf(await ended(queued, await queued.call("job", {}))), "done");
      assert.deepEqual(seen, ["a in job 1", "work", "a out"]);
    } finally {
      await worker.close();
    }
  });
  it("runs inline work (ctx.defer(fn)) as the job declared work is: in the work hooks, retried when it throws", async () => {
    const seen: string[] = [];
    const hook: Middleware = Object.assign((_call: unknown, next: () => Promise<unknown>) => next(), {
      work: async (work: { tool: string; jobId: string }, next: () => Promise<unknown>) => {
        seen.push(`in ${work.tool}, job ${work.jobId.length > 0}`);
        return await next();
      },
    });
    let runs = 0;
    const inline = defineTool("inline").describe("Declares work, defers inline work")
      .longRunning({ retry: { attempts: 2 } })
      .defer(() => "declared")
      .handle((_, ctx) =>
        ctx.defer(() => {
          if (++runs === 1) throw new Error("a transient failure");
          return `ran ${runs} times`;
        })
      );
    const server = createServer({ name: "inline", version: "1", secret: SECRET }).use(hook).tool(inline);
    assert.equal(textOf(await ended(server, await server.call("inline", {}))), "ran 2 times");
    assert.deepEqual(seen, ["in inline, job true", "in inline, job true"]);
  });
});
