/**
 * SEP-3415's push mode (issue 88), tried by a client written from its text ("Push": a POST of `events/stream` answered
 * by an SSE stream of notifications, cancelled by aborting the request) against a server on 127.0.0.1 over MCP
 * 2026-07-28: `active`, each emitted occurrence with its cursor, a heartbeat carrying the cursor, a reconnect from the
 * last cursor that gets only what was emitted meanwhile; an occurrence emitted on another instance sharing the store;
 * open streams outside the request budgets and bounded by their own (-32013, or -32025 to a client that declared the
 * extension); an aborted request that frees its stream; and where no stream reaches the client, Unsupported. The
 * same on MCP 2025-11-25 over HTTP and on stdio (outside the connection's count of calls; `notifications/cancelled`);
 * idle streams' cost to the store; and a server restarted mid-stream over a redis-server, resumed from the cursor
 * with what was emitted meanwhile, once. The client's side: ./client-stream.test.ts.
 */
import type { SharedStore } from "../../src/store/shared-store.ts";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMemoryResultStore, createServer, type ResultStore, serve } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { EXT, SECRET, shipped } from "./shipped-event.ts";
import { legacyRequest, modernMeta, modernRequest, post } from "../helpers/request.ts";
import { waitFor } from "../helpers/long-running.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

/** A request beside the open streams still answers: `events/list`, 200, the event listed. */
async function assertAnswers(origin: string): Promise<void> {
  const list = modernRequest("events/list");
  const listed = await fetch(`${origin}/mcp`, { method: "POST", headers: list.headers, body: await list.text() });
  assert.equal(listed.status, 200);
  assert.equal((await listed.json()).result.events[0].name, "order.shipped");
}

function serverOf(store: ResultStore = createMemoryResultStore(), options: Record<string, unknown> = {}) {
  const { limits, onError, ...events } = options;
  return createServer({
    name: "shop",
    version: "1.0.0",
    secret: SECRET,
    resultStore: store,
    events: { heartbeatMs: 300, streamPollMs: 50, ...events },
    ...(limits === undefined ? {} : { limits: limits as never }),
    ...(onError === undefined ? {} : { onError: onError as never }),
  }).event(shipped);
}
const order = (orderId: string, customerId = "c1") => ({ orderId, customerId });

type Message = { id?: number; method?: string; params?: any; result?: any; error?: { code: number; message: string } };

/** A push stream as SEP-3415 describes it: one POST, its answer read as SSE, each `data:` one JSON-RPC message. */
class PushStream {
  readonly messages: Message[] = [];
  /** The `events/stream` request's JSON-RPC id (SEP-3415: each notification's subscription id). */
  id: string | number = 0;
  readonly #abort = new AbortController();
  #ended = false;
  /** Who waits for a message (`next`): woken as each arrives, and as the stream ends. */
  readonly #waiting = new Set<() => void>();
  #reading: Promise<void> = Promise.resolve();
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  static async open(url: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}, legacy = false) {
    const stream = new PushStream();
    const request = legacy
      ? legacyRequest("events/stream", params)
      : modernRequest("events/stream", { ...params, _meta: meta });
    const body = await request.text();
    stream.id = JSON.parse(body).id;
    const response = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: request.headers,
      body,
      signal: stream.#abort.signal,
    });
    if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      stream.messages.push(await response.json());
      stream.#end();
      return stream;
    }
    stream.#reading = stream.#read(response.body!);
    return stream;
  }

  async #read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    const reader = this.#reader = body.getReader();
    let buffer = "";
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true });
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = buffer.slice(0, end).split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5));
          buffer = buffer.slice(end + 2);
          if (data.length > 0) this.messages.push(JSON.parse(data.join("\n")));
          for (const wake of this.#waiting) wake();
        }
      }
    } catch { /* aborted */ }
    this.#end();
  }

  #end() {
    this.#ended = true;
    for (const wake of this.#waiting) wake();
  }

  /** The first message that `test` takes, as it arrives (at most 10 s: a bound for a loaded machine). */
  next(test: (message: Message) => boolean, from = 0): Promise<Message> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        const found = this.messages.slice(from).find(test);
        if (found === undefined && !this.#ended) return;
        clearTimeout(timer);
        this.#waiting.delete(wake);
        if (found !== undefined) resolve(found);
        else reject(new Error(`no such message; got ${JSON.stringify(this.messages)}`));
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(wake);
        reject(new Error(`no such message within 10 s; got ${JSON.stringify(this.messages)}`));
      }, 10_000);
      this.#waiting.add(wake);
      wake();
    });
  }

  /** The occurrences' order ids received so far. */
  get orders(): string[] {
    return this.messages.filter((m) => m.method === "notifications/events/event").map((m) => m.params.data.orderId);
  }

  /** The cursor of the last event or heartbeat. */
  get cursor(): string {
    const carrying = this.messages.filter((m) => m.params?.cursor !== undefined && m.method !== undefined);
    return carrying.at(-1)!.params.cursor;
  }

  /** Aborts the request, as SEP-3415 cancels a stream over HTTP (and cancels the body: Deno may not end it). */
  async abort() {
    this.#abort.abort();
    await this.#reader?.cancel().catch(() => {});
    await this.#reading;
  }
}

