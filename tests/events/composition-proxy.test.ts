/**
 * MCP Events across `proxy()` (issue 77, composition): a server of ours with an event, served on 127.0.0.1 (MCP
 * 2026-07-28, and a pinned MCP 2025 session), behind a proxy grouped into a gateway: the gateway lists the remote's
 * event under the group's prefix, forwards `events/subscribe` and `events/unsubscribe` with the caller's own callback
 * and secret (the remote challenges and delivers straight to the receiver the test runs; the proxy holds nothing),
 * passes the remote's SEP-3415 errors back, and sends the proxy's credentials, or the caller's where the policy says.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer } from "../../mod.ts";
import type { AuthInfo } from "../../src/core/call/host.ts";
import { protectedResource } from "../../src/auth/mod.ts";
import { readSubscription } from "../../src/events/delivery/mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { proxy, type ProxyOptions } from "../../src/proxy/mod.ts";
import { serve } from "../../src/server/serve.ts";
import { legacyRequest, modernMeta, modernRequest, post } from "../helpers/request.ts";
import { readSse } from "../helpers/sse.ts";
import { waitFor } from "../helpers/long-running.ts";
import { createClient } from "../../src/client/mod.ts";
import { newSecret, type Receiver, startReceiver } from "./receiver.ts";

const GATEWAY = "https://gateway.example.com";
const REMOTE = "https://remote.example.com";
/** Tokens: the proxy's own at the remote, and a caller's, whose audience names the gateway and the remote. */
const TOKENS: Record<string, AuthInfo> = {
  "proxy-token": { subject: "the-proxy" },
  "caller-token": { subject: "ada", token: "caller-token", claims: { aud: [GATEWAY, REMOTE] } },
};
const bearer = (resource: string) =>
  protectedResource({
    resource,
    authorizationServers: ["https://auth.example.com"],
    verify: (token: string) => TOKENS[token],
  });

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

