/**
 * SEP-3415's push mode over gRPC (issue 88, item 1): `events/stream` as `CallMethodStream` (this SDK's MCP-lite
 * extension E5), tried by Connect's own client written against the proto, over Connect and gRPC-Web on a server's
 * fetch and over gRPC on HTTP/2 (`serveGrpc()`): `active`, each emitted occurrence with its cursor, a heartbeat;
 * cancelling the call ends the stream on the server (its place under `events.maxStreams` free again); a resume from
 * the cursor gets what was emitted meanwhile, once; a held stream leaves the request budgets; `server.drain()` ends it
 * with its final result. Then grpc-js (under Node) streams it, and `client.events.stream()` over our gRPC transport
 * yields occurrences.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Client as ConnectClient, Code, ConnectError, createClient as connectClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { JsonObject } from "@bufbuild/protobuf";
import { createMemoryResultStore, createServer, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding, type GrpcListener, MCPLite, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { SECRET, shipped } from "./shipped-event.ts";
import { closeClientSessions, grpcOverH2 } from "../helpers/h2-sessions.ts";
import { grpcJs } from "../bindings/grpc/grpc-fixtures.ts";
import { waitFor } from "../helpers/long-running.ts";
import { ErrorInfoSchema } from "../../src/gen/google/rpc/error_details_pb.ts";

/** What a test waits for at most: room for a loaded machine, not a measure. */
const WAIT_MS = 10_000;
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

function serverOf(events: Record<string, unknown> = {}, limits?: Record<string, unknown>) {
  return createServer({
    name: "shop",
    version: "1.0.0",
    secret: SECRET,
    resultStore: createMemoryResultStore(),
    events: { heartbeatMs: 300, streamPollMs: 50, ...events },
    bindings: [grpcBinding()],
    ...(limits === undefined ? {} : { limits: limits as never }),
  }).event(shipped);
}
/** A server of `order.shipped`, typed by it. */
type Shop = ReturnType<typeof serverOf>;
const order = (orderId: string, customerId = "c1") => ({ orderId, customerId });
const params = (cursor: string | null = null) => ({ name: "order.shipped", arguments: { customerId: "c1" }, cursor });

type Notification = { method: string; params: Record<string, any> };

/** One `CallMethodStream` of `events/stream`, read in the background as Connect's client yields its messages. */
class GrpcPush {
  readonly notifications: Notification[] = [];
  result: JsonObject | undefined;
  error: ConnectError | undefined;
  readonly #abort = new AbortController();
  readonly #reading: Promise<void>;
  #ended = false;
  /** Who waits for a notification or the end (`next`, `ended`): woken at each. */
  readonly #waiting = new Set<() => void>();

  constructor(client: ConnectClient<typeof MCPLite>, cursor: string | null = null) {
    const stream = client.callMethodStream(
      { method: "events/stream", params: params(cursor) as JsonObject },
      { signal: this.#abort.signal },
    );
    this.#reading = (async () => {
      try {
        for await (const { kind } of stream) {
          if (kind.case === "notification") this.notifications.push(kind.value as unknown as Notification);
          if (kind.case === "result") this.result = kind.value;
          this.#wake();
        }
      } catch (error) {
        this.error = ConnectError.from(error);
      }
      this.#ended = true;
      this.#wake();
    })();
  }

  #wake() {
    for (const wake of this.#waiting) wake();
  }

  /** Resolves what `found()` finds, once it does, as notifications come (at most {@link WAIT_MS}). */
  #until<T>(found: () => T | undefined, failure: () => string): Promise<T> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        const value = found();
        if (value === undefined && !this.#ended) return;
        clearTimeout(timer);
        this.#waiting.delete(wake);
        if (value !== undefined) resolve(value);
        else reject(new Error(failure()));
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(wake);
        reject(new Error(`within ${WAIT_MS} ms: ${failure()}`));
      }, WAIT_MS);
      this.#waiting.add(wake);
      wake();
    });
  }

  /** The first notification of `notifications/events/<name>` from `from` on, within {@link WAIT_MS}. */
  next(name: string, test: (n: Notification) => boolean = () => true, from = 0): Promise<Notification> {
    return this.#until(
      () => this.notifications.slice(from).find((n) => n.method === `notifications/events/${name}` && test(n)),
      () => `no ${name}; got ${JSON.stringify(this.notifications)}, ${this.error?.message}`,
    );
  }

  /** The stream's end (within {@link WAIT_MS}). */
  async ended(): Promise<void> {
    await this.#until(() => this.#ended || undefined, () => "the stream did not end");
    await this.#reading;
  }

  /** The occurrences' order ids received so far. */
  get orders(): string[] {
    return this.notifications.filter((n) => n.method === "notifications/events/event").map((n) =>
      n.params.data.orderId
    );
  }

  /** The cursor of the last event or heartbeat. */
  get cursor(): string {
    return this.notifications.filter((n) => typeof n.params.cursor === "string").at(-1)!.params.cursor;
  }

  /** Cancels the call, as a client ends a push stream (SEP-3415 "Push": aborting the request). */
  async cancel(): Promise<void> {
    this.#abort.abort();
    await this.ended();
  }
}

