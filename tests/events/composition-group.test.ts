/**
 * MCP Events across `server.group()` (issue 77, composition): a group serves its members' events under the prefix it
 * serves their tools under (`events/list` on MCP 2026-07-28, 2025-11-25 and MCP-lite), a subscription through the
 * group is kept by the member (its store, its own name) and the member's `emit()` delivers it to a receiver on
 * 127.0.0.1 under the name subscribed by; groups of groups, a clash refused whole, a member's later event listed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, type ResultStore } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { legacyRequest, modernRequest, post } from "../helpers/request.ts";
import { newSecret, type Received, type Receiver, startReceiver } from "./receiver.ts";

const SECRET = "an events test secret of at least 32 bytes!";
const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);

/** The JSON-RPC message of an answer, JSON or one SSE event. */
async function message(response: Response): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const text = await response.text();
  const data = text.trimStart().startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data:"))!.slice(5);
  return JSON.parse(data);
}

const secrets: string[] = [];
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver(() => secrets);
});
after(() => receiver.close());

/** A shop (the member) with its own store, and the events options a receiver on 127.0.0.1 needs. */
function shop(store: ResultStore = createMemoryResultStore()) {
  return createServer({ name: "shop", version: "1.0.0", secret: SECRET, resultStore: store, ...allow() })
    .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"))
    .event(shipped);
}
const allow = () => ({ events: { allowCallbacks: [receiver.url] } });

function subscribeParams(name: string, customerId: string, path: string) {
  const secret = newSecret();
  secrets.push(secret);
  return { name, arguments: { customerId }, delivery: { mode: "webhook", url: `${receiver.url}${path}`, secret } };
}

/** The deliveries (not challenges) of one occurrence, once `count` arrived (at most 10 s). */
async function deliveriesOf(eventId: string, count: number): Promise<Received[]> {
  const found = () => receiver.received.filter((r) => r.body.eventId === eventId);
  await receiver.until(() => found().length >= count, `${count} deliveries of ${eventId}`);
  return found();
}

