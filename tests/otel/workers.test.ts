/**
 * Workers in OpenTelemetry, with the official SDK registered: a queued job run by `runWorker()` (a queue in
 * memory) is a CONSUMER span in the trace of the call that queued it, parent of the handler's span on the
 * worker; the call's span records the enqueue; and the worker's metrics (jobs by outcome, their duration,
 * their lag, the jobs running) carry the outcome of a completed, a failed and a given-back job. The web
 * instance and the worker are two servers of one module, sharing the store and the queue, as deployed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import {
  type CallOutcome,
  createMemoryResultStore,
  createServer,
  defineTool,
  type ResultStore,
  runWorker,
} from "../../mod.ts";
import type { WorkQueue } from "../../src/types.ts";
import { otel } from "../../src/otel/mod.ts";
import { sleep } from "../../src/internal/sleep.ts";
import { waitFor } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { type Recorded, registerSdk } from "./telemetry.ts";

const SECRET = "workers in OpenTelemetry: thirty-two bytes or more";

/** Resolves when the `long` tool's work has started on the worker. */
let longStarted = () => {};

/** One instance of the server module: `report` answers, `broken` fails, `long` runs until its worker stops. */
function instance(store: ResultStore, queue: WorkQueue) {
  const tool = (name: string, work: (signal: AbortSignal) => Promise<string>) =>
    defineTool(name).describe(`The ${name} job`).input(v.object({ id: v.string() })).longRunning()
      .defer((_args, job) => work(job.signal));
  return createServer({ name: "queued", version: "1.0.0", secret: SECRET, resultStore: store, queue })
    .use(otel())
    .tool(tool("report", () => Promise.resolve("the report")))
    .tool(tool("broken", () => Promise.reject(new Error("the printer is on fire"))))
    .tool(tool("long", async (signal) => {
      longStarted();
      await sleep(60_000, signal);
      return "too late";
    }))
    .tool(
      defineTool("nap").describe("Sleeps 50 ms durably").input(v.object({ id: v.string() })).longRunning()
        .defer(async (_args, work) => {
          await work.sleep(50);
          return "rested";
        }),
    );
}

function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise", JSON.stringify(outcome));
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).token;
}

