/**
 * MCP Events on the server (SEP-3415 "Events Extension"; ChatGPT's MCP Events): the capability in both profiles
 * (`capabilities.events` and `capabilities.extensions["io.modelcontextprotocol/events"]`) in `server/discover` and
 * `initialize`; `events/list`, `events/subscribe` and `events/unsubscribe` on MCP 2026-07-28, 2025-11-25 and
 * MCP-lite's JSON-RPC endpoint; the idempotent subscribe (one id per principal, callback, event and arguments), its
 * refusals (-32602, -32011…-32015), and `server.emit()` delivered to a receiver on 127.0.0.1 whose
 * `standardwebhooks` check passes, filtered by `match`, across two servers sharing one store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, type ResultStore } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { legacyRequest, modernMeta, modernRequest, post } from "../helpers/request.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { waitFor } from "../helpers/long-running.ts";
import { readUntil } from "../helpers/wait.ts";
import { newSecret, type Receiver, startReceiver } from "./receiver.ts";

const EXT = "io.modelcontextprotocol/events";
const SECRET = "an events test secret of at least 32 bytes!";

const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);
const pinged = defineEvent("ping");

/** The JSON-RPC message of an answer, JSON or one SSE event. */
async function message(response: Response): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const text = await response.text();
  const data = text.trimStart().startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data:"))!.slice(5);
  return JSON.parse(data);
}

const secrets: string[] = [];
let receiver: Receiver;
let store: ResultStore;
const serverOf = (options: Record<string, unknown> = {}) =>
  createServer({
    name: "shop",
    version: "1.0.0",
    secret: SECRET,
    resultStore: store,
    events: { allowCallbacks: [receiver.url] },
    ...options,
  }).event(shipped).event(pinged);

before(async () => {
  receiver = await startReceiver(() => secrets);
  store = createMemoryResultStore();
});
after(() => receiver.close());

/** The challenges the receiver took (each subscription's first POST). */
const challenges = () => receiver.received.filter((taken) => taken.body.type === "verification");

function subscribeParams(customerId: string, secret: string, path = "/hook", extra: Record<string, unknown> = {}) {
  if (!secrets.includes(secret)) secrets.push(secret);
  return {
    name: "order.shipped",
    arguments: { customerId },
    delivery: { mode: "webhook", url: `${receiver.url}${path}`, secret },
    cursor: null,
    ...extra,
  };
}

/**
 * A server with bearer auth, and a webhook subscription made on it over MCP 2026-07-28 by the caller "reader" for
 * `customerId`, its callback `/<customerId>` on the receiver: the server, the subscribe parameters, a JSON-RPC call
 * as that caller, and the subscription as first made.
 */
async function webhookSubscriber(customerId: string) {
  const server = serverOf({ auth: opaqueAuth() });
  const caps = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
  const params = { ...subscribeParams(customerId, newSecret(), `/${customerId}`), _meta: modernMeta(caps) };
  const rpc = async (method: string, body: Record<string, unknown>) =>
    await message(await server.fetch(modernRequest(method, body, 1, bearer("reader"))));
  const first = (await rpc("events/subscribe", params)).result;
  return { server, params, rpc, first };
}

