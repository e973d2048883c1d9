/**
 * A ChatGPT-profile client, written from OpenAI's "MCP Events" guide for plugins (2026-09-29): a 2026-07-28 server
 * advertising `"events": {}` in `server/discover`; `events/list`, `events/subscribe` with a `whsec_` secret and
 * `events/unsubscribe`; an HTTPS challenge answered before the first delivery; Standard Webhooks signatures
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`) and `X-MCP-Subscription-Id` on every POST, one event of at
 * most 256 KiB per request; no private addresses; no redirects followed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { Webhook } from "standardwebhooks";
import { createServer, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { modernRequest } from "../helpers/request.ts";
import { waitFor } from "../helpers/long-running.ts";

const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);

interface Hit {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A `whsec_` secret of 32 random bytes, as the guide has the client make one. */
function secret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

describe("a ChatGPT-profile client (OpenAI's MCP Events guide) against our server", () => {
  const hits: Hit[] = [];
  /** What the receiver answers an event POST on /gone: 410 ends the subscription. */
  let receiver: Listener;
  let origin = "";
  // deno-lint-ignore no-explicit-any
  let server: any;
  // deno-lint-ignore no-explicit-any
  const rpc = async (method: string, params: Record<string, unknown>): Promise<any> =>
    await (await server.fetch(modernRequest(method, params))).json();

  before(async () => {
    receiver = await serve({
      fetch: async (request: Request) => {
        const url = new URL(request.url);
        const body = await request.text();
        hits.push({ path: url.pathname, headers: Object.fromEntries(request.headers), body });
        if (url.pathname === "/moved") return new Response(null, { status: 307, headers: { location: "/hook" } });
        const parsed = JSON.parse(body);
        if (parsed.type === "verification") return Response.json({ challenge: parsed.challenge });
        return new Response(null, { status: url.pathname === "/gone" ? 410 : 204 });
      },
    }, { port: 0, hostname: "127.0.0.1", quiet: true });
    origin = `http://127.0.0.1:${receiver.port}`;
    server = createServer({ name: "shop", version: "1.0.0", events: { allowCallbacks: [origin] } }).event(shipped);
  });
  after(async () => await receiver?.close());

  it("advertises events at the top level of server/discover (and the SEP-3415 extension beside it)", async () => {
    const { result } = await rpc("server/discover", {});
    assert.deepEqual(result.capabilities.events, {});
    assert.ok(result.capabilities.extensions?.["io.modelcontextprotocol/events"]);
    assert.ok(result.supportedVersions.includes("2026-07-28"));
  });

  it("lists the event with its input and payload schemas", async () => {
    const { result } = await rpc("events/list", {});
    const event = result.events.find((e: { name: string }) => e.name === "order.shipped");
    assert.equal(event.description, "An order left the warehouse");
    assert.deepEqual(event.delivery, ["webhook", "poll", "push"]);
    assert.deepEqual(event.inputSchema.required, ["customerId"]);
    assert.deepEqual(event.payloadSchema.required.sort(), ["customerId", "orderId"]);
  });

  it("challenges the callback before the first delivery, then signs each one as Standard Webhooks says", async () => {
    const key = secret();
    hits.length = 0;
    const { result } = await rpc("events/subscribe", {
      name: "order.shipped",
      arguments: { customerId: "c1" },
      delivery: { mode: "webhook", url: `${origin}/hook`, secret: key },
    });
    assert.match(result.id, /^sub_/);
    assert.equal(hits.length, 1, "one verification request before the subscription answered");
    const challenge = hits[0];
    assert.equal(JSON.parse(challenge.body).type, "verification");
    assert.equal(challenge.headers["x-mcp-subscription-id"], result.id);
    new Webhook(key).verify(challenge.body, challenge.headers); // throws when the signature is wrong

    const again = await rpc("events/subscribe", {
      name: "order.shipped",
      arguments: { customerId: "c1" },
      delivery: { mode: "webhook", url: `${origin}/hook`, secret: key },
    });
    assert.equal(again.result.id, result.id, "a refresh answers the same id");

    const emitted = await server.emit("order.shipped", { orderId: "o1", customerId: "c1" });
    await waitFor(() => hits.some((h) => h.body.includes(emitted.eventId)));
    const delivery = hits.find((h) => h.body.includes(emitted.eventId))!;
    new Webhook(key).verify(delivery.body, delivery.headers);
    assert.equal(delivery.headers["webhook-id"], emitted.eventId);
    assert.equal(delivery.headers["x-mcp-subscription-id"], result.id);
    assert.equal(delivery.headers["content-type"], "application/json");
    const event = JSON.parse(delivery.body);
    assert.deepEqual(event.data, { orderId: "o1", customerId: "c1" });
    assert.equal(event.name, "order.shipped");
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
    assert.ok(new TextEncoder().encode(delivery.body).length <= 256 * 1024);

    const gone = await rpc("events/unsubscribe", {
      name: "order.shipped",
      arguments: { customerId: "c1" },
      delivery: { mode: "webhook", url: `${origin}/hook` },
    });
    assert.equal(gone.error, undefined);
    assert.equal(gone.result.resultType, "complete");
    assert.equal((await server.emit("order.shipped", { orderId: "o2", customerId: "c1" })).deliveries, 0);
  });

  it("refuses a payload over 256 KiB when it is emitted", async () => {
    await assert.rejects(
      server.emit("order.shipped", { orderId: "x".repeat(256 * 1024), customerId: "c1" }),
      RangeError,
    );
  });

  it("refuses private, loopback and link-local callbacks that are not allow-listed (-32012)", async () => {
    for (
      const url of [
        "https://10.0.0.1/hook",
        "https://169.254.169.254/latest",
        "https://[::1]/hook",
        `https://127.0.0.1:${receiver.port}/hook`,
        `http://localhost:${receiver.port}/hook`,
        "http://example.com/hook",
      ]
    ) {
      const { error } = await rpc("events/subscribe", {
        name: "order.shipped",
        arguments: { customerId: "c1" },
        delivery: { mode: "webhook", url, secret: secret() },
      });
      assert.equal(error?.code, -32012, url);
    }
  });

  it("follows no redirect: a challenge answered 307 fails the subscription (-32015)", async () => {
    const { error } = await rpc("events/subscribe", {
      name: "order.shipped",
      arguments: { customerId: "c9" },
      delivery: { mode: "webhook", url: `${origin}/moved`, secret: secret() },
    });
    assert.equal(error?.code, -32015);
    assert.ok(!hits.some((h) => h.path === "/hook" && JSON.parse(h.body).data?.customerId === "c9"));
  });

  it("ends a subscription whose receiver answers 410", async () => {
    const { result } = await rpc("events/subscribe", {
      name: "order.shipped",
      arguments: { customerId: "c3" },
      delivery: { mode: "webhook", url: `${origin}/gone`, secret: secret() },
    });
    assert.match(result.id, /^sub_/);
    const first = await server.emit("order.shipped", { orderId: "o3", customerId: "c3" });
    assert.equal(first.deliveries, 1);
    await waitFor(() => hits.some((h) => h.path === "/gone" && h.body.includes(first.eventId)));
    let ended = false;
    // Emits until one reaches no subscription (the 410's end recorded once its answer was read).
    await waitFor(
      async () => ended = (await server.emit("order.shipped", { orderId: "o4", customerId: "c3" })).deliveries === 0,
      5_000,
    )
      .catch(() => {}); // asserted next
    assert.ok(ended, "the 410 ended the subscription");
  });
});
