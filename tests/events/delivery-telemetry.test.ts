/**
 * Webhook deliveries in OpenTelemetry, with the official SDK registered and `otel()` among the server's middleware:
 * each attempt a CLIENT span `deliver {event}` in the emit's trace, linked to the emit's span, with the attempt and
 * the status answered; the attempts counted by outcome and the suspensions counted.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { createTokenCodec } from "../../src/codec/token.ts";
import { createMemoryResultStore, createServer, runWorker } from "../../mod.ts";
import { attachDeliveries, deliver, Deliveries, writeSubscription } from "../../src/events/delivery/mod.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { otel } from "../../src/otel/mod.ts";
import { eventually, occurrence, storeWithSets, subscription } from "../helpers/delivery-fixtures.ts";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";
import { type Recorded, registerSdk } from "../otel/telemetry.ts";

describe("webhook deliveries with otel() among the server's middleware", () => {
  let recorded: Recorded;
  let receiver: Receiver;
  before(async () => {
    recorded = registerSdk();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await recorded.close();
  });

  it("makes a span per attempt in the emit's trace, and counts attempts by outcome and suspensions", async () => {
    receiver.answer({ status: 503 }, { status: 204 });
    const store = storeWithSets();
    const middleware = [otel()];
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: "delivery telemetry's secret, 32+ bytes" }),
      allowCallbacks: [receiver.origin],
      retryDelaysMs: [20],
      suspendAfter: 1,
      middleware: () => middleware,
    });
    try {
      const sub = subscription(`${receiver.origin}/hook`);
      await writeSubscription(store, sub, Date.now());
      const emit = await trace.getTracer("app").startActiveSpan("emit", async (span) => {
        await deliver(sub, occurrence(), deliveries);
        span.end();
        return span.spanContext();
      });
      const delivering = () => recorded.spans().filter((s) => s.name === "deliver order.shipped");
      await eventually(() => delivering().length === 2, "two attempts' spans");
      const [first, second] = delivering();
      for (const [span, attempt, status] of [[first, 1, 503], [second, 2, 204]] as const) {
        assert.equal(span.kind, SpanKind.CLIENT);
        assert.equal(span.spanContext().traceId, emit.traceId);
        assert.equal(span.parentSpanContext?.spanId, emit.spanId);
        assert.deepEqual(span.links.map((link) => link.context.spanId), [emit.spanId]);
        assert.equal(span.attributes["mcplite.event.name"], "order.shipped");
        assert.equal(span.attributes["mcplite.subscription.id"], sub.id);
        assert.equal(span.attributes["mcplite.event.delivery.attempt"], attempt);
        assert.equal(span.attributes["http.response.status_code"], status);
      }
      assert.equal(first.attributes["mcplite.event.delivery.outcome"], "retried");
      assert.equal(second.attributes["mcplite.event.delivery.outcome"], "delivered");

      receiver.answer({ status: 400 }); // failed for good at once; suspendAfter 1
      await deliver(sub, occurrence(), deliveries);
      await eventually(() => delivering().length === 3, "the third attempt's span");
      assert.equal(delivering()[2].status.code, SpanStatusCode.ERROR);
      const count = async (name: string) =>
        Object.fromEntries(
          (await recorded.histogram(name)).map((p) => [
            String(p.attributes["mcplite.event.delivery.outcome"] ?? "all"),
            p.value as unknown as number,
          ]),
        );
      await eventually(async () => (await count("mcplite.event.subscriptions.suspended")).all === 1, "suspended");
      assert.deepEqual(await count("mcplite.event.delivery.attempts"), { retried: 1, delivered: 1, failed: 1 });
    } finally {
      deliveries.close();
    }
  });

  it("makes a queued attempt's span a child of the worker's job span (process event:<name>), in the emit's trace", async () => {
    recorded.reset();
    receiver.answer({ status: 204 });
    const { queue } = memoryQueue();
    const results = createMemoryResultStore();
    const store = results.store!;
    const secret = "queued delivery telemetry's secret, 32+";
    const middleware = otel();
    const server = createServer({ name: "events", version: "1.0.0", secret, resultStore: results, queue }).use(
      middleware,
    );
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret }),
      queue,
      allowCallbacks: [receiver.origin],
      middleware: () => [middleware],
    });
    attachDeliveries(server, deliveries);
    const worker = runWorker(server);
    try {
      const sub = subscription(`${receiver.origin}/hook`);
      await writeSubscription(store, sub, Date.now());
      const emit = await trace.getTracer("app").startActiveSpan("emit", async (span) => {
        await deliver(sub, occurrence(), deliveries);
        span.end();
        return span.spanContext();
      });
      const find = (name: string) => recorded.spans().find((s) => s.name === name);
      await eventually(() => find("deliver order.shipped") !== undefined, "the attempt's span");
      await eventually(() => find("process event:order.shipped") !== undefined, "the job's span");
      const job = find("process event:order.shipped")!;
      const attempt = find("deliver order.shipped")!;
      assert.equal(job.kind, SpanKind.CONSUMER);
      assert.equal(job.spanContext().traceId, emit.traceId);
      assert.equal(attempt.parentSpanContext?.spanId, job.spanContext().spanId);
      assert.deepEqual(attempt.links.map((link) => link.context.spanId), [emit.spanId]);
      assert.equal(job.attributes["mcplite.job.outcome"], "completed");
    } finally {
      await worker.close();
      deliveries.close();
    }
  });
});
