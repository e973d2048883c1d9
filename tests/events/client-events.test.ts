/**
 * `client.events` against our real events server (`createServer(…).event(defineEvent(…))`, its callbacks allowed on
 * `http://127.0.0.1`, any port) served on 127.0.0.1, over MCP 2026-07-28, MCP 2025-11-25 and MCP-lite: the list
 * followed across pages, a subscription whose challenge an `eventWebhook()` receiver answers, a typed event
 * received, a renewal (same id), a rotation (both secrets sign during the grace), unsubscribing by name and by id,
 * the caller's secret checked before sending, and the server's errors as `ProtocolError`s with SEP-3415's codes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { ProtocolError } from "../../src/errors/mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { eventWebhook } from "../../src/events/receiver/event-webhook.ts";
import type { Listener } from "../../src/types.ts";
import { LOADED_MS } from "../helpers/long-running.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";

const SECRET = `whsec_${btoa("0123456789abcdef0123456789abcdef")}`;
const NEXT = `whsec_${btoa("fedcba9876543210fedcba9876543210")}`;
const EXT = "io.modelcontextprotocol/events";

const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);
const low = defineEvent("stock.low")
  .input(v.object({ region: v.optional(v.string()) }))
  .payload(v.object({ sku: v.string() }));

/**
 * The shop: two events, MCP's lists one item a page (so that the client follows `nextCursor`), callbacks allowed on
 * 127.0.0.1 at any port (the receiver's, whichever it is); behind `auth` where given.
 */
const shop = (auth?: ReturnType<typeof opaqueAuth>) =>
  createServer({
    name: "shop",
    version: "1.0.0",
    secret: "a client-events test secret of at least 32 bytes",
    resultStore: createMemoryResultStore(),
    bindings: [mcpLiteBinding(), mcpBinding({ pageSize: 1 })],
    events: { allowCallbacks: ["http://127.0.0.1"] },
    ...auth === undefined ? {} : { auth },
  }).event(shipped).event(low);

/** The server, open to every caller. */
const server = shop();

/**
 * The same server behind a bearer token (`reader`): SEP-3415 takes webhook subscriptions from authenticated callers
 * only ("Unauthenticated MCP servers may offer poll and push, but not webhook").
 */
const guarded = shop(opaqueAuth());

/** A delivery the receiver took: what `onEvent` got, and which single secret's receiver its signature passed. */
interface Taken {
  readonly subscriptionId: string;
  readonly webhookId: string;
  readonly event: { eventId: string; name: string; data: unknown };
  readonly path: string;
}

let listener: Listener;
let guardedListener: Listener;
let receiver: Listener;
const taken: Taken[] = [];
/** What a receiver knowing only SECRET, only NEXT, or neither answered each event POST, by `webhook-id`. */
const alone = new Map<string, { old: number; next: number; neither: number }>();

const WIRES = [
  ["MCP 2026-07-28", (url: string, o = {}) => createClient(`${url}/mcp`, { transport: "mcp", ...o })],
  [
    "MCP 2025-11-25",
    (url: string, o = {}) => createClient(`${url}/mcp`, { transport: "mcp", protocolVersion: "2025-11-25", ...o }),
  ],
  ["MCP-lite", (url: string, o = {}) => createClient(url, { transport: "mcp-lite", ...o })],
] as const;

/** Who waits for a delivery ({@link eventually}): woken as each is taken. */
const waiting = new Set<() => void>();

/** Waits until `found` returns something, checked as each delivery is taken (at most {@link LOADED_MS}). */
function eventually<T>(found: () => T | undefined, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const wake = () => {
      const value = found();
      if (value === undefined) return;
      clearTimeout(timer);
      waiting.delete(wake);
      resolve(value);
    };
    const timer = setTimeout(() => {
      waiting.delete(wake);
      reject(new Error(`not within ${LOADED_MS} ms: ${what}`));
    }, LOADED_MS);
    waiting.add(wake);
    wake();
  });
}