/**
 * A refusal past the streams' budget: SEP-3415's ResourceExhausted, a JSON-RPC code of the extension's, which gRPC
 * carries as every application's code (UNKNOWN, the number in `ErrorInfo.metadata.jsonrpcCode`).
 */
function assertExhausted(error: ConnectError | undefined): void {
  assert.ok(error !== undefined, "the stream was not refused");
  assert.equal(error.code, Code.Unknown, error.message);
  assert.match(error.rawMessage, /too many push streams/);
  assert.equal(error.findDetails(ErrorInfoSchema)[0]?.metadata.jsonrpcCode, "-32013");
}

/** Under `events.maxStreamsPerCaller: 1`: a second stream of the same caller is refused while its first is open. */
async function holdsOnePerCaller(client: ConnectClient<typeof MCPLite>): Promise<void> {
  const first = await admitted(client);
  const second = new GrpcPush(client);
  await second.ended();
  assertExhausted(second.error);
  assert.match(second.error!.rawMessage, /per caller, 1/);
  await first.cancel();
}

/**
 * Opens a stream (from a cursor) once the server has a place for it: a cancelled stream frees its place as the server
 * sees the cancel, within {@link WAIT_MS}.
 */
async function admitted(client: ConnectClient<typeof MCPLite>, cursor: string | null = null): Promise<GrpcPush> {
  let push: GrpcPush | undefined;
  await waitFor(async () => {
    push = new GrpcPush(client, cursor);
    if (await push.next("active").catch(() => undefined) !== undefined) return true;
    assertExhausted(push.error);
    return false;
  }, WAIT_MS);
  return push!;
}

/**
 * The whole of SEP-3415's push, over one Connect transport: `active` (its cursor, the stream's id in `_meta`), an
 * occurrence of the caller's with its cursor (another customer's left out), a heartbeat; a second stream past
 * `events.maxStreams` (1) refused RESOURCE_EXHAUSTED until the first is cancelled; a resume from the cursor gets what
 * was emitted meanwhile, and then what comes, each once.
 */
async function streamsPush(server: Shop, client: ConnectClient<typeof MCPLite>): Promise<void> {
  const first = await admitted(client);
  const active = await first.next("active");
  assert.equal(typeof active.params.cursor, "string");
  assert.equal(active.params.truncated, false);
  const id = active.params._meta[SUBSCRIPTION_ID];
  assert.equal(typeof id, "string"); // gRPC has no request id: the stream has one of its own
  await server.emit("order.shipped", order("x1", "c2")); // not this caller's
  await server.emit("order.shipped", order("o1"));
  const event = await first.next("event");
  assert.deepEqual(event.params.data, order("o1"));
  assert.equal(event.params.name, "order.shipped");
  assert.match(event.params.eventId, /^evt_/);
  assert.equal(typeof event.params.cursor, "string");
  assert.deepEqual(event.params._meta, { [SUBSCRIPTION_ID]: id });
  // Quiet for longer than heartbeatMs (300 ms here): a heartbeat carrying the cursor.
  const heartbeat = await first.next("heartbeat", () => true, first.notifications.indexOf(event));
  assert.equal(heartbeat.params.cursor, event.params.cursor);

  // events.maxStreams is 1: a second stream is refused while the first is open.
  const refused = new GrpcPush(client);
  await refused.ended();
  assertExhausted(refused.error);

  const cursor = first.cursor;
  await first.cancel();
  assert.equal(first.error?.code, Code.Canceled);
  await server.emit("order.shipped", order("o2")); // while no stream is open
  // Cancelling ended the stream on the server: its place is free again, and the resume starts from the cursor.
  const second = await admitted(client, cursor);
  await second.next("event");
  await server.emit("order.shipped", order("o3"));
  await second.next("event", (n) => n.params.data.orderId === "o3");
  assert.deepEqual(second.orders, ["o2", "o3"]); // nothing missed, nothing twice
  await second.cancel();
}

