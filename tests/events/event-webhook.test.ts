/**
 * `eventWebhook()`, the receiver of MCP Events' webhook deliveries, with bodies signed by `standardwebhooks`' own
 * `Webhook.sign()`: a valid delivery, a wrong secret, a stale timestamp, a rotated secret, a duplicate `webhook-id`
 * (in memory and across two receivers sharing a store), 256 KiB + 1 streamed, the challenge, 503 when `onEvent`
 * throws (and the retry that follows), a capture replayed past what the receiver remembers, and the receiver mounted
 * on `node:http` with `nodeHandler()`.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { eventWebhook } from "../../src/events/receiver/event-webhook.ts";
import { createMemoryResultStore } from "../../src/jobs/result-store.ts";
import { nodeHandler } from "../../src/runtime/node/mod.ts";

const SECRET = `whsec_${btoa("0123456789abcdef0123456789abcdef")}`;
const OTHER = `whsec_${btoa("fedcba9876543210fedcba9876543210")}`;
const URL = "http://127.0.0.1/hook";

interface Signed {
  body?: string;
  id?: string;
  secrets?: string[];
  at?: Date;
  subscription?: string;
}

/** A delivery as the server sends it: signed with each secret (one `v1,` signature per secret). */
function delivery({ body, id = "evt_1", secrets = [SECRET], at = new Date(), subscription = "sub_a" }: Signed = {}) {
  const text = body ??
    JSON.stringify({ eventId: id, name: "order.shipped", timestamp: at.toISOString(), data: { orderId: "o1" } });
  return new Request(URL, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": secrets.map((s) => new Webhook(s).sign(id, at, text)).join(" "),
      "x-mcp-subscription-id": subscription,
    },
    body: text,
  });
}

function collecting(options: Partial<Parameters<typeof eventWebhook>[0]> = {}) {
  const events: unknown[] = [];
  const receive = eventWebhook({
    secret: SECRET,
    onEvent: ({ subscriptionId, event }) => void events.push({ subscriptionId, ...event }),
    ...options,
  });
  return { receive, events };
}