/** The delivery of an emitted event at a callback path, once it arrived. */
const deliveryOf = (eventId: string, path: string) =>
  eventually(() => taken.find((t) => t.event.eventId === eventId && t.path === path), `${eventId} at ${path}`);

describe("client.events against the real events server", () => {
  before(async () => {
    // One eventWebhook() per callback path (each knows both secrets), and three that each know one secret or none.
    const receivers = new Map<string, (request: Request) => Promise<Response>>();
    const receiverAt = (path: string) => {
      let receive = receivers.get(path);
      if (receive === undefined) {
        receive = eventWebhook<typeof server>({
          secrets: [SECRET, NEXT],
          onEvent: ({ subscriptionId, webhookId, event }) => {
            // Typed by the server's events: a union by name, each with its payload's type (checked by deno test).
            const data: { orderId: string; customerId: string } | { sku: string } = event.name === "order.shipped"
              ? { orderId: event.data.orderId, customerId: event.data.customerId }
              : { sku: event.data.sku };
            taken.push({ subscriptionId, webhookId, event: { ...event, data }, path });
            for (const wake of waiting) wake();
          },
        });
        receivers.set(path, receive);
      }
      return receive;
    };
    const old = eventWebhook({ secret: SECRET, onEvent: () => {} });
    const next = eventWebhook({ secret: NEXT, onEvent: () => {} });
    const neither = eventWebhook({ secret: `whsec_${btoa("a secret no subscription was given")}`, onEvent: () => {} });
    receiver = await serve({
      fetch: async (request: Request) => {
        const id = request.headers.get("webhook-id") ?? "";
        if (!/^(vrf|msg)_/.test(id)) { // a control envelope: the challenge
          const [a, b, c] = await Promise.all([old, next, neither].map((r) => r(request.clone())));
          alone.set(id, { old: a.status, next: b.status, neither: c.status });
        }
        return await receiverAt(new URL(request.url).pathname)(request);
      },
    }, { port: 0, hostname: "127.0.0.1", quiet: true });
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    guardedListener = await serve(guarded, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await listener.close();
    await guardedListener.close();
    await receiver.close();
  });

  for (const [n, [wire, clientFor]] of WIRES.entries()) {
    it(`lists, subscribes, receives, renews, rotates and unsubscribes over ${wire}`, async () => {
      const client = clientFor(listener.url);
      const path = `/wire${n}`;
      const url = `${receiver.url}${path}`;
      try {
        const listed = await client.events.list();
        assert.deepEqual(listed.map((e) => e.name), ["order.shipped", "stock.low"]); // two pages on MCP
        assert.equal(listed[0].description, "An order left the warehouse");
        assert.deepEqual(listed[0].delivery, ["webhook", "poll", "push"]);
        assert.equal(
          (listed[0].inputSchema as { properties: { customerId: { type: string } } }).properties
            .customerId.type,
          "string",
        );

        const args = { customerId: `c${n}` };
        const sub = await client.events.subscribe("order.shipped", { arguments: args, url, secret: SECRET });
        assert.match(sub.id, /^sub_[A-Za-z0-9_-]+$/);
        assert.equal("secret" in sub, false, "the caller has the secret: the answer does not carry it");
        assert.equal(typeof sub.cursor, "string"); // where the occurrence log stands (issue 88)
        assert.equal(sub.truncated, false);
        assert.ok(Date.parse(sub.refreshBefore!) > Date.now());

        // Delivered asynchronously: emit answers once it handed the occurrence over.
        const first = await server.emit("order.shipped", { orderId: "o1", customerId: `c${n}` });
        assert.equal(first.deliveries, 1);
        assert.equal((await server.emit("order.shipped", { orderId: "o2", customerId: "nobody" })).deliveries, 0);
        const got = await deliveryOf(first.eventId, path);
        assert.equal(got.subscriptionId, sub.id);
        assert.equal(got.webhookId, first.eventId, "ChatGPT's profile: the webhook-id is the event's id");
        assert.equal(got.event.name, "order.shipped");
        assert.deepEqual(got.event.data, { orderId: "o1", customerId: `c${n}` });
        assert.deepEqual(alone.get(got.webhookId), { old: 204, next: 401, neither: 401 });

        // Renewal: the same id, a later expiry.
        const renewed = await client.events.subscribe("order.shipped", {
          arguments: args,
          url,
          secret: SECRET,
          ttlMs: 7_200_000,
        });
        assert.equal(renewed.id, sub.id);
        assert.ok(Date.parse(renewed.refreshBefore!) > Date.now() + 3_600_000);

        // Rotation: a new secret, the same id; during the grace both secrets sign each delivery.
        const rotated = await client.events.subscribe("order.shipped", { arguments: args, url, secret: NEXT });
        assert.equal(rotated.id, sub.id);
        const second = await server.emit("order.shipped", { orderId: "o3", customerId: `c${n}` });
        await deliveryOf(second.eventId, path);
        assert.deepEqual(alone.get(second.eventId), { old: 204, next: 204, neither: 401 });

        // Unsubscribing by name, arguments and callback; then by id.
        await client.events.unsubscribe("order.shipped", { arguments: args, url });
        assert.equal((await server.emit("order.shipped", { orderId: "o4", customerId: `c${n}` })).deliveries, 0);
        const again = await client.events.subscribe("stock.low", { url, secret: SECRET }); // arguments optional
        assert.equal((await server.emit("stock.low", { sku: `s${n}` })).deliveries, 1);
        await client.events.unsubscribe({ id: again.id });
        assert.equal((await server.emit("stock.low", { sku: `s${n}` })).deliveries, 0);
        await assert.rejects(client.events.unsubscribe({ id: again.id }), (error) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.equal(error.rpcCode, -32011); // gone
          return true;
        });
      } finally {
        await client.close();
      }
    });
  }

  // MCP-lite has no initialize: our client declares its capabilities in each extension method's `_meta`, as MCP
  // 2026-07-28 does, so a subscription taken there is on SEP-3415's profile too; one not declaring it, ChatGPT's.
  for (const [n, [wire, clientFor]] of WIRES.entries()) {
    for (const sep of [true, false]) {
      it(`a client ${sep ? "declaring" : "not declaring"} SEP-3415's extension gets ${sep ? "its" : "ChatGPT's"} profile over ${wire}`, async () => {
        // SEP-3415's profile takes webhook subscriptions from an authenticated caller only (below, refused).
        const client = sep
          ? clientFor(guardedListener.url, { extensions: { [EXT]: {} }, headers: bearer("reader") })
          : clientFor(listener.url, {});
        const emitter = sep ? guarded : server;
        const url = `${receiver.url}/sep${n}${sep}`;
        try {
          const sub = await client.events.subscribe("order.shipped", {
            arguments: { customerId: `sep${n}${sep}` },
            url,
            secret: SECRET,
          });
          const { eventId } = await emitter.emit("order.shipped", { orderId: "o1", customerId: `sep${n}${sep}` });
          const got = await deliveryOf(eventId, `/sep${n}${sep}`);
          // SEP-3415 "Signature scheme": "`webhook-id` is the `eventId` for event deliveries"; ChatGPT's alike.
          assert.equal(got.webhookId, eventId);
          assert.equal(got.subscriptionId, sub.id);
          await client.events.unsubscribe({ id: sub.id });
          // Its refusals are numbered by the same profile: not found is -32023 (SEP-3415), -32011 (ChatGPT's).
          await assert.rejects(client.events.unsubscribe({ id: sub.id }), (error) => {
            assert.ok(error instanceof ProtocolError, String(error));
            assert.equal(error.rpcCode, sep ? -32023 : -32011);
            return true;
          });
        } finally {
          await client.close();
        }
      });
    }
    it(`a client declaring SEP-3415's extension, unauthenticated, is refused a webhook subscription over ${wire}`, async () => {
      const client = clientFor(listener.url, { extensions: { [EXT]: {} } });
      try {
        const subscribing = client.events.subscribe("order.shipped", {
          arguments: { customerId: `anon${n}` },
          url: `${receiver.url}/anon${n}`,
          secret: SECRET,
        });
        // SEP-3415 "Subscription identity": "Servers MUST reject calls without an authorized principal with
        // `Forbidden`" (-32024); ChatGPT's profile keeps an unauthenticated server's webhooks (the case above).
        await assert.rejects(subscribing, (error) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.equal(error.rpcCode, -32024);
          return true;
        });
      } finally {
        await client.close();
      }
    });
  }

  it("allows a callback by the allow-list's origin: any port without one, that port only with one (80 included)", async () => {
    const port = Number(new URL(receiver.url).port);
    const url = `${receiver.url}/ports`;
    const subscribes = async (allowCallbacks: string[]) => {
      const shop = createServer({ name: "shop", version: "1.0.0", events: { allowCallbacks } }).event(low);
      const client = createClient(shop, { transport: "mcp-lite" });
      try {
        await client.events.subscribe("stock.low", { url, secret: SECRET });
        return "taken";
      } catch (error) {
        assert.ok(error instanceof ProtocolError, String(error));
        return error.rpcCode;
      } finally {
        await client.close();
      }
    };
    assert.equal(await subscribes(["http://127.0.0.1"]), "taken");
    assert.equal(await subscribes([" http://127.0.0.1/ "]), "taken");
    assert.equal(await subscribes([`http://127.0.0.1:${port}`]), "taken");
    assert.equal(await subscribes([`http://127.0.0.1:${port === 65535 ? 1 : port + 1}`]), -32012);
    assert.equal(await subscribes(["http://127.0.0.1:80"]), -32012); // a default port written out is that port
    assert.equal(await subscribes(["https://127.0.0.1"]), -32012); // the scheme counts
    assert.equal(await subscribes(["http://localhost"]), -32012); // and the host, as written
    assert.equal(await subscribes([]), -32012);
  });

  for (const [wire, clientFor] of WIRES) {
    it(`checks the secret before sending, and surfaces the server's refusals over ${wire}`, async () => {
      const client = clientFor(listener.url);
      const url = `${receiver.url}/refusals`;
      const code = (expected: number, message: RegExp) => (error: unknown) => {
        assert.ok(error instanceof ProtocolError, String(error));
        assert.equal(error.rpcCode, expected, error.message);
        assert.match(error.message, message);
        return true;
      };
      try {
        await assert.rejects(client.events.subscribe("stock.low", { url, secret: "hunter2" }), TypeError);
        await assert.rejects(client.events.subscribe("stock.low", { url, secret: "whsec_a" }), TypeError);
        await assert.rejects(
          client.events.subscribe("stock.low", { url } as unknown as { url: string; secret: string }),
          /`secret` is required/,
        );
        await assert.rejects(
          client.events.subscribe("order.lost" as "stock.low", { url, secret: SECRET }),
          code(-32011, /order\.lost/),
        );
        // https on 127.0.0.1 is not the allow-listed origin (http): loopback, refused.
        await assert.rejects(
          client.events.subscribe("stock.low", { url: "https://127.0.0.1/hook", secret: SECRET }),
          code(-32012, /callback URL is refused/),
        );
        await assert.rejects(
          client.events.subscribe("stock.low", { url: "http://localhost:9/hook", secret: SECRET }),
          code(-32012, /not https/),
        );
        // The receiver does not know this secret: it answers the challenge 401, and the subscription fails.
        const unknown = `whsec_${btoa("a secret the receiver never saw!")}`;
        await assert.rejects(
          client.events.subscribe("stock.low", { url, secret: unknown }),
          code(-32015, /verification challenge: it answered 401/),
        );
        assert.equal((await server.emit("stock.low", { sku: "none" })).deliveries, 0, "no subscription was taken");
        await assert.rejects(
          client.events.subscribe("order.shipped", { arguments: { customerId: 1 } as never, url, secret: SECRET }),
          code(-32602, /input schema/),
        );
      } finally {
        await client.close();
      }
    });
  }
});
