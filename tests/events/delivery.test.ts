/**
 * Webhook delivery in process (src/events/delivery/): Standard Webhooks signatures that `standardwebhooks`'
 * `Webhook.verify` accepts for every live secret, dual signatures during a rotation, the challenge, and how each
 * answer ends a delivery (2xx, 410, 413, 503 then 200, failures in a row suspending), against a receiver on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { createTokenCodec } from "../../src/codec/token.ts";
import {
  CallbackEndpointError,
  deliver,
  Deliveries,
  type DeliveryOptions,
  eventIndex,
  readSubscription,
  type Subscription,
  subscriptions,
  verifyCallback,
  writeSubscription,
} from "../../src/events/delivery/mod.ts";
import { type DeliveryOutcome, OBSERVES_DELIVERIES } from "../../src/events/delivery/delivery-observer.ts";
import { eventually, newSecret, occurrence, storeWithSets, subscription } from "../helpers/delivery-fixtures.ts";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

const SECRET = "delivery tests' token secret, 32+ bytes";

describe("webhook delivery in process", () => {
  let receiver: Receiver;
  let store: ReturnType<typeof storeWithSets>;
  let deliveries: Deliveries;
  /** What the server's reporter was told (onError). */
  const reported: string[] = [];
  /** How each attempt of the current deliveries ended, in order, as telemetry hears it (the delivery observer). */
  let outcomes: DeliveryOutcome[] = [];
  /** Waits until the occurrence is done with: an attempt ended in an outcome not followed by another attempt. */
  const ended = () => eventually(() => outcomes.some((outcome) => outcome !== "retried"), "the delivery's end");
  const open = (options: DeliveryOptions = {}) => {
    deliveries?.close();
    reported.length = 0;
    const heard: DeliveryOutcome[] = []; // an earlier test's attempts, ending late, are not heard here
    outcomes = heard;
    const observing = {
      [OBSERVES_DELIVERIES]: () => ({
        current: () => undefined,
        attempt: () => (end: { outcome: DeliveryOutcome }) => void heard.push(end.outcome),
        suspended: () => {},
      }),
    };
    deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: SECRET }),
      allowCallbacks: [receiver.origin],
      retryDelaysMs: [30, 30],
      onError: (error) => void reported.push(String(error)),
      middleware: () => [observing],
      ...options,
    });
    return deliveries;
  };
  const subscribed = async (overrides: Partial<Subscription> = {}) => {
    const sub = subscription(`${receiver.origin}/hook`, overrides);
    await writeSubscription(store, sub, Date.now());
    await eventIndex(store).addMember(sub.name, sub.id, 3_600_000);
    return sub;
  };

  before(async () => receiver = await startReceiver());
  after(async () => {
    deliveries?.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer({ status: 204 });
    store = storeWithSets();
    open();
  });

  it("signs per Standard Webhooks: Webhook.verify accepts it; webhook-id is the event id (chatgpt profile)", async () => {
    const sub = await subscribed();
    const occ = occurrence();
    await deliver(sub, occ, deliveries);
    await receiver.until(1);
    const [{ headers, body }] = receiver.received;
    assert.deepEqual(JSON.parse(body), occ);
    assert.equal(headers["webhook-id"], occ.eventId);
    assert.equal(headers["x-mcp-subscription-id"], sub.id);
    assert.equal(headers["content-type"], "application/json");
    assert.ok(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000) < 30);
    assert.deepEqual(new Webhook(sub.secrets[0]).verify(body, headers), occ);
    assert.throws(() => new Webhook(newSecret()).verify(body, headers), /No matching signature/);
  });

  it("carries the event's id as webhook-id on the SEP-3415 profile too", async () => {
    const sub = await subscribed({ profile: "sep" });
    const occ = occurrence();
    await deliver(sub, occ, deliveries);
    await receiver.until(1);
    // SEP-3415 "Signature scheme": "`webhook-id` is the `eventId` for event deliveries".
    assert.equal(receiver.received[0].headers["webhook-id"], occ.eventId);
    assert.equal(receiver.received[0].headers["x-mcp-subscription-id"], sub.id);
  });

  it("signs with both secrets during a rotation's grace, with the newest only after it", async () => {
    const [fresh, old] = [newSecret(), newSecret()];
    const rotating = await subscribed({ secrets: [fresh, old], previousUntil: Date.now() + 60_000 });
    await deliver(rotating, occurrence(), deliveries);
    await receiver.until(1);
    const first = receiver.received[0];
    assert.equal(first.headers["webhook-signature"].split(" ").length, 2);
    for (const secret of [fresh, old]) assert.ok(new Webhook(secret).verify(first.body, first.headers));
    const rotated = await subscribed({ secrets: [fresh, old], previousUntil: Date.now() - 1 });
    await deliver(rotated, occurrence(), deliveries);
    await receiver.until(2);
    const second = receiver.received[1];
    assert.equal(second.headers["webhook-signature"].split(" ").length, 1);
    assert.ok(new Webhook(fresh).verify(second.body, second.headers));
    assert.throws(() => new Webhook(old).verify(second.body, second.headers), /No matching signature/);
  });

  it("retries a 503, then a 200, with the same webhook-id, each attempt signed afresh", async () => {
    receiver.answer({ status: 503 }, { status: 200 });
    const sub = await subscribed();
    const occ = occurrence();
    await deliver(sub, occ, deliveries);
    await receiver.until(2);
    assert.deepEqual(receiver.received.map((r) => r.headers["webhook-id"]), [occ.eventId, occ.eventId]);
    for (const { body, headers } of receiver.received) assert.ok(new Webhook(sub.secrets[0]).verify(body, headers));
    await ended(); // delivered: the occurrence is done with, no third attempt follows
    assert.deepEqual(outcomes, ["retried", "delivered"]);
    assert.equal(receiver.received.length, 2);
    assert.equal((await readSubscription(store, sub.id))?.failures, 0);
  });

  it("honours Retry-After on a 429", async () => {
    receiver.answer({ status: 429, headers: { "retry-after": "0" } }, { status: 204 });
    open({ retryDelaysMs: [60_000] }); // the schedule alone would wait a minute
    const sub = await subscribed();
    await deliver(sub, occurrence(), deliveries);
    await receiver.until(2);
  });

  it("ends the subscription on 410: its entry deleted, its index member removed", async () => {
    receiver.answer({ status: 410 });
    const sub = await subscribed();
    await deliver(sub, occurrence(), deliveries);
    await eventually(async () => (await subscriptions(store).get(sub.id)) === undefined, "the entry deleted");
    assert.deepEqual(await eventIndex(store).members(sub.name), []);
    assert.equal(receiver.received.length, 1);
  });

  it("drops the occurrence on 413: no retry, the subscription as it was", async () => {
    receiver.answer({ status: 413 }, { status: 204 });
    const sub = await subscribed();
    await deliver(sub, occurrence(), deliveries);
    await receiver.until(1);
    await ended(); // dropped: the occurrence is done with, no retry follows
    assert.deepEqual(outcomes, ["dropped"]);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(await readSubscription(store, sub.id), sub);
  });

  it("suspends a subscription after suspendAfter deliveries failed for good in a row; a success resets the count", async () => {
    open({ retryDelaysMs: [10], suspendAfter: 2 });
    receiver.answer({ status: 500 });
    const sub = await subscribed();
    await deliver(sub, occurrence(), deliveries);
    await eventually(async () => (await readSubscription(store, sub.id))?.failures === 1, "one failure");
    assert.equal(receiver.received.length, 2, "two attempts: the first and one retry");
    assert.equal((await readSubscription(store, sub.id))?.status, "active");
    receiver.answer({ status: 204 });
    await deliver((await readSubscription(store, sub.id))!, occurrence(), deliveries);
    await eventually(async () => (await readSubscription(store, sub.id))?.failures === 0, "the count reset");
    receiver.answer({ status: 400 }); // no retry mends a 400: failed for good at once
    for (let i = 1; i <= 2; i++) {
      await deliver((await readSubscription(store, sub.id))!, occurrence(), deliveries);
      await eventually(async () => (await readSubscription(store, sub.id))?.failures === i, `${i} failures`);
    }
    assert.equal((await readSubscription(store, sub.id))?.status, "suspended");
    // One line for the operator as it is suspended: which subscription, event and callback host, and why.
    const host = new URL(receiver.origin).host;
    assert.deepEqual(reported.filter((line) => line.includes("suspended")), [
      `DeliveryError: subscription ${sub.id} to event "${sub.name}" (callback ${host}) was suspended: 2 deliveries ` +
      "in a row failed for good, the last: HTTP 400; no more is delivered to it until its subscriber subscribes again",
    ]);
  });

  it("counts failures two instances record at once, each once: suspendAfter of them suspend", async () => {
    // Two instances over one store, their subscription reads in step: each reads the record before either writes it,
    // as two processes may. A count read, changed and written lost one of the two (the subscription stayed active).
    const reads = [0, 0];
    const waiting: (() => void)[] = [];
    const inStep = (me: 0 | 1): typeof store => ({
      ...store,
      get: async (key: string) => {
        if (key.startsWith("evsub:")) {
          const mine = ++reads[me];
          // Waits for the other's read of the same round; bounded (1 s), as the other may read no more.
          if (reads[1 - me] < mine) await new Promise<void>((go) => (waiting.push(go), setTimeout(go, 1_000)));
          else for (const go of waiting.splice(0)) go();
        }
        return await store.get(key);
      },
    });
    const two = [0, 1].map((me) =>
      new Deliveries({
        store: inStep(me as 0 | 1),
        codec: createTokenCodec({ secret: SECRET }),
        allowCallbacks: [receiver.origin],
        retryDelaysMs: [],
        suspendAfter: 2,
        onError: () => {},
      })
    );
    try {
      receiver.answer({ status: 400 }); // failed for good at once
      const sub = await subscribed();
      await Promise.all(two.map((instance) => deliver(sub, occurrence(), instance)));
      await eventually(async () => (await readSubscription(store, sub.id))?.status === "suspended", "suspended");
      assert.equal((await readSubscription(store, sub.id))?.failures, 2);
    } finally {
      for (const instance of two) instance.close();
    }
  });

  it("refuses a body over 256 KiB before sending anything", async () => {
    const sub = await subscribed();
    await assert.rejects(deliver(sub, { ...occurrence(), data: "x".repeat(256 * 1024) }, deliveries), RangeError);
  });

  it("checks the callback again at delivery: a host now resolving to a private address suspends it, unsent", async () => {
    open({ lookup: () => Promise.resolve(["10.0.0.7"]) });
    const sub = await subscribed({ url: "https://hooks.example.com/in" });
    await deliver(sub, occurrence(), deliveries);
    await eventually(async () => (await readSubscription(store, sub.id))?.status === "suspended", "suspended");
    assert.equal(receiver.received.length, 0);
    assert.ok(
      reported.some((line) =>
        line.includes(`subscription ${sub.id} to event "${sub.name}" (callback hooks.example.com) was suspended: its`)
      ),
      reported.join("\n"),
    );
  });
});