describe("events/stream over gRPC (CallMethodStream)", () => {
  let server: Shop;
  let listener: Listener;
  before(async () => {
    // One stream at most; and a budget of one call, which a held stream leaves.
    server = serverOf({ maxStreams: 1 }, { calls: 1, perCaller: false });
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(() => listener.close());

  it("Connect on fetch: active, an occurrence with its cursor, a heartbeat; cancel frees its place; resume once", async () => {
    const client = connectClient(MCPLite, createConnectTransport({ baseUrl: listener.url, httpVersion: "1.1" }));
    await streamsPush(server, client);
  });

  it("gRPC-Web on fetch: the same", async () => {
    const transport = createGrpcWebTransport({ baseUrl: listener.url, httpVersion: "1.1" });
    await streamsPush(server, connectClient(MCPLite, transport));
  });

  it("Connect on fetch: a unary call is answered beside a held stream, and drain ends the stream with its result", async () => {
    const drained = serverOf({}, { calls: 1, perCaller: false });
    const listening = await serve(drained, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const client = connectClient(MCPLite, createConnectTransport({ baseUrl: listening.url, httpVersion: "1.1" }));
      const push = new GrpcPush(client);
      const id = (await push.next("active")).params._meta[SUBSCRIPTION_ID];
      assert.equal((await client.getTools({})).tools.length, 0); // answered beside the held stream
      await drained.drain();
      await push.ended();
      assert.equal(push.error, undefined);
      assert.deepEqual(push.result, { _meta: { [SUBSCRIPTION_ID]: id } }); // SEP-3415's final result
    } finally {
      await listening.close();
    }
  });

  it("Connect on fetch: events.maxStreamsPerCaller holds, the caller told apart by its address", async () => {
    const own = serverOf({ maxStreamsPerCaller: 1 });
    const listening = await serve(own, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const client = connectClient(MCPLite, createConnectTransport({ baseUrl: listening.url, httpVersion: "1.1" }));
      await holdsOnePerCaller(client);
    } finally {
      await listening.close();
    }
  });

  it("client.events.stream() over the gRPC transport yields the occurrences, each with its cursor; codes kept", async () => {
    const fresh = serverOf();
    const listening = await serve(fresh, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = createClient<typeof fresh>(grpcTransport(listening.url));
    try {
      const done = new AbortController();
      const events = client.events.stream("order.shipped", { arguments: { customerId: "c1" }, signal: done.signal });
      const emitting = setInterval(() => void fresh.emit("order.shipped", order("o1")), 200);
      try {
        for await (const event of events) {
          assert.deepEqual(event.data, order("o1"));
          assert.equal(typeof event.cursor, "string");
          done.abort();
        }
      } finally {
        clearInterval(emitting);
      }
      // SEP-3415's codes, which gRPC carries in ErrorInfo (UNKNOWN status), are the client's error's `rpcCode`, as on
      // MCP: -32011, an event the server does not serve.
      await assert.rejects(client.events.poll("no.such" as never), (error: { rpcCode?: number }) => {
        assert.equal(error.rpcCode, -32011);
        return true;
      });
    } finally {
      await client.close();
      await listening.close();
    }
  });
});

describe("events/stream over gRPC on HTTP/2 (serveGrpc)", () => {
  let server: Shop;
  let h2: GrpcListener;
  before(async () => {
    server = serverOf({ maxStreams: 1 }, { calls: 1, perCaller: false });
    h2 = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
  });
  after(async () => {
    closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
    await h2.close();
  });

  it("Connect's gRPC transport: the same stream, beside a unary call within a budget of one call", async () => {
    const client = connectClient(MCPLite, grpcOverH2(h2.url));
    const held = new GrpcPush(client);
    await held.next("active");
    // The held stream gave its call back (SEP-3415: exempt from the request budgets): a unary call is answered.
    assert.equal((await client.getTools({})).tools.length, 0);
    await held.cancel();
    await streamsPush(server, client);
  });

  it("grpc-js streams it: active, the occurrences the log kept, a heartbeat; its cancel frees the place", async () => {
    const own = serverOf({ maxStreams: 1 });
    const listening = await serveGrpc(own, { port: 0, closeGraceMs: 200 });
    try {
      await own.emit("order.shipped", order("js1"));
      const r = await grpcJs(`127.0.0.1:${listening.port}`, "push");
      assert.equal(r.code, "CANCELLED");
      const methods = r.notifications.map((n: Notification) => n.method);
      assert.equal(methods[0], "notifications/events/active");
      const events = r.notifications.filter((n: Notification) => n.method === "notifications/events/event");
      assert.deepEqual(events.map((n: Notification) => n.params.data.orderId), ["js1"]);
      assert.equal(typeof events[0].params.cursor, "string");
      assert.ok(methods.includes("notifications/events/heartbeat"));
      // Cancelled by grpc-js: its place under maxStreams (1) is free again.
      await (await admitted(connectClient(MCPLite, grpcOverH2(listening.url)))).cancel();
    } finally {
      closeClientSessions();
      await listening.close();
    }
  });

  it("events.maxStreamsPerCaller holds, an anonymous caller told apart by its address", async () => {
    const own = serverOf({ maxStreamsPerCaller: 1 });
    const listening = await serveGrpc(own, { port: 0, closeGraceMs: 200 });
    try {
      const client = connectClient(MCPLite, grpcOverH2(listening.url));
      await holdsOnePerCaller(client);
    } finally {
      closeClientSessions();
      await listening.close();
    }
  });
});
