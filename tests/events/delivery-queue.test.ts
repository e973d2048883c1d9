/**
 * Webhook delivery through the server's queue (src/events/delivery/delivery-job.ts): each delivery a job
 * `dlv:<subscriptionId>:<eventId>`, sealed, run by `runWorker()` as one attempt, a 503 given back as `{ delayMs }`
 * and delivered again with the same `webhook-id`; on the queue in memory of the tests and on BullMQ over a
 * redis-server the test starts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { createMemoryResultStore, createServer, runWorker } from "../../mod.ts";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { createTokenCodec } from "../../src/codec/token.ts";
import {
  attachDeliveries,
  deliver,
  Deliveries,
  readSubscription,
  writeSubscription,
} from "../../src/events/delivery/mod.ts";
import type { WorkQueue } from "../../src/types.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";
import { eventually, occurrence, subscription } from "../helpers/delivery-fixtures.ts";
import type { SharedStore } from "../../src/store/shared-store.ts";

const SECRET = "queued deliveries' token secret: 32+ bytes";

if (REDIS_MISSING) console.error(`queued deliveries on redis-server: skipped: ${REDIS_MISSING}`);
let redis: RedisServer | undefined;
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
  if (!REDIS_MISSING) redis = await startRedis();
});
after(async () => {
  await receiver.close();
  await redis?.stop();
});

const QUEUES: { on: string; missing: string | false; open(): WorkQueue & { close?(): Promise<void> } }[] = [
  { on: "memory", missing: false, open: () => memoryQueue().queue },
  {
    on: "BullMQ on redis-server",
    missing: REDIS_MISSING,
    open: () => bullmqQueue({ connection: redis!.url, name: `dlv-${crypto.randomUUID()}`, onError: () => {} }),
  },
];

for (const { on, missing, open } of QUEUES) {
  describe(`queued webhook delivery (${on})`, { skip: missing }, () => {
    /** A web side and a worker on one queue and store (one process here: the store is shared). */
    const setUp = (maxBytes?: number) => {
      const queue = open();
      const added: string[] = [];
      /** What each run of a job resolved with, in order: `"done"` drops the job for good. */
      const ran: unknown[] = [];
      const results = createMemoryResultStore();
      const store = results.store!;
      const errors: unknown[] = [];
      const server = createServer({ name: "events", version: "1.0.0", secret: SECRET, resultStore: results, queue });
      const deliveries = new Deliveries({
        store,
        codec: createTokenCodec({ secret: SECRET, maxBytes }),
        queue: { ...queue, add: (id, data, about) => (added.push(id), queue.add(id, data, about)) },
        allowCallbacks: [receiver.origin],
        retryDelaysMs: [200, 200],
        onError: (error) => errors.push(error),
      });
      attachDeliveries(server, deliveries);
      const worker = runWorker(server, {
        concurrency: 2,
        queue: {
          ...queue,
          take: (run, options) => queue.take((...job) => run(...job).then((end) => (ran.push(end), end)), options),
        },
      });
      return {
        store,
        deliveries,
        added,
        ran,
        errors,
        close: async () => {
          await worker.close();
          deliveries.close();
          await queue.close?.();
        },
      };
    };

    it("is delivered by a worker, a 503 retried after its backoff with the same webhook-id", async () => {
      receiver.received.length = 0;
      receiver.answer({ status: 503 }, { status: 204 });
      const { store, deliveries, added, ran, close } = setUp();
      try {
        const sub = subscription(`${receiver.origin}/hook`);
        await writeSubscription(store, sub, Date.now());
        const occ = occurrence();
        await deliver(sub, occ, deliveries);
        assert.deepEqual(added, [`dlv:${sub.id}:${occ.eventId}`]);
        await receiver.until(2);
        assert.deepEqual(receiver.received.map((r) => r.headers["webhook-id"]), [occ.eventId, occ.eventId]);
        for (const { body, headers } of receiver.received) {
          assert.deepEqual(new Webhook(sub.secrets[0]).verify(body, headers), occ);
        }
        const [first, second] = receiver.received.map((r) => Number(r.headers["webhook-timestamp"]));
        assert.ok(second >= first);
        // The occurrence is done with: its count is final, so a late duplicate of the job skips.
        await eventually(() => isFinal(store, `dlv:${sub.id}:${occ.eventId}`), "final");
        assert.equal((await readSubscription(store, sub.id))?.failures, 0);
        // Its job done with (the queue drops it for good): no third attempt.
        await eventually(() => ran.includes("done"), "the job done with");
        assert.deepEqual(ran, [{ delayMs: 200 }, "done"]);
        assert.equal(receiver.received.length, 2);
      } finally {
        await close();
      }
    });

    it("counts a delivery that failed for good against the subscription, and says so in one line", async () => {
      receiver.received.length = 0;
      receiver.answer({ status: 500 });
      const { store, deliveries, errors, close } = setUp();
      try {
        const sub = subscription(`${receiver.origin}/hook`);
        await writeSubscription(store, sub, Date.now());
        const occ = occurrence();
        await deliver(sub, occ, deliveries);
        await eventually(async () => (await readSubscription(store, sub.id))?.failures === 1, "one failure");
        assert.equal(receiver.received.length, 3, "the first attempt and two retries");
        // The server's reporter gets it once, naming the event, its occurrence, subscription, job and last attempt.
        await eventually(() => errors.length > 0, "reported");
        assert.deepEqual(errors.map(String), [
          `DeliveryError: event "${occ.name}" (event ${occ.eventId}, subscription ${sub.id}, ` +
          `callback ${new URL(receiver.origin).host}, ` +
          `job dlv:${sub.id}:${occ.eventId}, attempt 3) was not delivered, given up: HTTP 500`,
        ]);
      } finally {
        await close();
      }
    });

    it("keeps an occurrence too large for the job's token in the store", async () => {
      receiver.received.length = 0;
      receiver.answer({ status: 204 });
      const { store, deliveries, close } = setUp(2_048);
      try {
        const sub = subscription(`${receiver.origin}/hook`);
        await writeSubscription(store, sub, Date.now());
        const occ = { ...occurrence(), data: { note: "x".repeat(8_000) } };
        await deliver(sub, occ, deliveries);
        await receiver.until(1);
        assert.deepEqual(JSON.parse(receiver.received[0].body), occ);
      } finally {
        await close();
      }
    });
  });
}