const method = (name: string) => (message: Message) => message.method === `notifications/events/${name}`;
const params = { name: "order.shipped", arguments: { customerId: "c1" } };

describe("events/stream over MCP 2026-07-28 HTTP", () => {
  it("streams active, each occurrence with its cursor and heartbeats; a reconnect from the cursor misses none, repeats none", async () => {
    const server = serverOf();
    const listening = await serve(server, { port: 0, quiet: true });
    try {
      const first = await PushStream.open(listening.url, { ...params, cursor: null });
      const active = await first.next(method("active"));
      assert.equal(typeof active.params.cursor, "string"); // where it starts: reconnecting from it misses nothing
      assert.equal(active.params.truncated, false);
      // SEP-3415, Push-Based Delivery: every notification names its stream by the request's id.
      const subscription = { "io.modelcontextprotocol/subscriptionId": first.id };
      assert.deepEqual(active.params._meta, subscription);
      await server.emit("order.shipped", order("o1"));
      await server.emit("order.shipped", order("x1", "c2")); // not this caller's
      const event = await first.next(method("event"));
      assert.equal(event.params.name, "order.shipped");
      assert.deepEqual(event.params.data, order("o1"));
      assert.match(event.params.eventId, /^evt_/);
      assert.equal(typeof event.params.cursor, "string");
      assert.deepEqual(event.params._meta, subscription);
      // Quiet for longer than heartbeatMs (300 ms here; at most 30 s): a heartbeat carrying the cursor.
      const heartbeat = await first.next(method("heartbeat"), first.messages.indexOf(event));
      assert.deepEqual(Object.keys(heartbeat.params).sort(), ["_meta", "cursor"]);
      assert.equal(typeof heartbeat.params.cursor, "string");
      assert.deepEqual(heartbeat.params._meta, subscription);
      assert.deepEqual(first.orders, ["o1"]);
      const cursor = first.cursor;
      await first.abort();

      await server.emit("order.shipped", order("o2")); // while no stream is open
      const second = await PushStream.open(listening.url, { ...params, cursor });
      await second.next(method("active"));
      assert.deepEqual((await second.next(method("event"))).params.data, order("o2"));
      await server.emit("order.shipped", order("o3"));
      await second.next((m) => m.params?.data?.orderId === "o3");
      assert.deepEqual(second.orders, ["o2", "o3"]); // nothing twice, nothing missed
      await second.abort();

      // maxAgeMs without a cursor: what the log kept that far back, then the new.
      const replay = await PushStream.open(listening.url, { ...params, maxAgeMs: 60_000 });
      await replay.next((m) => m.params?.data?.orderId === "o3");
      assert.deepEqual(replay.orders, ["o1", "o2", "o3"]);
      await replay.abort();
      // SEP-3415: "`maxAgeMs` is ignored when `cursor` is `null`, because `null` already means 'now'".
      const now = await PushStream.open(listening.url, { ...params, cursor: null, maxAgeMs: 60_000 });
      await server.emit("order.shipped", order("o4"));
      await now.next((m) => m.params?.data?.orderId === "o4");
      assert.deepEqual(now.orders, ["o4"]);
      await now.abort();
    } finally {
      await listening.close();
    }
  });

  it("on MCP 2025-11-25 over HTTP too: the same notifications on the request's SSE answer", async () => {
    const server = serverOf();
    const listening = await serve(server, { port: 0, quiet: true });
    try {
      const stream = await PushStream.open(listening.url, { ...params, cursor: null }, {}, true);
      await stream.next(method("active"));
      await server.emit("order.shipped", order("o1"));
      assert.equal(typeof (await stream.next(method("event"))).params.cursor, "string");
      assert.deepEqual(stream.orders, ["o1"]);
      await stream.abort();
    } finally {
      await listening.close();
    }
  });

  it("an occurrence emitted on another instance sharing the store reaches the stream (its poll of the log)", async () => {
    const store = createMemoryResultStore();
    const [one, other] = [serverOf(store), serverOf(store)];
    const listening = await serve(one, { port: 0, quiet: true });
    try {
      const stream = await PushStream.open(listening.url, { ...params, cursor: null });
      await stream.next(method("active"));
      await other.emit("order.shipped", order("elsewhere"));
      await stream.next(method("event"));
      assert.deepEqual(stream.orders, ["elsewhere"]);
      await stream.abort();
    } finally {
      await listening.close();
    }
  });

  it("idle streams cost the store one read of the log's head per event and interval, not a read per stream", async () => {
    const inner = createMemoryResultStore();
    const reads = new Map<string, number>();
    const store: ResultStore = Object.assign(Object.create(inner), {
      get(key: string) {
        const kind = key.slice(0, key.indexOf(":"));
        reads.set(kind, (reads.get(kind) ?? 0) + 1);
        return inner.get(key);
      },
    });
    const server = serverOf(store, { heartbeatMs: 30_000, streamPollMs: 50 });
    const listening = await serve(server, { port: 0, quiet: true });
    const streams: PushStream[] = [];
    try {
      await server.emit("order.shipped", order("before"));
      for (let i = 0; i < 5; i++) {
        streams.push(await PushStream.open(listening.url, { ...params, cursor: null }));
        await streams[i].next(method("active"));
      }
      reads.clear();
      // About time: what idle streams read over 500 ms, ten poll intervals (one read each at most, not one per stream).
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(reads.get("evocc") ?? 0, 0); // no stream read the log: its head did not move
      assert.ok((reads.get("evhead") ?? 0) <= 11, `evhead read ${reads.get("evhead")} times`); // one per poll
      // A move of the head (an emit on another instance sharing the store) wakes every stream.
      await serverOf(store).emit("order.shipped", order("o1"));
      for (const stream of streams) await stream.next(method("event"));
    } finally {
      for (const stream of streams) await stream.abort();
      await listening.close();
    }
  });

  it("a log that cannot be read is one notifications/events/error ({ error }, SEP-3415), and the stream goes on", async () => {
    // The occurrence log's records (`evocc:`), in the shared store the result store is a view of, out of reach.
    const inner = createMemoryResultStore();
    let down = false;
    const records: SharedStore = {
      ...inner.store!,
      get(key: string) {
        if (down && key.startsWith("evocc")) return Promise.reject(new Error("the store is down"));
        return inner.store!.get(key);
      },
    };
    const store: ResultStore = { ...inner, store: records };
    const heard: unknown[] = [];
    const server = serverOf(store, { onError: (error: unknown) => heard.push(error) });
    const listening = await serve(server, { port: 0, quiet: true });
    try {
      const stream = await PushStream.open(listening.url, { ...params, cursor: null });
      await stream.next(method("active"));
      down = true;
      await server.emit("order.shipped", order("o1"));
      await server.emit("order.shipped", order("o2")); // read again, and failing again: told once
      const error = await stream.next(method("error"));
      assert.deepEqual(Object.keys(error.params).sort(), ["_meta", "error"]);
      assert.equal(error.params.error.code, -32603);
      assert.match(error.params.error.message, /could not be read/);
      assert.deepEqual(error.params._meta, { "io.modelcontextprotocol/subscriptionId": stream.id });
      down = false;
      await stream.next((m) => m.params?.data?.orderId === "o2");
      assert.deepEqual(stream.orders, ["o1", "o2"]); // nothing lost while the log could not be read
      assert.equal(stream.messages.filter(method("error")).length, 1);
      assert.match(String(heard[0]), /the store is down/); // the server's onError hears why
      await stream.abort();
    } finally {
      await listening.close();
    }
  });

  it("open streams are outside the request budgets and bounded by their own; an aborted one frees its place", async () => {
    // Two calls at most (no per-caller share), three streams at most and two per caller.
    const server = serverOf(undefined, {
      maxStreams: 3,
      maxStreamsPerCaller: 2,
      limits: { calls: 2, perCaller: false },
    });
    const listening = await serve(server, { port: 0, quiet: true });
    const streams: PushStream[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        streams.push(await PushStream.open(listening.url, { ...params, cursor: null }));
        await streams[i].next(method("active"));
      }
      // Two streams held, and the calls budget of two still answers requests.
      await assertAnswers(listening.url);
      // The third from the same caller is past its share: ResourceExhausted, in the caller's numbering.
      const refused = await PushStream.open(listening.url, { ...params, cursor: null });
      assert.equal(refused.messages[0].error?.code, -32013);
      const declared = modernMeta({ "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } } });
      const sep = await PushStream.open(listening.url, { ...params, cursor: null }, declared);
      assert.equal(sep.messages[0].error?.code, -32025);
      assert.match(sep.messages[0].error!.message, /push streams/);
      // SEP-3415 "Error Handling": "`data.limit` names it [...], and `data.max` MAY give the ceiling".
      assert.deepEqual((sep.messages[0].error as { data?: unknown }).data, { limit: "streamsPerCaller", max: 2 });
      // Aborting one ends the server's side: its place is free again (within a bounded wait).
      await streams.shift()!.abort();
      let again: PushStream | undefined;
      await waitFor(async () => {
        again = await PushStream.open(listening.url, { ...params, cursor: null });
        return again.messages[0]?.error === undefined;
      }, 10_000);
      await again!.next(method("active"));
      streams.push(again!);
    } finally {
      for (const stream of streams) await stream.abort();
      await listening.close();
    }
  });

  it("200 open streams leave a calls budget of two answering requests; the 201st is past the stream budget", {
    timeout: 120_000,
  }, async () => {
    const server = serverOf(undefined, {
      maxStreams: 200,
      maxStreamsPerCaller: 200,
      limits: { calls: 2, perCaller: false },
    });
    const listening = await serve(server, { port: 0, quiet: true });
    const streams: PushStream[] = [];
    try {
      for (let batch = 0; batch < 4; batch++) {
        const opened = await Promise.all(
          Array.from({ length: 50 }, () => PushStream.open(listening.url, { ...params, cursor: null })),
        );
        streams.push(...opened);
        await Promise.all(opened.map((stream) => stream.next(method("active"))));
      }
      await assertAnswers(listening.url);
      const refused = await PushStream.open(listening.url, { ...params, cursor: null });
      assert.equal(refused.messages[0].error?.code, -32013);
      assert.equal((refused.messages[0].error as { data?: { limit?: string } }).data?.limit, "streams");
      // Each of the 200 still streams: an occurrence reaches them all.
      await server.emit("order.shipped", order("to-all"));
      await Promise.all(streams.map((stream) => stream.next(method("event"))));
    } finally {
      await Promise.all(streams.map((stream) => stream.abort()));
      await listening.close();
    }
  });

  it("where no stream reaches the client (a client that accepts no SSE, on MCP-lite or MCP): Unsupported, -32014", async () => {
    const server = serverOf();
    const lite = await server.fetch(
      post("/mcp-lite/v1/rpc", { jsonrpc: "2.0", id: 1, method: "events/stream", params: { ...params, cursor: null } }),
    );
    assert.equal((await lite.json()).error.code, -32014);
    const plain = await server.fetch(
      modernRequest("events/stream", { ...params, cursor: null }, 1, { accept: "application/json" }),
    );
    assert.equal((await plain.json()).error.code, -32014);
    // A forged cursor is refused as an answer, before any stream opens.
    const forged = await server.fetch(modernRequest("events/stream", { ...params, cursor: "x.1.y" }));
    const text = await forged.text();
    assert.equal(JSON.parse(text.slice(text.indexOf("{"))).error.code, -32602);
    // An event served without push refuses it.
    const narrowed = createServer({ name: "s", version: "1.0.0" }).event(
      defineEvent("hook.only").delivery(["webhook"]),
    );
    const hook = await narrowed.fetch(modernRequest("events/stream", { name: "hook.only", cursor: null }));
    assert.equal((await hook.json()).error.code, -32014);
  });
});

describe("events/stream on stdio (MCP 2026-07-28 messages)", () => {
  it("streams on the connection outside its budget of calls; notifications/cancelled ends it and frees its place", async () => {
    const server = serverOf(undefined, { maxStreams: 1, limits: { calls: 1, perCaller: false } });
    const piped = pipeServer(server);
    const stream = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "events/stream",
      params: { ...params, cursor: null, _meta: modernMeta() },
    });
    const of = (id: number, name: string) => (m: Record<string, any>) =>
      m.method === `notifications/events/${name}` && m.params?.cursor !== undefined && m.id === undefined &&
      (name !== "event" || m.params.data.orderId === `s${id}`);
    try {
      piped.send(stream(1));
      await piped.next(of(1, "active"));
      await server.emit("order.shipped", order("s1"));
      await piped.next(of(1, "event"));
      // The one call of the budget is free: a request beside the stream is answered, not refused (-32029).
      piped.send({ jsonrpc: "2.0", id: 2, method: "events/list", params: { _meta: modernMeta() } });
      assert.equal(((await piped.answer(2)).result as { events: unknown[] }).events.length, 1);
      // A second stream is past events.maxStreams (1) until the first is cancelled.
      piped.send(stream(3));
      assert.equal(((await piped.answer(3)).error as { code: number }).code, -32013);
      piped.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
      const actives = () => piped.messages.filter((m) => m.method === "notifications/events/active").length;
      let id = 4;
      // Opens another stream until one is active (the cancelled one's place freed), each refused one -32013.
      await waitFor(async () => {
        piped.send(stream(id));
        const quiet = () => undefined; // the race's loser times out later, unheard
        const answer = await Promise.race([
          piped.answer(id).catch(quiet),
          piped.next(() => actives() === 2).catch(quiet),
        ]);
        if (actives() < 2) assert.equal((answer?.error as { code: number }).code, -32013);
        id++;
        return actives() >= 2;
      }, 10_000);
    } finally {
      await piped.end();
    }
  });
});