describe("runWorker() with otel() among the server's middleware", () => {
  let recorded: Recorded;
  before(() => recorded = registerSdk());
  after(async () => await recorded.close());

  /** The metric's points for one tool's jobs (cumulative over the file). */
  const points = async (name: string, tool: string) =>
    (await recorded.histogram(name)).filter((p) => p.attributes["gen_ai.tool.name"] === tool);
  /** The value of the jobs-consumed counter for one tool's jobs that ended so. */
  const consumed = async (tool: string, outcome: string) =>
    (await points("messaging.client.consumed.messages", tool)).find((p) =>
      p.attributes["mcplite.job.outcome"] === outcome
    )?.value as unknown as number | undefined;
  const running = async () =>
    (await recorded.histogram("mcplite.worker.jobs.running"))[0]?.value as unknown as number | undefined;
  const consumers = (tool: string) =>
    recorded.spans().filter((s) => s.kind === SpanKind.CONSUMER && s.name === `process ${tool}`);
  /** Runs a worker until it has run one job of `tool`, then closes it: that job's CONSUMER span. */
  const workedOnce = async (worker: ReturnType<typeof runWorker>, tool: string): Promise<ReadableSpan> => {
    try {
      await waitFor(() => consumers(tool).length === 1);
    } finally {
      await worker.close();
    }
    return consumers(tool)[0];
  };
  /** The call's SERVER span on the web instance: the one that recorded the enqueue. */
  const queuedBy = (tool: string): ReadableSpan => {
    const span = recorded.spans().find((s) =>
      s.name === `tools/call ${tool}` && s.events.some((e) => e.name === "mcplite.job.queued")
    );
    assert.ok(span, `the call of ${tool} recorded its enqueue`);
    return span;
  };

  it("spans a completed job in the trace of the call that queued it, and its declared work's span inside it", async () => {
    const store = createMemoryResultStore();
    const { queue } = memoryQueue();
    const web = instance(store, queue);
    tokenOf(await web.call("report", { id: "q3" }));
    const call = queuedBy("report");
    const queued = call.events.find((e) => e.name === "mcplite.job.queued")!;
    assert.equal(queued.attributes?.["messaging.operation.type"], "send");
    const id = queued.attributes?.["messaging.message.id"];
    assert.equal(typeof id, "string");

    const job = await workedOnce(runWorker(instance(store, queue)), "report");
    assert.equal(job.spanContext().traceId, call.spanContext().traceId, "one trace: the call and its job");
    assert.equal(job.parentSpanContext?.spanId, call.spanContext().spanId);
    assert.deepEqual(job.links.map((l) => l.context.spanId), [call.spanContext().spanId], "the creation context");
    assert.equal(job.attributes["messaging.system"], "mcplite");
    assert.equal(job.attributes["messaging.operation.type"], "process");
    assert.equal(job.attributes["messaging.operation.name"], "process");
    assert.equal(job.attributes["messaging.message.id"], id, "the same job id on both sides");
    assert.equal(job.attributes["gen_ai.tool.name"], "report");
    assert.equal(job.attributes["mcplite.job.outcome"], "completed");
    assert.equal(job.attributes["mcplite.job.attempt"], 1);
    assert.equal(job.status.code, SpanStatusCode.UNSET);
    // Only the declared work ran on the worker (no request middleware there): its span is the job's child.
    const work = recorded.spans().find((s) =>
      s.name === "work report" && s.parentSpanContext?.spanId === job.spanContext().spanId
    );
    assert.ok(work, "the worker's work span is a child of the job's span");
    assert.equal(work.spanContext().traceId, call.spanContext().traceId);
    assert.ok(!recorded.spans().some((s) => s.name === "tools/call report" && s !== call), "the handler ran once");

    assert.equal(await consumed("report", "completed"), 1);
    const [duration] = await points("messaging.process.duration", "report");
    assert.equal((duration.value as { count: number }).count, 1);
    assert.equal(duration.attributes["messaging.system"], "mcplite");
    assert.equal(duration.attributes["mcplite.job.outcome"], "completed");
    assert.equal(duration.attributes["error.type"], undefined);
    const [lag] = await points("mcplite.worker.job.lag", "report");
    assert.equal((lag.value as { count: number }).count, 1);
    assert.ok((lag.value as { min?: number }).min! >= 0);
    assert.equal(await running(), 0, "no job runs once the worker is idle");
  });

  it("ends the work span of a run that sleeps, without an error, and spans the run that wakes", async () => {
    const store = createMemoryResultStore();
    const { queue } = memoryQueue();
    const web = instance(store, queue);
    tokenOf(await web.call("nap", { id: "n1" }));
    const worker = runWorker(instance(store, queue));
    try {
      await waitFor(() => consumers("nap").some((s) => s.attributes["mcplite.job.outcome"] === "completed"));
    } finally {
      await worker.close();
    }
    const works = recorded.spans().filter((s) => s.name === "work nap");
    assert.equal(works.length, 2, "one work span per run: the one that slept, the one that woke");
    assert.deepEqual(works.map((s) => s.status.code), [SpanStatusCode.UNSET, SpanStatusCode.UNSET]);
  });

  it("marks a failed job's span and metrics with error.type tool_error", async () => {
    const store = createMemoryResultStore();
    const { queue } = memoryQueue();
    const web = instance(store, queue);
    tokenOf(await web.call("broken", { id: "b1" }));
    const call = queuedBy("broken");
    const job = await workedOnce(runWorker(instance(store, queue)), "broken");
    assert.equal(job.spanContext().traceId, call.spanContext().traceId);
    assert.equal(job.attributes["mcplite.job.outcome"], "failed");
    assert.equal(job.attributes["error.type"], "tool_error");
    assert.equal(job.status.code, SpanStatusCode.ERROR);
    assert.equal(await consumed("broken", "failed"), 1);
    const [duration] = await points("messaging.process.duration", "broken");
    assert.equal(duration.attributes["error.type"], "tool_error");
    assert.equal(duration.attributes["mcplite.job.outcome"], "failed");
  });

  it("records a job given back at close as 'again', the drain, and the next worker's run of it", async () => {
    const store = createMemoryResultStore();
    const { queue } = memoryQueue();
    const web = instance(store, queue);
    const token = tokenOf(await web.call("long", { id: "l1" }));
    const started = new Promise<void>((resolve) => longStarted = resolve);
    const first = runWorker(instance(store, queue), { drainMs: 0 });
    await started;
    assert.equal(await running(), 1, "one job runs now");
    await first.close(); // drainMs 0: the running job goes back to the queue at once
    await waitFor(() => consumers("long").length === 1);
    const [given] = consumers("long");
    assert.equal(given.attributes["mcplite.job.outcome"], "again");
    assert.equal(given.attributes["mcplite.job.attempt"], 1);
    assert.equal(given.status.code, SpanStatusCode.UNSET, "giving a job back is no failure");
    const drain = recorded.spans().filter((s) => s.name === "worker drain").at(-1); // this worker's
    assert.ok(drain, "the close is a drain span");
    assert.equal(drain.attributes["mcplite.worker.jobs.running"], 1);
    assert.equal(drain.attributes["mcplite.worker.jobs.given_back"], 1);
    assert.equal(await consumed("long", "again"), 1);
    assert.equal(await running(), 0);

    // The next worker runs it as the same first start (given back with it), in the same trace.
    const restarted = new Promise<void>((resolve) => longStarted = resolve);
    const second = runWorker(instance(store, queue), { drainMs: 0 });
    try {
      await restarted;
      assert.equal(await running(), 1);
      await web.call("redeem", { promise: token, cancel: true }); // its caller gives up: the run ends
      await waitFor(() => consumers("long").length === 2);
    } finally {
      await second.close();
    }
    const again = consumers("long")[1];
    assert.equal(again.spanContext().traceId, given.spanContext().traceId);
    assert.equal(again.attributes["mcplite.job.attempt"], 1, "a start given back is not counted");
    assert.equal(again.attributes["mcplite.job.outcome"], "cancelled");
    assert.equal(await consumed("long", "cancelled"), 1);
    assert.equal(await consumed("long", "again"), 1);
  });
});
