/**
 * `client.events` against a FIXTURE server written from issue 77's brief of the wire (tests/helpers/events-fixture.ts,
 * to be replaced by the real server's tests when it lands), over MCP 2026-07-28, MCP 2025-11-25 and MCP-lite: the
 * list followed across pages, a subscription whose challenge an `eventWebhook()` receiver answers, a delivery
 * received, a renewal (same id), a rotation, unsubscribing by name and by id, the secret generated, and errors.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { ProtocolError } from "../../src/errors/mod.ts";
import { eventWebhook } from "../../src/events/receiver/event-webhook.ts";
import type { Listener } from "../../src/types.ts";
import { type EventsFixture, startEventsFixture } from "../helpers/events-fixture.ts";

const SECRET = `whsec_${btoa("0123456789abcdef0123456789abcdef")}`;
const NEXT = `whsec_${btoa("fedcba9876543210fedcba9876543210")}`;

let fixture: EventsFixture;
let receiver: Listener;
const received: { subscriptionId: string; name: string; data: unknown }[] = [];

const WIRES = [
  ["MCP 2026-07-28", (url: string) => createClient(`${url}/mcp`, { transport: "mcp" })],
  ["MCP 2025-11-25", (url: string) => createClient(`${url}/mcp`, { transport: "mcp", protocolVersion: "2025-11-25" })],
  ["MCP-lite", (url: string) => createClient(url, { transport: "mcp-lite" })],
] as const;

describe("client.events against the fixture server", () => {
  before(async () => {
    fixture = await startEventsFixture();
    const receive = eventWebhook({
      secrets: [SECRET, NEXT],
      onEvent: ({ subscriptionId, event }) =>
        void received.push({ subscriptionId, name: event.name, data: event.data }),
    });
    receiver = await serve({ fetch: receive }, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await receiver.close();
    await fixture.close();
  });

  for (const [wire, clientFor] of WIRES) {
    it(`lists, subscribes, receives, renews and unsubscribes over ${wire}`, async () => {
      fixture.subscriptions.clear();
      received.length = 0;
      const client = clientFor(fixture.url);
      try {
        const listed = await client.events.list();
        assert.deepEqual(listed.map((e) => e.name), ["order.shipped", "stock.low"]); // two pages
        assert.equal(listed[0].description, "An order left the warehouse");

        const url = `${receiver.url}/hook`;
        const args = { customerId: "c1" };
        const sub = await client.events.subscribe("order.shipped", { arguments: args, url, secret: SECRET });
        assert.match(sub.id, /^sub_/);
        assert.equal(sub.secret, SECRET);
        assert.equal(sub.cursor, null);
        assert.equal(sub.truncated, false);
        assert.ok(Date.parse(sub.refreshBefore!) > Date.now());

        assert.deepEqual(await fixture.emit("order.shipped", { orderId: "o1", customerId: "c1" }), [204]);
        assert.deepEqual(await fixture.emit("order.shipped", { orderId: "o2", customerId: "c2" }), []);
        assert.deepEqual(received, [
          { subscriptionId: sub.id, name: "order.shipped", data: { orderId: "o1", customerId: "c1" } },
        ]);

        // Renewal: the same id; with a new secret, a rotation (both sign for a while).
        const renewed = await client.events.subscribe("order.shipped", {
          arguments: args,
          url,
          secret: NEXT,
          ttlMs: 60_000,
        });
        assert.equal(renewed.id, sub.id);
        assert.deepEqual(fixture.subscriptions.get(sub.id)?.secrets, [NEXT, SECRET]);

        await client.events.unsubscribe("order.shipped", { arguments: args, url });
        assert.equal(fixture.subscriptions.size, 0);
        const again = await client.events.subscribe("stock.low", { url, secret: SECRET });
        await client.events.unsubscribe({ id: again.id });
        assert.equal(fixture.subscriptions.size, 0);
      } finally {
        await client.close();
      }
    });
  }

  it("generates a whsec_ secret of 32 random bytes when none is given, sends it and returns it", async () => {
    let seen: string | undefined;
    // A callback that echoes the challenge without checking it: this test is about the secret the client sent.
    const echo = await serve({
      fetch: async (request: Request) => Response.json({ challenge: (await request.json()).challenge }),
    }, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = createClient(`${fixture.url}/mcp`, { transport: "mcp" });
    try {
      const sub = await client.events.subscribe("stock.low", { url: `${echo.url}/` });
      seen = fixture.subscriptions.get(sub.id)?.secrets[0];
      assert.equal(sub.secret, seen);
      assert.match(sub.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(atob(sub.secret.slice(6)).length, 32);
      const other = await client.events.subscribe("stock.low", { url: `${echo.url}/`, arguments: { region: "eu" } });
      assert.notEqual(other.secret, sub.secret);
    } finally {
      await client.close();
      await echo.close();
    }
  });

  it("refuses a malformed secret before sending, and surfaces the server's errors (-32011, -32012, -32015)", async () => {
    fixture.subscriptions.clear();
    const client = createClient(`${fixture.url}/mcp`, { transport: "mcp" });
    const url = `${receiver.url}/hook`;
    try {
      await assert.rejects(client.events.subscribe("stock.low", { url, secret: "hunter2" }), TypeError);
      await assert.rejects(client.events.subscribe("nope", { url, secret: SECRET }), (error) => {
        assert.ok(error instanceof ProtocolError, String(error));
        return /No event nope/.test(error.message);
      });
      await assert.rejects(
        client.events.subscribe("stock.low", { url: "https://example.com/", secret: SECRET }),
        /Callback refused/,
      );
      // The receiver does not know this secret: the challenge fails, and so does the subscription.
      const unknown = `whsec_${btoa("a secret the receiver never saw")}`;
      await assert.rejects(
        client.events.subscribe("stock.low", { url, secret: unknown }),
        /did not echo the challenge/,
      );
      assert.equal(fixture.subscriptions.size, 0);
    } finally {
      await client.close();
    }
  });
});