describe("events/stream on stdio: two streams on one connection", () => {
  it("names each notification's stream by its request's id (SEP-3415 subscriptionId), so a client routes them", async () => {
    const server = serverOf();
    const piped = pipeServer(server);
    const open = (id: string, customerId: string) =>
      piped.send({
        jsonrpc: "2.0",
        id,
        method: "events/stream",
        params: { name: "order.shipped", arguments: { customerId }, cursor: null, _meta: modernMeta() },
      });
    const of = (id: string) => (m: Record<string, any>) =>
      m.params?._meta?.["io.modelcontextprotocol/subscriptionId"] === id;
    try {
      open("ada", "c1");
      open("bob", "c2");
      await piped.next((m) => of("ada")(m) && m.method === "notifications/events/active");
      await piped.next((m) => of("bob")(m) && m.method === "notifications/events/active");
      await server.emit("order.shipped", order("for-bob", "c2"));
      await server.emit("order.shipped", order("for-ada", "c1"));
      const eventOf = async (id: string) =>
        (await piped.next((m) => of(id)(m) && m.method === "notifications/events/event")) as Message;
      assert.equal((await eventOf("ada")).params.data.orderId, "for-ada");
      assert.equal((await eventOf("bob")).params.data.orderId, "for-bob");
      const streamed = piped.messages.filter((m) => String(m.method).startsWith("notifications/events/"));
      assert.ok(streamed.every((m) => of("ada")(m) || of("bob")(m)), JSON.stringify(streamed));
      piped.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "ada" } });
      piped.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "bob" } });
    } finally {
      await piped.end();
    }
  });
});