describe("eventWebhook()", () => {
  it("takes a delivery signed with the secret: onEvent runs, then 204", async () => {
    const { receive, events } = collecting();
    const response = await receive(delivery());
    assert.equal(response.status, 204);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0], {
      subscriptionId: "sub_a",
      eventId: "evt_1",
      name: "order.shipped",
      timestamp: (events[0] as { timestamp: string }).timestamp,
      data: { orderId: "o1" },
    });
  });

  it("refuses a wrong secret, a stale or future timestamp, and missing headers (401), running nothing", async () => {
    const { receive, events } = collecting();
    assert.equal((await receive(delivery({ secrets: [OTHER] }))).status, 401);
    assert.equal((await receive(delivery({ at: new Date(Date.now() - 6 * 60_000) }))).status, 401);
    assert.equal((await receive(delivery({ at: new Date(Date.now() + 6 * 60_000) }))).status, 401);
    const bare = delivery();
    const stripped = new Request(URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: bare.body,
    });
    assert.equal((await receive(stripped)).status, 401);
    assert.deepEqual(events, []);
  });

  it("takes either secret while one rotates (secrets), and dual signatures with one known", async () => {
    const { receive, events } = collecting({ secret: undefined, secrets: [OTHER, SECRET] });
    assert.equal((await receive(delivery({ id: "e1", secrets: [SECRET] }))).status, 204);
    assert.equal((await receive(delivery({ id: "e2", secrets: [OTHER] }))).status, 204);
    const third = `whsec_${btoa("a third secret nobody here knows")}`;
    assert.equal((await receive(delivery({ id: "e3", secrets: [third, SECRET] }))).status, 204);
    assert.equal(events.length, 3);
  });

  it("looks the secret up by subscription (secretFor): unknown subscriptions are refused", async () => {
    const { receive, events } = collecting({
      secret: undefined,
      secretFor: (id) => id === "sub_a" ? SECRET : id === "sub_b" ? [OTHER] : undefined,
    });
    assert.equal((await receive(delivery({ subscription: "sub_b", secrets: [OTHER] }))).status, 204);
    assert.equal((await receive(delivery({ subscription: "sub_a", secrets: [OTHER] }))).status, 401);
    assert.equal((await receive(delivery({ subscription: "sub_c" }))).status, 401);
    assert.equal(events.length, 1);
  });

  it("drops a duplicate webhook-id (204, onEvent once)", async () => {
    const { receive, events } = collecting();
    assert.equal((await receive(delivery())).status, 204);
    assert.equal((await receive(delivery())).status, 204);
    assert.equal(events.length, 1);
  });

  it("runs onEvent once for a captured delivery replayed with any other X-MCP-Subscription-Id (one secret)", async () => {
    // The header is outside what Standard Webhooks signs (webhook-id, webhook-timestamp, body): a replay within the
    // five minutes' tolerance carries the same signature under whatever subscription id the sender writes.
    const at = new Date();
    const store = createMemoryResultStore();
    for (const options of [{}, { store }]) {
      const { receive, events } = collecting(options);
      assert.equal((await receive(delivery({ at }))).status, 204);
      for (const subscription of ["sub_b", "sub_a ", "SUB_A", "sub_a.evt_1", crypto.randomUUID()]) {
        assert.equal((await receive(delivery({ at, subscription }))).status, 204, subscription);
      }
      assert.deepEqual(events.map((e) => (e as { subscriptionId: string }).subscriptionId), ["sub_a"]);
    }
  });

  it("runs onEvent once for a replay under another subscription that secretFor gives the same secret", async () => {
    const at = new Date();
    const { receive, events } = collecting({ secret: undefined, secretFor: () => SECRET });
    assert.equal((await receive(delivery({ at }))).status, 204);
    assert.equal((await receive(delivery({ at, subscription: "sub_b" }))).status, 204);
    assert.equal(events.length, 1);
  });

  it("proves the subscription with a secret of its own (secretFor): each runs, a replay under another is 401", async () => {
    const at = new Date();
    const { receive, events } = collecting({
      secret: undefined,
      secretFor: (id) => id === "sub_a" ? SECRET : id === "sub_b" ? OTHER : undefined,
    });
    // ChatGPT's profile: one occurrence to two subscriptions, one webhook-id (the eventId), each signed with its own.
    assert.equal((await receive(delivery({ at }))).status, 204);
    assert.equal((await receive(delivery({ at, subscription: "sub_b", secrets: [OTHER] }))).status, 204);
    assert.equal((await receive(delivery({ at, subscription: "sub_b" }))).status, 401); // sub_a's, replayed
    assert.deepEqual(events.map((e) => (e as { subscriptionId: string }).subscriptionId), ["sub_a", "sub_b"]);
  });

  it("proves the subscription by SEP-3415's signed webhook-id: each runs, a mismatching header is 400", async () => {
    const at = new Date();
    const { receive, events } = collecting();
    const body = JSON.stringify({ eventId: "evt_1", name: "n", timestamp: at.toISOString(), data: {} });
    const sep = (subscription: string, id = `${subscription}.evt_1`) => delivery({ at, body, id, subscription });
    assert.equal((await receive(sep("sub_a"))).status, 204);
    assert.equal((await receive(sep("sub_b"))).status, 204); // the same occurrence, another subscription
    assert.equal((await receive(sep("sub_c", "sub_a.evt_1"))).status, 400);
    assert.equal((await receive(sep("sub_a", "sub_a.evt_1"))).status, 204); // a duplicate, dropped
    assert.deepEqual(events.map((e) => (e as { subscriptionId: string }).subscriptionId), ["sub_a", "sub_b"]);
  });

  it("drops duplicates across receivers that share a store (the ResultStore contract)", async () => {
    const store = createMemoryResultStore();
    const one = collecting({ store });
    const two = collecting({ store });
    // SEP-3415's profile: the webhook-id is the subscription's id, a dot, and the eventId.
    const sep = (id: string) =>
      delivery({
        id,
        body: JSON.stringify({ eventId: "evt_9", name: "n", timestamp: new Date().toISOString(), data: {} }),
      });
    assert.equal((await one.receive(sep("sub_a.evt_9"))).status, 204);
    assert.equal((await two.receive(sep("sub_a.evt_9"))).status, 204);
    assert.equal(one.events.length + two.events.length, 1);
  });

  // Issue 101, item 7: a signature verifies five minutes either side of its timestamp, longer than a small memory
  // remembers a busy receiver's ids; what the memory let go of is refused, not run again.
  it("never runs a capture replayed past the in-memory ids (remember): 503, and the sender's re-signed retry runs once", async () => {
    const { receive, events } = collecting({ remember: 3 });
    const captured = new Date(Date.now() - 60_000); // four deliveries a minute ago; the first is let go of
    for (const id of ["evt_1", "evt_2", "evt_3", "evt_4"]) {
      assert.equal((await receive(delivery({ id, at: captured }))).status, 204, id);
    }
    const replayed = await receive(delivery({ id: "evt_1", at: captured })); // still within its five minutes
    assert.equal(replayed.status, 503);
    assert.equal(replayed.headers.get("retry-after"), "1");
    // A delivery signed no later than what was let go of may be a replay: refused so too, until signed anew.
    assert.equal((await receive(delivery({ id: "evt_5", at: captured }))).status, 503);
    assert.equal((await receive(delivery({ id: "evt_5" }))).status, 204); // the sender's retry: a fresh timestamp
    assert.equal((await receive(delivery({ id: "evt_5" }))).status, 204); // and a duplicate of it
    assert.deepEqual(events.map((e) => (e as { eventId: string }).eventId), [
      "evt_1",
      "evt_2",
      "evt_3",
      "evt_4",
      "evt_5",
    ]);
  });

  it("keeps a delivery id in a store for the ten minutes a capture verifies, whatever rememberMs says", async () => {
    let time = Date.now();
    const store = createMemoryResultStore({ now: () => time });
    const { receive, events } = collecting({ store, rememberMs: 1_000 });
    const at = new Date();
    assert.equal((await receive(delivery({ at }))).status, 204);
    time += 4 * 60_000; // the store's clock past rememberMs; the capture still verifies
    assert.equal((await receive(delivery({ at }))).status, 204);
    assert.equal(events.length, 1);
  });

  it("answers 503 when onEvent throws, and runs it again on the server's retry", async () => {
    let fail = true;
    const errors: unknown[] = [];
    const { receive, events } = collecting({
      onEvent: ({ event }) => {
        if (fail) throw new Error("database down");
        events.push(event);
      },
      onError: (error) => errors.push(error),
    });
    assert.equal((await receive(delivery())).status, 503);
    assert.match(String(errors[0]), /database down/);
    fail = false;
    assert.equal((await receive(delivery())).status, 204);
    assert.equal(events.length, 1);
  });

  it("answers the verification challenge with { challenge }, signed only", async () => {
    const { receive, events } = collecting();
    const body = JSON.stringify({ type: "verification", challenge: "ch_123" });
    const response = await receive(delivery({ id: "ver_1", body }));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { challenge: "ch_123" });
    assert.equal((await receive(delivery({ id: "ver_2", body, secrets: [OTHER] }))).status, 401);
    assert.deepEqual(events, []);
  });

  it("hands gap and terminated controls to their callbacks", async () => {
    const seen: unknown[] = [];
    const { receive } = collecting({
      onGap: ({ cursor }) => void seen.push(["gap", cursor]),
      onTerminated: ({ error }) => void seen.push(["terminated", error?.code]),
    });
    const gap = JSON.stringify({ type: "gap", cursor: "c7" });
    const end = JSON.stringify({ type: "terminated", error: { code: -32012, message: "revoked" } });
    assert.equal((await receive(delivery({ id: "m1", body: gap }))).status, 204);
    assert.equal((await receive(delivery({ id: "m2", body: end }))).status, 204);
    assert.deepEqual(seen, [["gap", "c7"], ["terminated", -32012]]);
  });

  it("refuses 256 KiB + 1 streamed without a length (413), other methods (405) and types (415)", async () => {
    const { receive, events } = collecting();
    const big = new Uint8Array(256 * 1024 + 1).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < big.length; at += 65_536) controller.enqueue(big.subarray(at, at + 65_536));
        controller.close();
      },
    });
    const streamed = new Request(URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    assert.equal((await receive(streamed)).status, 413);
    const get = await receive(new Request(URL));
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    const text = new Request(URL, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
    assert.equal((await receive(text)).status, 415);
    assert.deepEqual(events, []);
  });

  it("refuses a signed body that is not JSON, not an event, or whose eventId the webhook-id does not carry (400)", async () => {
    const { receive, events } = collecting();
    assert.equal((await receive(delivery({ body: "not json" }))).status, 400);
    assert.equal((await receive(delivery({ body: JSON.stringify({ eventId: "evt_1" }) }))).status, 400);
    const other = JSON.stringify({ eventId: "evt_2", name: "n", timestamp: new Date().toISOString(), data: {} });
    assert.equal((await receive(delivery({ id: "evt_1", body: other }))).status, 400);
    assert.deepEqual(events, []);
  });

  it("refuses to start without a secret, or with one that is not whsec_ base64", () => {
    assert.throws(() => eventWebhook({ onEvent: () => {} }), TypeError);
    assert.throws(() => eventWebhook({ secret: "hunter2", onEvent: () => {} }), TypeError);
  });

  it("serves from node:http through nodeHandler()", async () => {
    const { receive, events } = collecting();
    const http = createHttpServer(nodeHandler({ fetch: receive }));
    await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok));
    try {
      const { port } = http.address() as AddressInfo;
      const local = delivery();
      const response = await fetch(`http://127.0.0.1:${port}/hook`, {
        method: "POST",
        headers: local.headers,
        body: await local.text(),
      });
      assert.equal(response.status, 204);
      assert.equal(events.length, 1);
    } finally {
      await new Promise((done) => http.close(done));
    }
  });
});