describe("the events capability, in both profiles", () => {
  it("server/discover (2026-07-28) and initialize (2025-11-25) carry capabilities.events and the extension", async () => {
    const server = serverOf();
    const discovered = await message(await server.fetch(modernRequest("server/discover")));
    assert.deepEqual(discovered.result.capabilities.events, {});
    assert.deepEqual(discovered.result.capabilities.extensions[EXT], {});
    const initialized = await message(
      await server.fetch(legacyRequest("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      })),
    );
    assert.deepEqual(initialized.result.capabilities.events, {});
    assert.deepEqual(initialized.result.capabilities.extensions[EXT], {});
  });

  it("a server without events advertises neither", async () => {
    const plain = createServer({ name: "plain", version: "1.0.0" });
    const discovered = await message(await plain.fetch(modernRequest("server/discover")));
    assert.equal(discovered.result.capabilities.events, undefined);
    assert.equal(discovered.result.capabilities.extensions?.[EXT], undefined);
  });
});

describe("events/list", () => {
  const expected = {
    name: "order.shipped",
    description: "An order left the warehouse",
    delivery: ["webhook", "poll", "push"],
  };
  it("on MCP 2026-07-28, 2025-11-25 and MCP-lite: names, schemas and delivery modes", async () => {
    const server = serverOf();
    const answers = [
      await server.fetch(modernRequest("events/list")),
      await server.fetch(legacyRequest("events/list")),
      await server.fetch(post("/mcp-lite/v1/rpc", { jsonrpc: "2.0", id: 1, method: "events/list", params: {} })),
    ];
    for (const answer of answers) {
      const { result } = await message(answer);
      assert.deepEqual(result.events.map((e: { name: string }) => e.name), ["order.shipped", "ping"]);
      const [first] = result.events;
      assert.deepEqual({ name: first.name, description: first.description, delivery: first.delivery }, expected);
      assert.equal(first.inputSchema.properties.customerId.type, "string");
      assert.deepEqual(first.payloadSchema.required, ["orderId", "customerId"]);
    }
  });

  it("lists an event registered after a first list", async () => {
    const server = serverOf();
    await server.fetch(modernRequest("events/list"));
    server.event(defineEvent("late.arrival"));
    const { result } = await message(await server.fetch(modernRequest("events/list")));
    assert.deepEqual(result.events.map((e: { name: string }) => e.name), ["order.shipped", "ping", "late.arrival"]);
  });
});

describe("events/subscribe, emit and events/unsubscribe", () => {
  it("subscribes after the challenge, idempotently (one id), and delivers a signed, matched occurrence", async () => {
    const server = serverOf();
    const secret = newSecret();
    const before = receiver.received.length;
    const first = await message(await server.fetch(modernRequest("events/subscribe", subscribeParams("c1", secret))));
    assert.match(first.result.id, /^sub_[A-Za-z0-9_-]{43}$/);
    assert.ok(Date.parse(first.result.refreshBefore) > Date.now() + 23 * 3_600_000);
    assert.equal(typeof first.result.cursor, "string"); // where the occurrence log stands
    assert.equal(first.result.truncated, false);
    const challenge = receiver.received[before];
    assert.equal(challenge.body.type, "verification");
    assert.equal(challenge.verified, true);
    assert.equal(challenge.headers["x-mcp-subscription-id"], first.result.id);

    const again = await message(await server.fetch(modernRequest("events/subscribe", subscribeParams("c1", secret))));
    assert.equal(again.result.id, first.result.id);
    assert.equal(receiver.received.length, before + 1, "a refresh is not challenged again");

    const { eventId, deliveries } = await server.emit("order.shipped", { orderId: "o1", customerId: "c1" });
    assert.match(eventId, /^evt_/);
    assert.equal(deliveries, 1);
    const delivered = await receiver.delivered(eventId); // emit hands over; delivery runs in the background
    assert.equal(delivered.verified, true);
    assert.equal(delivered.headers["content-type"], "application/json");
    assert.equal(delivered.headers["webhook-id"], eventId); // the ChatGPT profile: the event's id
    assert.equal(delivered.headers["x-mcp-subscription-id"], first.result.id);
    assert.deepEqual(
      { ...delivered.body, timestamp: undefined },
      { eventId, name: "order.shipped", timestamp: undefined, data: { orderId: "o1", customerId: "c1" } },
    );
    assert.ok(!Number.isNaN(Date.parse(delivered.body.timestamp as string)));

    // match: another customer's order goes nowhere
    assert.equal((await server.emit("order.shipped", { orderId: "o2", customerId: "c2" })).deliveries, 0);
    // an idempotent emit keeps its id
    assert.equal(
      (await server.emit("order.shipped", { orderId: "o3", customerId: "c1" }, { id: "evt_x" })).eventId,
      "evt_x",
    );

    const gone = await message(
      await server.fetch(modernRequest("events/unsubscribe", {
        name: "order.shipped",
        arguments: { customerId: "c1" },
        delivery: { mode: "webhook", url: `${receiver.url}/hook` },
      })),
    );
    assert.equal(gone.error, undefined);
    assert.equal(gone.result.resultType, "complete");
    assert.equal((await server.emit("order.shipped", { orderId: "o4", customerId: "c1" })).deliveries, 0);
    const twice = await message(await server.fetch(modernRequest("events/unsubscribe", { id: first.result.id })));
    assert.equal(twice.error?.code, -32011);
  });

  // SEP-3415's `events/unsubscribe` names the subscription as `events/subscribe` did, its delivery by `{ url }` alone.
  for (const revision of ["2026-07-28", "2025-11-25"] as const) {
    it(`unsubscribes with SEP-3415's body (name, arguments, delivery: { url }, no mode) on MCP ${revision}`, async () => {
      const server = serverOf();
      const path = `/unsub-${revision}`;
      const request = (method: string, params: Record<string, unknown>) =>
        revision === "2026-07-28" ? modernRequest(method, params) : legacyRequest(method, params, 1, revision);
      const subscribed = await message(
        await server.fetch(request("events/subscribe", subscribeParams("u1", newSecret(), path))),
      );
      assert.match(subscribed.result.id, /^sub_/);
      const body = {
        name: "order.shipped",
        arguments: { customerId: "u1" },
        delivery: { url: `${receiver.url}${path}` },
      };
      const gone = await message(await server.fetch(request("events/unsubscribe", body)));
      assert.equal(gone.error, undefined, JSON.stringify(gone.error));
      assert.equal((await server.emit("order.shipped", { orderId: "u", customerId: "u1" })).deliveries, 0);
      // Another mode named is still refused: only webhooks are subscribed to.
      const push = { ...body, delivery: { mode: "push", url: `${receiver.url}${path}` } };
      assert.match(
        String((await message(await server.fetch(request("events/unsubscribe", push)))).error?.message),
        /Unsupported delivery mode/,
      );
    });
  }

  it("a client that declared the extension gets the SEP-3415 profile: webhook-id is the event's id", async () => {
    const server = serverOf({ auth: opaqueAuth() });
    const caps = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
    const params = { ...subscribeParams("sep", newSecret(), "/sep"), _meta: modernMeta(caps) };
    const { result } = await message(
      await server.fetch(modernRequest("events/subscribe", params, 1, bearer("reader"))),
    );
    assert.match(result.id, /^sub_/);
    // SEP-3415 "Signature scheme": "`webhook-id` is the `eventId` for event deliveries, and `msg_<type>_<random>` for
    // control envelopes" (the challenge, this receiver's first POST).
    assert.match(challenges().at(-1)!.headers["webhook-id"], /^msg_verification_[A-Za-z0-9_-]+$/);
    const { eventId } = await server.emit("order.shipped", { orderId: "o1", customerId: "sep" });
    const delivered = await receiver.delivered(eventId);
    assert.equal(delivered.headers["webhook-id"], eventId);
    assert.equal(delivered.headers["x-mcp-subscription-id"], result.id);
    assert.equal(delivered.verified, true);
  });

  it("on MCP 2025-11-25, a session whose initialize declared the extension gets the SEP-3415 profile", async () => {
    const server = serverOf({ auth: opaqueAuth() });
    const initialize = await server.fetch(legacyRequest(
      "initialize",
      {
        protocolVersion: "2025-11-25",
        capabilities: { extensions: { [EXT]: {} } },
        clientInfo: { name: "t", version: "0" },
      },
      1,
      "2025-11-25",
      bearer("reader"),
    ));
    const session = { "mcp-session-id": initialize.headers.get("mcp-session-id")!, ...bearer("reader") };
    await initialize.body?.cancel();
    const params = subscribeParams("sess", newSecret(), "/sess");
    const subscribed = await server.fetch(legacyRequest("events/subscribe", params, 2, "2025-11-25", session));
    assert.match((await message(subscribed)).result.id, /^sub_/);
    assert.match(challenges().at(-1)!.headers["webhook-id"], /^msg_verification_/);
  });

  it("SEP-3415: a delivery carries a watermark cursor, held before an occurrence still being delivered", async () => {
    const server = serverOf({ auth: opaqueAuth() });
    const caps = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
    const params = { ...subscribeParams("wm", newSecret(), "/wm"), _meta: modernMeta(caps) };
    const rpc = async (method: string, body: Record<string, unknown>) =>
      await message(await server.fetch(modernRequest(method, body, 1, bearer("reader"))));
    assert.match((await rpc("events/subscribe", params)).result.id, /^sub_/);
    const polledFrom = async (cursor: unknown) => {
      const { name, arguments: args, _meta } = params;
      const { result } = await rpc("events/poll", { name, arguments: args, cursor, _meta });
      return result.events.map((event: { data: { orderId: string } }) => event.data.orderId);
    };
    // w1's first attempt fails (500): it is retried a second later, and pending meanwhile.
    receiver.status = 500;
    let w1: string;
    try {
      w1 = (await server.emit("order.shipped", { orderId: "w1", customerId: "wm" })).eventId;
      await receiver.delivered(w1);
    } finally {
      receiver.status = 204;
    }
    const w2 = await receiver.delivered(
      (await server.emit("order.shipped", { orderId: "w2", customerId: "wm" })).eventId,
    );
    // SEP-3415 "Webhook event delivery": "`cursor` in the body is a safe-to-persist watermark: a position such that
    // every event at or before it has been acknowledged by the endpoint or abandoned by the server".
    assert.equal(typeof w2.body.cursor, "string");
    assert.deepEqual(await polledFrom(w2.body.cursor), ["w1", "w2"], "persisting w2's cursor skips nothing");
    // "[...] returns the same watermark in each subscribe or refresh response".
    assert.equal((await rpc("events/subscribe", params)).result.cursor, w2.body.cursor);
    // Once w1's retry is acknowledged, the next delivery's watermark is past everything delivered.
    await receiver.until(
      () => receiver.received.some((taken) => taken.body.eventId === w1 && taken.answered === 204),
      "w1 delivered on its retry",
      15_000,
    );
    const w3 = await receiver.delivered(
      (await server.emit("order.shipped", { orderId: "w3", customerId: "wm" })).eventId,
    );
    assert.deepEqual(await polledFrom(w3.body.cursor), [], "nothing left before w3's cursor");
  });

  // SEP-3415 "Subscription identity", `cursor` on an existing subscription: "If the subscription is live and the cursor
  // is at or behind the current in-flight position, this is a no-op. If the subscription has lapsed or the server
  // restarted, delivery starts or restarts from this position."
  it("SEP-3415: a live subscription's refresh with an earlier cursor sends nothing acknowledged again", async () => {
    const { server, params, rpc, first } = await webhookSubscriber("live");
    const emitted = async (orderId: string) =>
      (await server.emit("order.shipped", { orderId, customerId: "live" })).eventId;
    const times = (eventId: string) => receiver.received.filter((taken) => taken.body.eventId === eventId).length;
    const a1 = await emitted("a1");
    const a2 = await emitted("a2");
    await receiver.delivered(a1);
    await receiver.delivered(a2);
    // The receiver answered; the server notes each answer as its response comes back: until then a delivery is in
    // flight, and a refresh may send it again. Wait until nothing is (a refresh's watermark is then the log's head).
    const { name, arguments: args, _meta } = params;
    const inFlight = async () => {
      const { cursor } = (await rpc("events/subscribe", params)).result; // a refresh without a cursor
      return (await rpc("events/poll", { name, arguments: args, cursor, _meta })).result.events.length;
    };
    await readUntil(inFlight, (n) => n === 0, "a1 and a2 no longer in flight", { timeoutMs: 5_000, everyMs: 25 });
    // Both acknowledged: a refresh from before them is a no-op (before: both were sent again).
    const refreshed = (await rpc("events/subscribe", { ...params, cursor: first.cursor })).result;
    assert.equal(refreshed.id, first.id);
    assert.equal(typeof refreshed.cursor, "string");
    assert.deepEqual([times(a1), times(a2)], [1, 1]);
    // b1's first attempt fails: pending, it is sent again (from just before it, on the refresh, and by its retry), and
    // what was acknowledged before it is not.
    receiver.status = 500;
    let b1: string;
    try {
      b1 = await emitted("b1");
      await receiver.delivered(b1);
    } finally {
      receiver.status = 204;
    }
    await rpc("events/subscribe", { ...params, cursor: first.cursor });
    await receiver.until(() => times(b1) >= 2, "b1 sent again", 15_000);
    assert.deepEqual([times(a1), times(a2)], [1, 1], "what was acknowledged is not sent again");
  });

  it("SEP-3415: a subscription made again after an unsubscribe starts with nothing pending holding its cursor back", async () => {
    const { server, params, rpc, first } = await webhookSubscriber("again");
    // x1's first attempt fails: pending when the subscription ends.
    receiver.status = 500;
    try {
      await receiver.delivered((await server.emit("order.shipped", { orderId: "x1", customerId: "again" })).eventId);
    } finally {
      receiver.status = 204;
    }
    const { name, arguments: args, delivery, _meta } = params;
    const ended = await rpc("events/unsubscribe", { name, arguments: args, delivery: { url: delivery.url }, _meta });
    assert.equal(ended.error, undefined);
    const again = (await rpc("events/subscribe", params)).result;
    assert.equal(again.id, first.id, "the same key, the same id");
    // The new subscription's cursor is the log's head: x1, pending for the old one, holds it back no more.
    const polled = await rpc("events/poll", { name, arguments: args, cursor: again.cursor, _meta });
    assert.deepEqual(polled.result.events, []);
  });

  // SEP-3415 "Subscription identity": "`events/subscribe` and `events/unsubscribe` MUST be called with an
  // authenticated principal. Servers MUST reject calls without an authorized principal with `Forbidden`. [...]
  // Unauthenticated MCP servers may offer poll and push, but not webhook."
  it("SEP-3415: an unauthenticated webhook subscribe and unsubscribe are Forbidden (-32024), poll stays open", async () => {
    const server = serverOf();
    const caps = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } };
    const params = { ...subscribeParams("anon", newSecret(), "/anon"), _meta: modernMeta(caps) };
    const challenged = challenges().length;
    const subscribed = await message(await server.fetch(modernRequest("events/subscribe", params)));
    assert.equal(subscribed.error?.code, -32024);
    assert.match(subscribed.error!.message, /^Forbidden/);
    assert.equal(challenges().length, challenged, "nothing was sent to the callback");
    const { name, arguments: args, delivery, _meta } = params;
    const unsubscribe = { name, arguments: args, delivery: { url: delivery.url }, _meta };
    assert.equal(
      (await message(await server.fetch(modernRequest("events/unsubscribe", unsubscribe)))).error?.code,
      -32024,
    );
    // On MCP 2025-11-25, a session that declared the extension alike.
    const initialize = await server.fetch(legacyRequest("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { extensions: { [EXT]: {} } },
      clientInfo: { name: "t", version: "0" },
    }));
    const session = { "mcp-session-id": initialize.headers.get("mcp-session-id")! };
    await initialize.body?.cancel();
    const legacy = await server.fetch(
      legacyRequest("events/subscribe", subscribeParams("anon", newSecret(), "/anon"), 2, "2025-11-25", session),
    );
    assert.equal((await message(legacy)).error?.code, -32024);
    // Poll is open to the same caller.
    const poll = { name, arguments: args, cursor: null, _meta };
    assert.equal(
      typeof (await message(await server.fetch(modernRequest("events/poll", poll)))).result?.cursor,
      "string",
    );
  });

  it("on MCP 2025-11-25 and MCP-lite too", async () => {
    const server = serverOf();
    const legacy = await message(
      await server.fetch(legacyRequest("events/subscribe", subscribeParams("l1", newSecret(), "/l"))),
    );
    assert.match(legacy.result.id, /^sub_/);
    const rpc = { jsonrpc: "2.0", id: 1, method: "events/subscribe", params: subscribeParams("l2", newSecret(), "/l") };
    const lite = await message(await server.fetch(post("/mcp-lite/v1/rpc", rpc)));
    assert.match(lite.result.id, /^sub_/);
    assert.notEqual(lite.result.id, legacy.result.id);
    assert.equal((await server.emit("order.shipped", { orderId: "o", customerId: "l2" })).deliveries, 1);
  });

  it("a new secret rotates: the delivery carries both signatures while the old one is in its grace", async () => {
    const server = serverOf();
    const [old, fresh] = [newSecret(), newSecret()];
    await server.fetch(modernRequest("events/subscribe", subscribeParams("rot", old, "/rot")));
    await server.fetch(modernRequest("events/subscribe", subscribeParams("rot", fresh, "/rot")));
    const { eventId } = await server.emit("order.shipped", { orderId: "o", customerId: "rot" });
    const signatures = (await receiver.delivered(eventId)).headers["webhook-signature"].split(" ");
    assert.equal(signatures.length, 2);
    assert.ok(signatures.every((s) => s.startsWith("v1,")));
  });

  it("a retry waiting when the subscription ends is not delivered to the subscription made again (another life)", async () => {
    const server = serverOf({ events: { allowCallbacks: [receiver.url], retryDelaysMs: [200, 200] } });
    const params = subscribeParams("life", newSecret(), "/life");
    const first = await message(await server.fetch(modernRequest("events/subscribe", params)));
    receiver.status = 503;
    try {
      const old = await server.emit("order.shipped", { orderId: "old", customerId: "life" });
      await receiver.delivered(old.eventId); // its first attempt, answered 503: a retry waits 200 ms
      await server.fetch(modernRequest("events/unsubscribe", { id: first.result.id }));
      const again = await message(await server.fetch(modernRequest("events/subscribe", params)));
      assert.equal(again.result.id, first.result.id, "the same key, the same id");
      receiver.status = 204;
      const fresh = await server.emit("order.shipped", { orderId: "new", customerId: "life" });
      await receiver.delivered(fresh.eventId);
      // About time: the old occurrence's retries were due 200 and 400 ms after its first attempt; none may come.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const attempts = receiver.received.filter((r) => r.body.eventId === old.eventId);
      assert.equal(attempts.length, 1, "the old occurrence's retry stopped when its subscription ended");
    } finally {
      receiver.status = 204;
    }
  });

  it("two servers on one store: subscribed on A, emitted on B", async () => {
    const shared = createMemoryResultStore();
    const a = serverOf({ resultStore: shared });
    const b = serverOf({ resultStore: shared });
    const { result } = await message(
      await a.fetch(modernRequest("events/subscribe", subscribeParams("ab", newSecret(), "/ab"))),
    );
    const emitted = await b.emit("order.shipped", { orderId: "o", customerId: "ab" });
    assert.equal(emitted.deliveries, 1);
    assert.equal((await receiver.delivered(emitted.eventId)).headers["x-mcp-subscription-id"], result.id);
    assert.equal((await serverOf({ resultStore: createMemoryResultStore() }).emit("ping", {})).deliveries, 0);
  });

  it("a suspended subscription is challenged again when re-subscribed: refused while its callback fails it", async () => {
    const server = serverOf({ events: { allowCallbacks: [receiver.url], suspendAfter: 1, retryDelaysMs: [] } });
    const params = subscribeParams("susp", newSecret(), "/susp");
    const first = await message(await server.fetch(modernRequest("events/subscribe", params)));
    receiver.status = 500; // the one attempt fails for good: suspended (suspendAfter 1)
    try {
      const { eventId } = await server.emit("order.shipped", { orderId: "o", customerId: "susp" });
      await receiver.delivered(eventId);
      // Emits until one reaches no subscription: suspended, once its attempt's end was recorded.
      await waitFor(
        async () => (await server.emit("order.shipped", { orderId: "o", customerId: "susp" })).deliveries === 0,
        10_000,
      );
    } finally {
      receiver.status = 204;
    }
    receiver.echo = false;
    try {
      const refused = await message(await server.fetch(modernRequest("events/subscribe", params)));
      assert.equal(refused.error?.code, -32015, JSON.stringify(refused));
    } finally {
      receiver.echo = true;
    }
    assert.equal((await server.emit("order.shipped", { orderId: "o", customerId: "susp" })).deliveries, 0);
    const again = await message(await server.fetch(modernRequest("events/subscribe", params)));
    assert.equal(again.result.id, first.result.id);
    assert.equal((await server.emit("order.shipped", { orderId: "o", customerId: "susp" })).deliveries, 1);
  });

  it("the caller is the principal: the same subscription by two callers is two, each unsubscribing its own", async () => {
    const server = serverOf({ auth: opaqueAuth() });
    const params = subscribeParams("p", newSecret(), "/p");
    const reader = await message(await server.fetch(modernRequest("events/subscribe", params, 1, bearer("reader"))));
    const admin = await message(await server.fetch(modernRequest("events/subscribe", params, 1, bearer("admin"))));
    assert.notEqual(reader.result.id, admin.result.id);
    const stolen = await message(
      await server.fetch(modernRequest("events/unsubscribe", { id: admin.result.id }, 1, bearer("reader"))),
    );
    assert.equal(stolen.error?.code, -32011);
  });
});