describe("the verification challenge", () => {
  let receiver: Receiver;
  let deliveries: Deliveries;
  before(async () => {
    receiver = await startReceiver();
    deliveries = new Deliveries({
      store: storeWithSets(),
      codec: createTokenCodec({ secret: SECRET }),
      allowCallbacks: [receiver.origin],
      timeoutMs: 2_000,
    });
  });
  after(() => receiver.close());
  beforeEach(() => receiver.received.length = 0);
  const echo = (body: string) => JSON.stringify({ challenge: JSON.parse(body).challenge });

  it("passes when the callback echoes the signed challenge", async () => {
    receiver.answer({ status: 200, headers: { "content-type": "application/json" }, body: echo });
    const sub = subscription(`${receiver.origin}/hook`, { status: "pending" });
    await verifyCallback(sub, deliveries);
    const [{ body, headers }] = receiver.received;
    const sent = new Webhook(sub.secrets[0]).verify(body, headers) as { type: string; challenge: string };
    assert.equal(sent.type, "verification");
    assert.ok(sent.challenge.length >= 32);
    assert.equal(headers["x-mcp-subscription-id"], sub.id);
  });

  it("fails with -32015 naming the status when the callback answers an error", async () => {
    receiver.answer({ status: 500, body: "oops" });
    const failed = verifyCallback(subscription(`${receiver.origin}/hook`), deliveries);
    await assert.rejects(failed, (error) => {
      assert.ok(error instanceof CallbackEndpointError);
      assert.equal(error.rpcCode, -32015);
      assert.match(error.message, /answered 500/);
      return true;
    });
  });

  it("fails when the echo is wrong", async () => {
    receiver.answer({ status: 200, body: JSON.stringify({ challenge: "something else" }) });
    await assert.rejects(verifyCallback(subscription(`${receiver.origin}/hook`), deliveries), /without echoing/);
  });

  it("follows no redirect", async () => {
    receiver.answer({ status: 307, headers: { location: `${receiver.origin}/elsewhere` } }, {
      status: 200,
      body: echo,
    });
    await assert.rejects(verifyCallback(subscription(`${receiver.origin}/hook`), deliveries), /307 \(a redirect/);
    assert.deepEqual(receiver.received.map((r) => r.path), ["/hook"]);
  });
});

describe("attempts in flight and time limits", () => {
  const ORIGIN = "https://hooks.example.com";

  it("keeps attempts in flight to maxInFlight; the others wait for a slot", async () => {
    let running = 0;
    let most = 0;
    let answered = 0;
    const held: (() => void)[] = [];
    const stub: typeof fetch = async () => {
      most = Math.max(most, ++running);
      // Each answer waits for a second attempt in flight (or for being the last): attempts overlap however slow the
      // machine, where a fixed delay would let one end before the next began.
      if (running < 2 && answered + running < 6) await new Promise<void>((go) => held.push(go));
      else for (const go of held.splice(0)) go();
      running--;
      answered++;
      return new Response(null, { status: 204 });
    };
    const store = storeWithSets();
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: SECRET }),
      allowCallbacks: [ORIGIN],
      maxInFlight: 2,
      fetch: stub,
    });
    try {
      for (let i = 0; i < 6; i++) {
        const sub = subscription(`${ORIGIN}/in`);
        await writeSubscription(store, sub, Date.now());
        await deliver(sub, occurrence(), deliveries);
      }
      await eventually(() => answered === 6, "six delivered");
      assert.equal(most, 2);
    } finally {
      deliveries.close();
    }
  });

  it("retries an attempt that got no answer within timeoutMs", async () => {
    const calls: number[] = [];
    const stub: typeof fetch = (_url, init) => {
      calls.push(Date.now());
      if (calls.length > 1) return Promise.resolve(new Response(null, { status: 200 }));
      return new Promise((_resolve, reject) =>
        init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason))
      );
    };
    const store = storeWithSets();
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: SECRET }),
      allowCallbacks: [ORIGIN],
      timeoutMs: 50,
      retryDelaysMs: [10],
      fetch: stub,
    });
    try {
      const sub = subscription(`${ORIGIN}/in`);
      await writeSubscription(store, sub, Date.now());
      await deliver(sub, occurrence(), deliveries);
      await eventually(() => calls.length === 2, "a second attempt");
      assert.equal((await readSubscription(store, sub.id))?.failures, 0);
    } finally {
      deliveries.close();
    }
  });

  it("drops pending retries on close(), and waits no timer out", async () => {
    let calls = 0;
    const stub: typeof fetch = () => (calls++, Promise.resolve(new Response(null, { status: 503 })));
    const store = storeWithSets();
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: SECRET }),
      allowCallbacks: [ORIGIN],
      retryDelaysMs: [60_000],
      fetch: stub,
    });
    const sub = subscription(`${ORIGIN}/in`);
    await writeSubscription(store, sub, Date.now());
    // The backoff's wait, as the delivery awaits it: close() must end it at once, as not waited out.
    let backoff: Promise<boolean> | undefined;
    const wait = deliveries.wait.bind(deliveries);
    deliveries.wait = (ms) => backoff = wait(ms);
    await deliver(sub, occurrence(), deliveries);
    await eventually(() => calls === 1 && backoff !== undefined, "the first attempt, then its backoff");
    deliveries.close();
    assert.equal(await backoff, false, "the backoff cut short by close()");
    assert.equal(calls, 1);
    assert.equal((await readSubscription(store, sub.id))?.failures, 0, "not counted as failed for good");
  });
});

describe("a subscription whose secret cannot sign", () => {
  it("fails for good at once, sending nothing", async () => {
    let calls = 0;
    const store = storeWithSets();
    const deliveries = new Deliveries({
      store,
      codec: createTokenCodec({ secret: SECRET }),
      allowCallbacks: ["https://hooks.example.com"],
      fetch: () => (calls++, Promise.resolve(new Response(null, { status: 204 }))),
    });
    try {
      const sub = subscription("https://hooks.example.com/in", { secrets: ["whsec_not base64!"] });
      await writeSubscription(store, sub, Date.now());
      await deliver(sub, occurrence(), deliveries);
      await eventually(async () => (await readSubscription(store, sub.id))?.failures === 1, "one failure");
      assert.equal(calls, 0);
      await assert.rejects(verifyCallback(sub, deliveries), { code: "invalid_params" });
    } finally {
      deliveries.close();
    }
  });
});