describe("events across group()", () => {
  it("lists a member's events under the prefix, in both profiles' capabilities, on every wire", async () => {
    const app = createServer({ name: "app", version: "1.0.0" }).group("shop", shop());
    const discovered = await message(await app.fetch(modernRequest("server/discover")));
    assert.deepEqual(discovered.result.capabilities.events, {});
    assert.deepEqual(discovered.result.capabilities.extensions["io.modelcontextprotocol/events"], {});
    for (
      const request of [
        modernRequest("events/list"),
        legacyRequest("events/list"),
        post("/mcp-lite/v1/rpc", { jsonrpc: "2.0", id: 1, method: "events/list", params: {} }),
      ]
    ) {
      const { result } = await message(await app.fetch(request));
      assert.deepEqual(result.events.map((e: { name: string }) => e.name), ["shop.order.shipped"]);
      assert.equal(result.events[0].description, "An order left the warehouse");
      assert.equal(result.events[0].inputSchema.properties.customerId.type, "string");
    }
  });

  it("polls a member's event under the prefix: the member's log, each event named as polled (issue 88)", async () => {
    const member = shop();
    const app = createServer({ name: "app", version: "1.0.0" }).group("shop", member);
    const args = { name: "shop.order.shipped", arguments: { customerId: "g1" } };
    const first = await message(await app.fetch(modernRequest("events/poll", { ...args, cursor: null })));
    const { eventId } = await member.emit("order.shipped", { orderId: "o1", customerId: "g1" });
    const { result } = await message(
      await app.fetch(modernRequest("events/poll", { ...args, cursor: first.result.cursor })),
    );
    assert.deepEqual(result.events.map((e: { eventId: string; name: string }) => [e.eventId, e.name]), [
      [eventId, "shop.order.shipped"],
    ]);
  });

  it("streams a member's event under the prefix (events/stream): the member's log and wake-up, named as streamed", async () => {
    const member = shop();
    const app = createServer({ name: "app", version: "1.0.0" }).group("shop", member);
    const args = { name: "shop.order.shipped", arguments: { customerId: "g1" }, cursor: null };
    const response = await app.fetch(modernRequest("events/stream", args));
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const until = async (part: string) => {
      while (!text.includes(part)) {
        const read = await reader.read();
        if (read.done) throw new Error(`the stream ended before ${part}: ${text}`);
        text += read.value;
      }
    };
    try {
      await until("notifications/events/active");
      const { eventId } = await member.emit("order.shipped", { orderId: "o1", customerId: "g1" });
      await until(eventId);
      const event = JSON.parse(text.split("\n").find((line) => line.includes(eventId))!.slice(5));
      assert.equal(event.method, "notifications/events/event");
      assert.equal(event.params.name, "shop.order.shipped");
      assert.equal(typeof event.params.cursor, "string");
    } finally {
      await reader.cancel();
    }
  });

  it("keeps a subscription with the member, under its own name; the member's emit delivers it as subscribed", async () => {
    const store = createMemoryResultStore();
    const member = shop(store);
    const app = createServer({ name: "app", version: "1.0.0" }).group("shop", member);
    const params = subscribeParams("shop.order.shipped", "c1", "/group");
    const { result, error } = await message(await app.fetch(modernRequest("events/subscribe", params)));
    assert.equal(error, undefined);
    assert.match(result.id, /^sub_/);
    assert.deepEqual(await store.members!("evidx:order.shipped"), [result.id]); // the member's index, its name

    const { eventId, deliveries } = await member.emit("order.shipped", { orderId: "o1", customerId: "c1" });
    assert.equal(deliveries, 1);
    const [delivered] = await deliveriesOf(eventId, 1);
    assert.equal(delivered.verified, true);
    assert.equal(delivered.headers["webhook-id"], eventId);
    assert.equal(delivered.headers["x-mcp-subscription-id"], result.id);
    assert.equal(delivered.body.name, "shop.order.shipped"); // a subscriber checks the name it subscribed by

    const gone = await message(
      await app.fetch(
        modernRequest("events/unsubscribe", { ...params, delivery: { ...params.delivery, secret: undefined } }),
      ),
    );
    assert.equal(gone.error, undefined);
    assert.equal((await member.emit("order.shipped", { orderId: "o2", customerId: "c1" })).deliveries, 0);
  });

  it("tells a subscription through the group from one on the member: two ids, each delivered under its name", async () => {
    const member = shop();
    const app = createServer({ name: "app", version: "1.0.0" }).group("shop", member);
    const direct = await message(
      await member.fetch(modernRequest("events/subscribe", subscribeParams("order.shipped", "c2", "/both"))),
    );
    const grouped = await message(
      await app.fetch(modernRequest("events/subscribe", subscribeParams("shop.order.shipped", "c2", "/both"))),
    );
    assert.notEqual(direct.result.id, grouped.result.id);
    const { eventId, deliveries } = await member.emit("order.shipped", { orderId: "o1", customerId: "c2" });
    assert.equal(deliveries, 2);
    const names = (await deliveriesOf(eventId, 2)).map((r) => r.body.name).sort();
    assert.deepEqual(names, ["order.shipped", "shop.order.shipped"]);
  });

  it("composes: a group of a group serves and delivers under both prefixes; the group's emit reaches the member", async () => {
    const member = shop();
    const inner = createServer({ name: "inner", version: "1.0.0" }).event(defineEvent("inner.ready")).group(
      "shop",
      member,
    );
    const outer = createServer({ name: "outer", version: "1.0.0" }).group("app", inner, { separator: "_" });
    const { result } = await message(await outer.fetch(modernRequest("events/list")));
    assert.deepEqual(result.events.map((e: { name: string }) => e.name), ["app_inner.ready", "app_shop.order.shipped"]);
    const sub = await message(
      await outer.fetch(modernRequest("events/subscribe", subscribeParams("app_shop.order.shipped", "c3", "/nested"))),
    );
    assert.equal(sub.error, undefined);
    // The inner group serves events of its own, so its emit raises its member's by the name it serves it under.
    const { eventId, deliveries } = await inner.emit("shop.order.shipped", {
      orderId: "o1",
      customerId: "c3",
    });
    assert.equal(deliveries, 1);
    const [delivered] = await deliveriesOf(eventId, 1);
    assert.equal(delivered.body.name, "app_shop.order.shipped");
    assert.equal(delivered.verified, true);
  });

  it("answers -32011 for a name no member serves, and lists a member's event registered after the grouping", async () => {
    const member = shop();
    const app = createServer({ name: "app", version: "1.0.0" }).group("shop", member);
    const unknown = await message(
      await app.fetch(modernRequest("events/subscribe", subscribeParams("shop.order.lost", "c4", "/x"))),
    );
    assert.equal(unknown.error?.code, -32011);
    const bare = await message(
      await app.fetch(modernRequest("events/subscribe", subscribeParams("order.shipped", "c4", "/x"))),
    );
    assert.equal(bare.error?.code, -32011, "the member's event is served under the prefix only");
    await message(await app.fetch(modernRequest("events/list"))); // cached now
    member.event(defineEvent("order.returned"));
    const { result } = await message(await app.fetch(modernRequest("events/list")));
    assert.deepEqual(result.events.map((e: { name: string }) => e.name), ["shop.order.shipped", "shop.order.returned"]);
  });

  it("refuses a grouping whose event name the group serves already, mounting nothing of it", () => {
    const app = createServer({ name: "app", version: "1.0.0" }).event(defineEvent("shop.order.shipped"));
    assert.throws(() => app.group("shop", shop()), /event "order.shipped" would be served as "shop.order.shipped"/);
    assert.deepEqual(app.tools.map((t) => t.name), []);
  });
});