describe("refusals (SEP-3415 codes)", () => {
  const refused = async (params: Record<string, unknown>, options: Record<string, unknown> = {}) =>
    (await message(await serverOf(options).fetch(modernRequest("events/subscribe", params)))).error?.code;

  it("-32602: arguments that fail the input schema, a bad secret, a bad ttlMs", async () => {
    assert.equal(await refused({ ...subscribeParams("x", newSecret()), arguments: { customerId: 1 } }), -32602);
    assert.equal(await refused(subscribeParams("x", "not-a-secret")), -32602);
    assert.equal(await refused({ ...subscribeParams("x", newSecret()), ttlMs: -1 }), -32602);
  });
  it("-32011: an unknown event", async () => {
    assert.equal(await refused({ ...subscribeParams("x", newSecret()), name: "order.lost" }), -32011);
  });
  it("-32012: a callback that is not allowed (http, private)", async () => {
    const params = subscribeParams("x", newSecret());
    assert.equal(await refused(params, { events: {} }), -32012);
    const delivery = { mode: "webhook", url: "https://10.0.0.1/hook", secret: newSecret() };
    assert.equal(await refused({ ...params, delivery }), -32012);
  });
  it("to a client of SEP-3415's profile: -32602 for a callback that is not https, -32024 for a private one", async () => {
    const sep = { _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } }) };
    const params = { ...subscribeParams("x", newSecret()), ...sep };
    const authed = async (params: Record<string, unknown>, options: Record<string, unknown> = {}) => {
      const server = serverOf({ auth: opaqueAuth(), ...options });
      return (await message(await server.fetch(modernRequest("events/subscribe", params, 1, bearer("reader"))))).error
        ?.code;
    };
    // SEP-3415: a callback URL that is not https is refused with InvalidParams (an allow-listed one is taken).
    assert.equal(await authed(params, { events: {} }), -32602);
    const delivery = { mode: "webhook", url: "https://10.0.0.1/hook", secret: newSecret() };
    assert.equal(await authed({ ...params, delivery }), -32024);
  });
  it("-32602: a secret whose key is shorter than 24 bytes or longer than 64 (SEP-3415, Standard Webhooks)", async () => {
    const secretOf = (bytes: number) => `whsec_${btoa(String.fromCharCode(...new Uint8Array(bytes).fill(7)))}`;
    for (const bytes of [23, 65, 100]) {
      assert.equal(await refused(subscribeParams("x", secretOf(bytes))), -32602, `${bytes}`);
    }
    for (const bytes of [24, 64]) {
      const { result, error } = await message(
        await serverOf().fetch(modernRequest("events/subscribe", subscribeParams(`k${bytes}`, secretOf(bytes)))),
      );
      assert.match(result?.id ?? JSON.stringify(error), /^sub_/, `${bytes}`);
    }
  });
  it("-32013: one subscription past the principal's budget", async () => {
    const options = {
      resultStore: createMemoryResultStore(),
      events: { allowCallbacks: [receiver.url], maxSubscriptions: 1 },
    };
    const server = serverOf(options);
    const first = await message(
      await server.fetch(modernRequest("events/subscribe", subscribeParams("b1", newSecret(), "/b"))),
    );
    assert.match(first.result.id, /^sub_/);
    const second = await message(
      await server.fetch(modernRequest("events/subscribe", subscribeParams("b2", newSecret(), "/b"))),
    );
    assert.equal(second.error?.code, -32013);
    // SEP-3415 "Error Handling": "`data.limit` names it (for example `"subscriptions"`), and `data.max` MAY give the
    // ceiling".
    assert.deepEqual((second.error as { data?: unknown }).data, { limit: "subscriptions", max: 1 });
  });
  it("-32014: a delivery mode other than webhook", async () => {
    assert.equal(await refused({ ...subscribeParams("x", newSecret()), delivery: { mode: "poll" } }), -32014);
  });
  it("-32015: a callback that does not echo the challenge", async () => {
    receiver.echo = false;
    try {
      assert.equal(await refused(subscribeParams("echo", newSecret(), "/echo")), -32015);
    } finally {
      receiver.echo = true;
    }
  });
});

describe("server.emit()", () => {
  it("refuses a payload its schema refuses (TypeError), one over 256 KiB (RangeError), an unknown event", async () => {
    const server = serverOf();
    await assert.rejects(server.emit("order.shipped", { orderId: 1 } as never), TypeError);
    await assert.rejects(server.emit("ping", { blob: "x".repeat(256 * 1024) }), RangeError);
    await assert.rejects(server.emit("nope" as never, {} as never), TypeError);
    await assert.rejects(server.emit("ping", {}, { id: "two words" }), TypeError);
  });
  it("two events of one name on a server are refused", () => {
    assert.throws(() => serverOf().event(defineEvent("ping")), /served already/);
  });
});