describe("events/stream across a restart, the store in a redis-server", { skip: REDIS_MISSING }, () => {
  let redis: RedisServer;
  let client: TestRedisClient;
  before(async () => {
    redis = await startRedis();
    client = await REDIS_CLIENTS[0].connect(redis.url);
  });
  after(async () => {
    client?.close();
    await redis?.stop();
  });

  it("the server restarted mid-stream: a reconnect with the cursor gets what was emitted meanwhile, once", async () => {
    const store = redisResultStore(client.client, { prefix: `push:${crypto.randomUUID()}:` });
    const before = serverOf(store);
    const first = await serve(before, { port: 0, quiet: true });
    const stream = await PushStream.open(first.url, { ...params, cursor: null });
    await stream.next(method("active"));
    await before.emit("order.shipped", order("o1"));
    await stream.next(method("event"));
    const cursor = stream.cursor;
    await stream.abort();
    await first.close(); // the instance goes away

    const after = serverOf(store); // its successor: the same store and secret
    await after.emit("order.shipped", order("o2")); // emitted while no stream was open
    const second = await serve(after, { port: 0, quiet: true });
    try {
      const resumed = await PushStream.open(second.url, { ...params, cursor });
      await resumed.next(method("active"));
      await after.emit("order.shipped", order("o3"));
      await resumed.next((m) => m.params?.data?.orderId === "o3");
      assert.deepEqual(resumed.orders, ["o2", "o3"]);
      await resumed.abort();
    } finally {
      await second.close();
    }
  });
});