describe("a queued delivery on a worker whose server serves no events", () => {
  it("is given back to the queue (delivered again later, for a worker that has them), with one warning", async () => {
    const { queue, rejections } = memoryQueue();
    const results = createMemoryResultStore();
    const store = results.store!;
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: unknown) => void warnings.push(String(m)), error() {} };
    const server = createServer({ name: "old", version: "1.0.0", secret: SECRET, resultStore: results, queue, logger });
    const deliveries = new Deliveries({ store, codec: createTokenCodec({ secret: SECRET }), queue });
    const worker = runWorker(server);
    try {
      const sub = subscription(`${receiver.origin}/hook`);
      await writeSubscription(store, sub, Date.now());
      await deliver(sub, occurrence(), deliveries);
      await eventually(() => rejections.length >= 2, "given back twice");
      assert.equal(warnings.filter((w) => w.includes(`a queued job of kind "dlv"`)).length, 1);
    } finally {
      await worker.close();
      deliveries.close();
    }
  });
});

describe("a queued delivery in flight as its worker shuts down", () => {
  it("is given back to the queue at once, its attempt not counted", async () => {
    const { queue, jobs } = memoryQueue();
    const results = createMemoryResultStore();
    const store = results.store!;
    let calls = 0;
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: SECRET }),
      queue,
      allowCallbacks: ["https://hooks.example.com"],
      fetch: (_url, init) => {
        calls++;
        return new Promise((_resolve, reject) =>
          init!.signal!.addEventListener("abort", () => reject(new Error("cut")))
        );
      },
    });
    const server = createServer({ name: "events", version: "1.0.0", secret: SECRET, resultStore: results, queue });
    attachDeliveries(server, deliveries);
    const worker = runWorker(server, { drainMs: 0 });
    try {
      const sub = subscription("https://hooks.example.com/in");
      await writeSubscription(store, sub, Date.now());
      const occ = occurrence();
      await deliver(sub, occ, deliveries);
      await eventually(() => calls === 1, "the attempt in flight");
      await worker.close();
      assert.equal(jobs.length, 1, "given back");
      const count = await store.get(`dlv:${sub.id}:${occ.eventId}`);
      assert.deepEqual(count, { n: 0 });
      assert.equal(await isFinal(store, `dlv:${sub.id}:${occ.eventId}`), false);
      assert.equal((await readSubscription(store, sub.id))?.failures, 0);
    } finally {
      await worker.close();
      deliveries.close();
    }
  });
});

/** Whether the record at `key` is final: a compare-and-set of it to itself is refused only then (it is there). */
async function isFinal(store: SharedStore, key: string): Promise<boolean> {
  const now = await store.get(key);
  return now !== undefined && !(await store.compareAndSet(key, now, now, 60_000));
}
