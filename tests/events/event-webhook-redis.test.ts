/**
 * `eventWebhook({ store })` on two receivers (two instances) sharing one Redis (`redisResultStore()`): a delivery
 * sent to both at once, and again later, runs `onEvent` once in all; a failed one (503) runs again on its retry; a
 * captured one replayed under other `X-MCP-Subscription-Id`s, to either instance, runs nothing more.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { eventWebhook } from "../../src/events/receiver/event-webhook.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

const SECRET = `whsec_${btoa("0123456789abcdef0123456789abcdef")}`;

let server: RedisServer | undefined;
const clients: TestRedisClient[] = [];

before(async () => {
  if (REDIS_MISSING) return;
  server = await startRedis();
  for (const kind of REDIS_CLIENTS) clients.push(await kind.connect(server.url));
});

after(async () => {
  for (const client of clients) client.close();
  await server?.stop();
});

function delivery(eventId: string, subscription = "sub_a", at = new Date()): Request {
  const body = JSON.stringify({ eventId, name: "order.shipped", timestamp: at.toISOString(), data: { orderId: "o1" } });
  return new Request("http://127.0.0.1/hook", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": eventId,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(SECRET).sign(eventId, at, body),
      "x-mcp-subscription-id": subscription,
    },
    body,
  });
}

describe("eventWebhook() with a store shared by instances (Redis)", { skip: REDIS_MISSING }, () => {
  it("runs onEvent once for a delivery both instances receive, and again after a 503", async () => {
    const prefix = `test:${crypto.randomUUID()}:`;
    const ran: string[] = [];
    let failing = true;
    // One instance per Redis client (node-redis and ioredis), each with its own store over the same keys.
    const receivers = clients.map((c, i) =>
      eventWebhook({
        secret: SECRET,
        store: redisResultStore(c.client, { prefix }),
        onEvent: ({ event }) => {
          if (event.eventId === "evt_fail" && failing) throw new Error("not yet");
          ran.push(`${i}:${event.eventId}`);
        },
      })
    );
    const statuses = await Promise.all(receivers.map((receive) => receive(delivery("evt_1"))));
    assert.deepEqual(statuses.map((r) => r.status), receivers.map(() => 204));
    assert.equal((await receivers[0](delivery("evt_1"))).status, 204);
    assert.equal(ran.filter((r) => r.endsWith(":evt_1")).length, 1, ran.join());

    assert.equal((await receivers[0](delivery("evt_fail"))).status, 503);
    failing = false;
    assert.equal((await receivers.at(-1)!(delivery("evt_fail"))).status, 204);
    assert.equal((await receivers[0](delivery("evt_fail"))).status, 204);
    assert.equal(ran.filter((r) => r.endsWith(":evt_fail")).length, 1, ran.join());

    // The subscription id is a header the signature does not cover: a replay under another one is the same delivery.
    const at = new Date();
    assert.equal((await receivers[0](delivery("evt_2", "sub_a", at))).status, 204);
    for (const [i, receive] of receivers.entries()) {
      assert.equal((await receive(delivery("evt_2", `sub_replayed_${i}`, at))).status, 204);
    }
    assert.equal(ran.filter((r) => r.endsWith(":evt_2")).length, 1, ran.join());
  });
});