describe("events across proxy()", () => {
  const secrets: string[] = [];
  const store = createMemoryResultStore();
  const closed = new AbortController();
  let receiver: Receiver;
  let remote: ReturnType<typeof remoteOf>;
  let listener: Awaited<ReturnType<typeof serve>>;
  const remoteOf = (allow: string) =>
    createServer({
      name: "shop",
      version: "1.0.0",
      secret: "an events test secret of at least 32 bytes!",
      resultStore: store,
      auth: bearer(REMOTE),
      events: { allowCallbacks: [allow] },
    }).event(shipped);
  before(async () => {
    receiver = await startReceiver(() => secrets);
    remote = remoteOf(receiver.url);
    listener = await serve(remote, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    closed.abort();
    await listener.close();
    await receiver.close();
  });

  /** A gateway (bearer `caller-token`) grouping a proxy of the remote as `shop`. */
  const gatewayOf = async (options: ProxyOptions = {}) =>
    createServer({ name: "gateway", version: "1.0.0", auth: bearer(GATEWAY) }).group(
      "shop",
      await proxy<typeof remote>(`${listener.url}/mcp`, {
        refreshMs: 0,
        signal: closed.signal,
        headers: { authorization: "Bearer proxy-token" },
        ...options,
      }),
    );
  const caller = { authorization: "Bearer caller-token" };
  const subscribeParams = (customerId: string, path: string) => {
    const secret = newSecret();
    secrets.push(secret);
    return {
      name: "shop.order.shipped",
      arguments: { customerId },
      delivery: { mode: "webhook", url: `${receiver.url}${path}`, secret },
    };
  };
  /** The subscriptions the remote keeps for the event. */
  const held = async () => {
    const ids = await store.members!("evidx:order.shipped");
    return (await Promise.all(ids.map((id) => readSubscription(store.store!, id)))).filter((s) => s !== undefined);
  };

  for (
    const [revision, options] of [["MCP 2026-07-28", {}], ["a pinned MCP 2025 session", {
      protocolVersion: "2025-11-25",
    }]] as const
  ) {
    it(`lists, subscribes and unsubscribes through the proxy; the remote delivers to the caller (${revision})`, async () => {
      const gateway = await gatewayOf(options);
      const discovered = await message(await gateway.fetch(modernRequest("server/discover", {}, 1, caller)));
      assert.deepEqual(discovered.result.capabilities.events, {});
      assert.deepEqual(discovered.result.capabilities.extensions["io.modelcontextprotocol/events"], {});
      for (
        const request of [
          modernRequest("events/list", {}, 1, caller),
          legacyRequest("events/list", {}, 1, "2025-11-25", caller),
          post("/mcp-lite/v1/rpc", { jsonrpc: "2.0", id: 1, method: "events/list", params: {} }, caller),
        ]
      ) {
        const { result } = await message(await gateway.fetch(request));
        assert.deepEqual(result.events.map((e: { name: string }) => e.name), ["shop.order.shipped"]);
        assert.equal(result.events[0].inputSchema.properties.customerId.type, "string");
      }

      const path = `/proxied-${options.protocolVersion ?? "modern"}`;
      const params = subscribeParams(path, path);
      const challenged = receiver.received.length;
      const subscribed = await message(await gateway.fetch(modernRequest("events/subscribe", params, 1, caller)));
      assert.equal(subscribed.error, undefined, JSON.stringify(subscribed.error));
      assert.match(subscribed.result.id, /^sub_/);
      assert.equal(subscribed.result.resultType, "complete"); // this hop's envelope, not the remote's
      const challenge = receiver.received[challenged]; // the remote challenged the caller's own callback
      assert.equal(challenge.body.type, "verification");
      assert.equal(challenge.verified, true);
      const sub = (await held()).find((s) => s.id === subscribed.result.id)!;
      assert.equal(sub.url, `${receiver.url}${path}`);
      assert.equal(sub.principal, JSON.stringify(["the-proxy", null])); // the proxy's own credentials
      assert.equal(sub.servedAs, "shop.order.shipped");

      const { eventId, deliveries } = await remote.emit("order.shipped", { orderId: "o1", customerId: path });
      assert.equal(deliveries, 1);
      const delivered = await receiver.delivered(eventId);
      assert.equal(delivered.verified, true);
      assert.equal(delivered.body.name, "shop.order.shipped"); // as the caller subscribed
      assert.equal(delivered.headers["x-mcp-subscription-id"], subscribed.result.id);

      const { secret: _, ...delivery } = params.delivery;
      const gone = await message(
        await gateway.fetch(modernRequest("events/unsubscribe", { ...params, delivery }, 1, caller)),
      );
      assert.equal(gone.error, undefined);
      assert.equal((await remote.emit("order.shipped", { orderId: "o2", customerId: path })).deliveries, 0);
    });
  }

  it("passes the remote's refusals back with their SEP-3415 codes", async () => {
    const gateway = await gatewayOf();
    const ask = async (params: Record<string, unknown>) =>
      (await message(await gateway.fetch(modernRequest("events/subscribe", params, 1, caller)))).error?.code;
    assert.equal(await ask({ ...subscribeParams("x", "/x"), name: "shop.order.lost" }), -32011); // not the remote's
    assert.equal(await ask({ ...subscribeParams("x", "/x"), arguments: { customerId: 7 } }), -32602);
    const refused = subscribeParams("x", "/x");
    assert.equal(await ask({ ...refused, delivery: { ...refused.delivery, url: "https://10.0.0.1/hook" } }), -32012);
    const byId = await message(await gateway.fetch(modernRequest("events/unsubscribe", { id: "sub_none" }, 1, caller)));
    assert.equal(byId.error?.code, -32011);
  });

  it("polls through the proxy: the remote's log, under the caller's name; the remote's codes kept (issue 88)", async () => {
    const gateway = await gatewayOf();
    const args = { name: "shop.order.shipped", arguments: { customerId: "polled" } };
    const poll = async (params: Record<string, unknown>) =>
      await message(await gateway.fetch(modernRequest("events/poll", params, 1, caller)));
    const first = await poll({ ...args, cursor: null });
    assert.equal(first.error, undefined, JSON.stringify(first.error));
    const { eventId } = await remote.emit("order.shipped", { orderId: "p1", customerId: "polled" });
    const second = await poll({ ...args, cursor: first.result.cursor });
    assert.deepEqual(second.result.events.map((e: { eventId: string; name: string }) => [e.eventId, e.name]), [
      [eventId, "shop.order.shipped"],
    ]);
    // A caller that declared SEP-3415's extension: the gateway's own refusals in SEP-3415's numbers, the remote's as
    // the remote sent them (it answers the proxy's client, which declared nothing: ChatGPT's).
    const declared = { extensions: { "io.modelcontextprotocol/events": {} } };
    const sep = { _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": declared }) };
    assert.equal((await poll({ name: "shop.order.lost", cursor: null, ...sep })).error?.code, -32023);
    const refused = subscribeParams("x", "/x");
    const remoteRefusal = await message(
      await gateway.fetch(modernRequest(
        "events/subscribe",
        {
          ...refused,
          delivery: { ...refused.delivery, url: "https://10.0.0.1/hook" },
          ...sep,
        },
        1,
        caller,
      )),
    );
    assert.equal(remoteRefusal.error?.code, -32012);
  });

  it("streams through the proxy: the remote's stream relayed as the caller's, resumed from its cursor (issue 88)", async () => {
    const gateway = await gatewayOf();
    const listed = await message(await gateway.fetch(modernRequest("events/list", {}, 1, caller)));
    assert.deepEqual(listed.result.events[0].delivery, ["webhook", "poll", "push"]); // push is listed through it
    const args = { name: "shop.order.shipped", arguments: { customerId: "pushed" } };
    // Where the remote's log stands, then one emitted before the stream opens: the stream starts from that cursor.
    const start =
      (await message(await gateway.fetch(modernRequest("events/poll", { ...args, cursor: null }, 1, caller))))
        .result.cursor;
    const missed = await remote.emit("order.shipped", { orderId: "s1", customerId: "pushed" });
    const leave = new AbortController();
    const response = await gateway.fetch(
      new Request(modernRequest("events/stream", { ...args, cursor: start }, 7, caller), { signal: leave.signal }),
    );
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const heard: Record<string, any>[] = [];
    let live: { eventId: string } | undefined;
    const reading = readSse(response, 10_000, (event) => {
      if (event.data === "") return;
      const sent = JSON.parse(event.data);
      heard.push(sent);
      if (sent.method === "notifications/events/event" && sent.params.data.orderId === "s1") {
        void remote.emit("order.shipped", { orderId: "s2", customerId: "pushed" }).then((emitted) => live = emitted);
      }
      if (sent.method === "notifications/events/event" && sent.params.data.orderId === "s2") leave.abort();
    }).catch(() => {}); // the caller leaving ends the read
    await reading;
    const events = heard.filter((m) => m.method === "notifications/events/event").map((m) => m.params);
    assert.deepEqual(events.map((e) => [e.eventId, e.name]), [
      [missed.eventId, "shop.order.shipped"], // under the caller's name
      [live?.eventId, "shop.order.shipped"],
    ]);
    assert.equal(heard[0].method, "notifications/events/active");
    // Each names the caller's own stream, the request's id at the gateway (SEP-3415 "Push-Based Delivery").
    for (const sent of heard) {
      // (The final result too, when it reached the caller before it left: SEP-3415's empty StreamEventsResult.)
      const meta = (sent.params ?? sent.result)._meta;
      assert.equal(meta["io.modelcontextprotocol/subscriptionId"], 7, JSON.stringify(sent));
    }
    // Resumed from the last cursor received: nothing twice, what was emitted meanwhile once.
    const meanwhile = await remote.emit("order.shipped", { orderId: "s3", customerId: "pushed" });
    const client = createClient(gateway, { transport: "mcp", headers: caller });
    const done = new AbortController();
    const resumed: string[] = [];
    for await (
      const event of client.events.stream("shop.order.shipped", {
        arguments: { customerId: "pushed" },
        cursor: events.at(-1).cursor,
        signal: done.signal,
      })
    ) {
      resumed.push(event.eventId);
      done.abort();
    }
    assert.deepEqual(resumed, [meanwhile.eventId]);
    await client.close();
    // The gateway drains (shutting down): the relayed stream ends with its final result, so the caller reconnects.
    let drained: Promise<void> | undefined;
    const draining = await gateway.fetch(modernRequest("events/stream", { ...args, cursor: null }, 8, caller));
    const last = (await readSse(draining, 10_000, (event) => {
      if (event.data.includes("notifications/events/active")) drained = gateway.drain();
    })).at(-1)!;
    await drained;
    assert.equal(JSON.parse(last.data).result.resultType, "complete");
  });

  it("reads the remote's events again every refreshMs: one it registers later is listed", async () => {
    const later = createServer({ name: "later", version: "1.0.0", events: { allowCallbacks: [receiver.url] } })
      .event(defineEvent("first.one"));
    const served = await serve(later, { port: 0, hostname: "127.0.0.1", quiet: true });
    const stop = new AbortController();
    try {
      const gateway = createServer({ name: "gateway", version: "1.0.0" })
        .group("later", await proxy(`${served.url}/mcp`, { refreshMs: 20, signal: stop.signal }));
      const names = async () =>
        (await message(await gateway.fetch(modernRequest("events/list")))).result.events.map((e: any) => e.name);
      assert.deepEqual(await names(), ["later.first.one"]);
      later.event(defineEvent("second.one"));
      await waitFor(async () => (await names()).length === 2, 10_000); // the proxy read the remote's events again
      assert.deepEqual(await names(), ["later.first.one", "later.second.one"]);
    } finally {
      stop.abort();
      await served.close();
    }
  });

  it("forwards the caller's token instead where forwardCallerToken allows it: the subscription is the caller's", async () => {
    const gateway = await gatewayOf({ forwardCallerToken: { audience: REMOTE } });
    const params = subscribeParams("fwd", "/fwd");
    const { result } = await message(await gateway.fetch(modernRequest("events/subscribe", params, 1, caller)));
    const sub = (await held()).find((s) => s.id === result.id)!;
    assert.equal(sub.principal, JSON.stringify(["ada", null]));
  });
});
