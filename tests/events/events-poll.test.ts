/**
 * SEP-3415's poll mode on the occurrence log (issue 88): `events/poll` from a null cursor, then each answer's cursor,
 * on MCP 2026-07-28, 2025-11-25 and MCP-lite; `maxEvents`, `hasMore` and `nextPollMs`; `truncated` past the count
 * and past retention; a forged cursor refused; the codes by profile (ChatGPT's, or SEP-3415's to a client that
 * declared the extension); a webhook subscription taken with `maxAgeMs` sent what it missed; and two instances
 * sharing one redis-server (or one PostgreSQL), emitting at once, polled alternately: every occurrence once, in one
 * order; and
 * `client.events.poll()`, typed by the server, following `hasMore` at once and waiting out `nextPollMs`; and the
 * same poll on stdio and over a WebSocket, which share the JSON-RPC dispatch.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createMemoryResultStore,
  createServer,
  mcpBinding,
  mcpLiteBinding,
  type ResultStore,
  serve,
} from "../../mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { createClient } from "../../src/client/mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { EXT, SECRET, shipped } from "./shipped-event.ts";
import pg from "pg";
import { redisResultStore } from "../../src/redis/mod.ts";
import { postgresResultStore } from "../../src/postgres/mod.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";
import { legacyRequest, modernMeta, modernRequest, post } from "../helpers/request.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { newSecret, type Receiver, startReceiver } from "./receiver.ts";

const hooked = defineEvent("hook.only").delivery(["webhook"]);

type Answer = { result?: any; error?: { code: number; message: string } };
async function message(response: Response): Promise<Answer> {
  const text = await response.text();
  const data = text.trimStart().startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data:"))!.slice(5);
  return JSON.parse(data);
}

type Server = ReturnType<typeof serverOf>;
function serverOf(store: ResultStore = createMemoryResultStore(), events: Record<string, unknown> = {}) {
  return createServer({ name: "shop", version: "1.0.0", secret: SECRET, resultStore: store, events })
    .event(shipped).event(hooked);
}

type Wire = "2026" | "2025" | "lite";
const WIRES: readonly Wire[] = ["2026", "2025", "lite"];
async function poll(
  server: { fetch(request: Request): Promise<Response> },
  params: Record<string, unknown>,
  wire: Wire = "2026",
): Promise<Answer> {
  const request = wire === "2026"
    ? modernRequest("events/poll", params)
    : wire === "2025"
    ? legacyRequest("events/poll", params)
    : post("/mcp-lite/v1/rpc", { jsonrpc: "2.0", id: 1, method: "events/poll", params });
  return await message(await server.fetch(request));
}
const order = (orderId: string, customerId = "c1") => ({ orderId, customerId });
const sep = { _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } }) };

describe("events/poll", () => {
  for (const wire of WIRES) {
    it(`on ${wire}: a null cursor starts now, each answer's cursor goes on from there, matched only`, async () => {
      const server = serverOf();
      await server.emit("order.shipped", order("before"));
      const first = await poll(server, { name: "order.shipped", arguments: { customerId: "c1" }, cursor: null }, wire);
      assert.equal(first.error, undefined, JSON.stringify(first.error));
      assert.deepEqual(first.result.events, []);
      assert.equal(first.result.truncated, false);
      assert.equal(first.result.hasMore, false);
      assert.equal(first.result.nextPollMs, 5_000);
      assert.equal(typeof first.result.cursor, "string");
      await server.emit("order.shipped", order("o1"));
      await server.emit("order.shipped", order("x", "c2")); // not matched
      await server.emit("order.shipped", order("o2"));
      const args = { name: "order.shipped", arguments: { customerId: "c1" } };
      const second = await poll(server, { ...args, cursor: first.result.cursor }, wire);
      assert.deepEqual(second.result.events.map((e: any) => e.data.orderId), ["o1", "o2"]);
      for (const event of second.result.events) {
        assert.equal(event.name, "order.shipped");
        assert.match(event.eventId, /^evt_/);
        assert.equal(typeof event.cursor, "string");
      }
      assert.equal(second.result.cursor, second.result.events[1].cursor);
      const third = await poll(server, { ...args, cursor: second.result.cursor }, wire);
      assert.deepEqual(third.result.events, []);
      assert.equal(third.result.cursor, second.result.cursor);
      // From an event's own cursor: what came after it.
      const fromFirst = await poll(server, { ...args, cursor: second.result.events[0].cursor }, wire);
      assert.deepEqual(fromFirst.result.events.map((e: any) => e.data.orderId), ["o2"]);
    });
  }

  it("maxEvents pages: hasMore with nextPollMs 0 until the last page", async () => {
    const server = serverOf();
    const args = { name: "order.shipped", arguments: { customerId: "c1" } };
    let { result } = await poll(server, { ...args, cursor: null });
    for (let i = 0; i < 5; i++) await server.emit("order.shipped", order(`o${i}`));
    const seen: string[] = [];
    for (let page = 0; page < 10; page++) {
      ({ result } = await poll(server, { ...args, cursor: result.cursor, maxEvents: 2 }));
      seen.push(...result.events.map((e: any) => e.data.orderId));
      assert.equal(result.nextPollMs, result.hasMore ? 0 : 5_000);
      if (!result.hasMore) break;
    }
    assert.deepEqual(seen, ["o0", "o1", "o2", "o3", "o4"]);
  });

  it("maxAgeMs without a cursor replays what is kept; truncated once the count dropped what a cursor wants", async () => {
    const server = serverOf(createMemoryResultStore(), { maxOccurrences: 3 });
    const args = { name: "order.shipped", arguments: { customerId: "c1" } };
    const start = await poll(server, { ...args, cursor: null });
    for (let i = 0; i < 5; i++) await server.emit("order.shipped", order(`o${i}`));
    const replayed = await poll(server, { ...args, maxAgeMs: 60_000 });
    assert.deepEqual(replayed.result.events.map((e: any) => e.data.orderId), ["o2", "o3", "o4"]);
    // SEP-3415: "`maxAgeMs` is ignored when `cursor` is `null`, because `null` already means 'now'".
    const now = await poll(server, { ...args, cursor: null, maxAgeMs: 60_000 });
    assert.deepEqual(now.result.events, []);
    const late = await poll(server, { ...args, cursor: start.result.cursor });
    assert.equal(late.result.truncated, true);
    assert.deepEqual(late.result.events.map((e: any) => e.data.orderId), ["o2", "o3", "o4"]);
  });

  it("truncated once retention dropped what a cursor wants (the store's clock moved past retainMs)", async () => {
    let now = Date.now();
    const store = createMemoryResultStore({ now: () => now });
    const server = serverOf(store, { retainMs: 60_000 });
    const args = { name: "order.shipped", arguments: { customerId: "c1" } };
    const start = await poll(server, { ...args, cursor: null });
    await server.emit("order.shipped", order("old"));
    now += 61_000;
    await server.emit("order.shipped", order("new"));
    const late = await poll(server, { ...args, cursor: start.result.cursor });
    assert.equal(late.result.truncated, true);
    assert.deepEqual(late.result.events.map((e: any) => e.data.orderId), ["new"]);
  });

  it("refuses a forged cursor and one sealed by another server secret (-32602); poll outside an event.s modes (-32014)", async () => {
    const server = serverOf();
    const args = { name: "order.shipped", arguments: { customerId: "c1" } };
    const { result } = await poll(server, { ...args, cursor: null });
    const [life, n, mac] = (result.cursor as string).split(".");
    for (const cursor of [`${life}.${Number(n) + 5}.${mac}`, "garbage", `${life}.${n}`]) {
      const refused = await poll(server, { ...args, cursor });
      assert.equal(refused.error?.code, -32602, cursor);
      assert.match(refused.error!.message, /cursor/);
    }
    const other = await poll(server, { name: "hook.only", cursor: null });
    assert.equal(other.error?.code, -32014); // poll is not among its modes
    const elsewhere = createServer({ name: "s", version: "1", secret: "another secret of at least 32 bytes!!!" })
      .event(shipped);
    assert.equal((await poll(elsewhere, { ...args, cursor: result.cursor })).error?.code, -32602);
  });
});

describe("codes by profile", () => {
  it("ChatGPT's -32011 and -32014 to a client that declared nothing, SEP-3415's -32023 and -32026 otherwise", async () => {
    const server = serverOf();
    assert.equal((await poll(server, { name: "no.such", cursor: null })).error?.code, -32011);
    assert.equal((await poll(server, { name: "no.such", cursor: null, ...sep })).error?.code, -32023);
    assert.equal((await poll(server, { name: "hook.only", cursor: null })).error?.code, -32014);
    assert.equal((await poll(server, { name: "hook.only", cursor: null, ...sep })).error?.code, -32026);
    // MCP-lite has no initialize: a request declares the extension in its _meta, under MCP 2026-07-28's key.
    const declared = { _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } } };
    assert.equal((await poll(server, { name: "no.such", cursor: null }, "lite")).error?.code, -32011);
    assert.equal((await poll(server, { name: "no.such", cursor: null, ...declared }, "lite")).error?.code, -32023);
    assert.equal((await poll(server, { name: "hook.only", cursor: null, ...declared }, "lite")).error?.code, -32026);
    const unsubscribed = await message(
      await server.fetch(modernRequest("events/unsubscribe", { id: "sub_x", ...sep })),
    );
    // SEP-3415 "Subscription identity": an unauthenticated `events/unsubscribe` is `Forbidden`, whatever it names.
    assert.equal(unsubscribed.error?.code, -32024);
    const push = {
      name: "order.shipped",
      arguments: { customerId: "c1" },
      delivery: { mode: "push" },
      ...sep,
    };
    assert.equal((await message(await server.fetch(modernRequest("events/subscribe", push)))).error?.code, -32026);
    // A 2025 session whose initialize declared the extension.
    const initialize = await server.fetch(legacyRequest("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { extensions: { [EXT]: {} } },
      clientInfo: { name: "t", version: "0" },
    }));
    const session = { "mcp-session-id": initialize.headers.get("mcp-session-id")! };
    await initialize.body?.cancel();
    const legacy = await message(
      await server.fetch(legacyRequest("events/poll", { name: "no.such", cursor: null }, 2, "2025-11-25", session)),
    );
    assert.equal(legacy.error?.code, -32023);
  });

  it("events/list advertises each event's modes (every mode by default)", async () => {
    const server = serverOf();
    const { result } = await message(await server.fetch(modernRequest("events/list")));
    assert.deepEqual(result.events.map((e: any) => [e.name, e.delivery]), [
      ["order.shipped", ["webhook", "poll", "push"]],
      ["hook.only", ["webhook"]],
    ]);
    assert.throws(() => defineEvent("x").delivery([]), TypeError);
    assert.throws(() => defineEvent("x").delivery(["fax" as never]), TypeError);
  });
});

describe("a webhook subscription resumes", () => {
  let receiver: Receiver;
  const secrets: string[] = [];
  before(async () => receiver = await startReceiver(() => secrets));
  after(() => receiver.close());

  it("taken with maxAgeMs, it is sent the kept occurrences it missed, then the new ones", async () => {
    const server = serverOf(createMemoryResultStore(), { allowCallbacks: [receiver.url] });
    const missed = await server.emit("order.shipped", order("missed", "r1"));
    await server.emit("order.shipped", order("other", "r2"));
    const secret = newSecret();
    secrets.push(secret);
    const params = {
      name: "order.shipped",
      arguments: { customerId: "r1" },
      delivery: { mode: "webhook", url: `${receiver.url}/replay`, secret },
      maxAgeMs: 60_000,
    };
    const { result } = await message(await server.fetch(modernRequest("events/subscribe", params)));
    assert.equal(result.truncated, false);
    assert.equal(typeof result.cursor, "string");
    assert.deepEqual((await receiver.delivered(missed.eventId)).body.data, order("missed", "r1"));
    const fresh = await server.emit("order.shipped", order("fresh", "r1"));
    assert.equal((await receiver.delivered(fresh.eventId)).verified, true);
    assert.equal(receiver.received.filter((r) => (r.body.data as any)?.customerId === "r2").length, 0);
  });
});

describe("two instances over one redis-server", { skip: REDIS_MISSING }, () => {
  let redis: RedisServer | undefined;
  const clients: TestRedisClient[] = [];
  before(async () => {
    redis = await startRedis();
    for (const kind of REDIS_CLIENTS) clients.push(await kind.connect(redis.url));
  });
  after(async () => {
    for (const client of clients) client.close();
    await redis?.stop();
  });

  it("emitting at once and polled alternately from a null cursor: every occurrence once, in one order", async () => {
    const prefix = `test:${crypto.randomUUID()}:`;
    const stores = clients.map((c) => redisResultStore(c.client, { prefix }));
    await everyOccurrenceOnce(stores, () => redisResultStore(clients[0].client, { prefix }));
  });
});

describe("client.events.poll()", () => {
  const server = serverOf(createMemoryResultStore(), { pollIntervalMs: 60_000 });
  const sent: string[] = [];
  const target = {
    fetch: async (request: Request) => {
      const body = await request.clone().json().catch(() => ({}));
      if (body.method === "events/poll") sent.push(body.params.cursor ?? "null");
      return await server.fetch(request);
    },
  };
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => target.fetch(new Request(input, init));
  const CLIENTS = [
    ["MCP 2026-07-28", () => createClient<typeof server>("http://localhost/mcp", { transport: "mcp", fetch })],
    [
      "MCP 2025-11-25",
      () =>
        createClient<typeof server>("http://localhost/mcp", { transport: "mcp", protocolVersion: "2025-11-25", fetch }),
    ],
    ["MCP-lite", () => createClient<typeof server>("http://localhost", { transport: "mcp-lite", fetch })],
  ] as const;

  for (const [wire, clientOf] of CLIENTS) {
    it(`over ${wire}: typed, follows hasMore at once, and waits out nextPollMs before polling a cursor again`, async () => {
      const client = clientOf();
      const args = { customerId: wire };
      // Where the log stands, from another poller: this client was told no pace for it.
      const start = (await poll(server, { name: "order.shipped", arguments: args, cursor: null })).result.cursor;
      for (let i = 0; i < 150; i++) await server.emit("order.shipped", order(`${i}`, wire));
      sent.length = 0;
      const page = await client.events.poll("order.shipped", { arguments: args, cursor: start, maxEvents: 150 });
      const ids: string[] = page.events.map((event) => event.data.orderId); // typed by the server's payload
      assert.deepEqual(ids, Array.from({ length: 150 }, (_, i) => `${i}`));
      assert.equal(sent.length, 2, "100 a request at most: the client asked again at once, as hasMore said");
      assert.equal(page.hasMore, false);
      assert.equal(page.nextPollMs, 60_000);
      // The cursor it was answered asks for a wait of 60 s: polling from it at once waits (a short signal ends it),
      // and sends nothing.
      sent.length = 0;
      await assert.rejects(
        client.events.poll("order.shipped", { arguments: args, cursor: page.cursor }, {
          signal: AbortSignal.timeout(50),
        }),
      );
      assert.deepEqual(sent, []);
      // A page of 2 while more are kept: the server answers nextPollMs 0, and the client goes on at once.
      const paged = await client.events.poll("order.shipped", { arguments: args, cursor: start, maxEvents: 2 });
      assert.deepEqual(paged.events.map((e) => e.data.orderId), ["0", "1"]);
      assert.equal(paged.hasMore, true);
      assert.equal(paged.nextPollMs, 0);
      const rest = await client.events.poll("order.shipped", { arguments: args, cursor: paged.cursor, maxEvents: 3 });
      assert.deepEqual(rest.events.map((e) => e.data.orderId), ["2", "3", "4"]);
      // @ts-expect-error: no such event on this server
      void (() => client.events.poll("order.shiped"));
    });
  }
});

describe("events/poll on stdio and WebSocket (the same JSON-RPC dispatch)", () => {
  it("stdio (MCP 2026-07-28 messages): a poll from a null cursor, then from its cursor; SEP-3415's codes when declared", async () => {
    const server = serverOf();
    const piped = pipeServer(server);
    try {
      const args = { name: "order.shipped", arguments: { customerId: "c1" } };
      piped.send({
        jsonrpc: "2.0",
        id: 1,
        method: "events/poll",
        params: { ...args, cursor: null, _meta: modernMeta() },
      });
      const first = (await piped.answer(1)).result as { cursor: string };
      await server.emit("order.shipped", order("s1"));
      piped.send({
        jsonrpc: "2.0",
        id: 2,
        method: "events/poll",
        params: { ...args, cursor: first.cursor, _meta: modernMeta() },
      });
      const second = (await piped.answer(2)).result as { events: { data: { orderId: string } }[] };
      assert.deepEqual(second.events.map((e) => e.data.orderId), ["s1"]);
      piped.send({ jsonrpc: "2.0", id: 3, method: "events/poll", params: { name: "no.such", cursor: null, ...sep } });
      assert.equal(((await piped.answer(3)).error as { code: number }).code, -32023);
    } finally {
      await piped.end();
    }
  });

  it("WebSocket (MCP-lite's): client.events.poll() from a null cursor, then from its cursor", async () => {
    const server = createServer({
      name: "shop",
      version: "1.0.0",
      secret: SECRET,
      bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding()],
    }).event(shipped);
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = createClient<typeof server>(
      createWebSocketTransport(`${listener.url.replace(/^http/, "ws")}/mcp-lite/v1/ws`),
    );
    try {
      const first = await client.events.poll("order.shipped", { arguments: { customerId: "c1" }, cursor: null });
      await server.emit("order.shipped", order("w1"));
      // Another client's poll from that cursor (this one would wait out the 5 s nextPollMs first).
      const { result } = await poll(server, {
        name: "order.shipped",
        arguments: { customerId: "c1" },
        cursor: first.cursor,
      });
      assert.deepEqual(result.events.map((e: any) => e.data.orderId), ["w1"]);
      const later = await client.events.poll("order.shipped", {
        arguments: { customerId: "c1" },
        cursor: null,
        maxAgeMs: 60_000,
      });
      assert.deepEqual(later.events.map((e) => e.data.orderId), ["w1"]);
    } finally {
      await client.close();
      await listener.close();
    }
  });
});

/**
 * Two instances over one shared store, emitting at once (ten at a time, alternately) and polled alternately, three
 * events at a time, from a null cursor: every occurrence once, in one order; then an instance started again over the
 * store goes on from a cursor.
 */
async function everyOccurrenceOnce(stores: readonly ResultStore[], restart: () => ResultStore): Promise<void> {
  const servers = stores.map((store) => serverOf(store));
  const args = { name: "order.shipped", arguments: { customerId: "c1" } };
  let { result } = await poll(servers[0], { ...args, cursor: null });
  const emitted: string[] = [];
  const seen: string[] = [];
  for (let round = 0; round < 4; round++) {
    const ids = await Promise.all(
      Array.from({ length: 10 }, (_, i) => servers[i % 2].emit("order.shipped", order(`r${round}-${i}`))),
    );
    emitted.push(...ids.map((e) => e.eventId));
    for (let page = 0; page < 20; page++) {
      ({ result } = await poll(servers[page % 2], { ...args, cursor: result.cursor, maxEvents: 3 }));
      assert.equal(result.truncated, false);
      seen.push(...result.events.map((e: any) => e.eventId));
      if (!result.hasMore) break;
    }
  }
  assert.deepEqual([...seen].sort(), [...emitted].sort());
  assert.equal(new Set(seen).size, seen.length);
  // The log's order is one: both instances read it alike.
  const all = await Promise.all(servers.map((s) => poll(s, { ...args, maxAgeMs: 60_000 })));
  assert.deepEqual(all[0].result.events.map((e: any) => e.eventId), all[1].result.events.map((e: any) => e.eventId));
  // A restart: a new instance over the same store goes on from a cursor.
  const restarted = serverOf(restart());
  const later = await restarted.emit("order.shipped", order("after-restart"));
  const resumed = await poll(restarted, { ...args, cursor: result.cursor });
  assert.deepEqual(resumed.result.events.map((e: any) => e.eventId), [later.eventId]);
}

describe("two instances over one PostgreSQL", { skip: POSTGRES_MISSING }, () => {
  let postgres: PostgresServer | undefined;
  const pools: pg.Pool[] = [];
  before(async () => {
    postgres = await startPostgres();
    for (let i = 0; i < 2; i++) {
      const pool = new pg.Pool({ connectionString: postgres.url, max: 5 });
      pool.on("error", () => {});
      pools.push(pool);
    }
  });
  after(async () => {
    for (const pool of pools) await pool.end();
    await postgres?.remove();
  });

  it("emitting at once and polled alternately from a null cursor: every occurrence once, in one order", async () => {
    const stores = pools.map((pool) => postgresResultStore(pool, { table: "events_log" }));
    await everyOccurrenceOnce(stores, () => postgresResultStore(pools[0], { table: "events_log" }));
  });
});
