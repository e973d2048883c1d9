/**
 * The server of the events bench (`bench/events.ts`), as its emitting instance and its workers
 * (`bench/events-worker.ts`) both make it: two events, `bench.tick` (a subscription per lane, every one matched:
 * the throughput rows) and `bench.ping` (one subscription: the latency rows), a result store in memory or on Redis,
 * and, when a queue name is given, a BullMQ queue on the same Redis; callbacks to the bench's receiver allowed.
 *
 * @module
 */
import { Redis } from "ioredis";
import * as v from "valibot";
import { createMemoryResultStore, createServer, type ResultStore } from "../mod.ts";
import { bullmqQueue } from "../src/bullmq/mod.ts";
import { defineEvent } from "../src/events/mod.ts";
import { redisResultStore } from "../src/redis/mod.ts";

/** The secret every instance and worker of the bench shares (subscription ids, sealed delivery jobs). */
export const EVENTS_BENCH_SECRET = "the events bench's secret: thirty-two bytes or more";

const lane = v.object({ lane: v.string() });
const tick = v.object({ seq: v.number() });
export const ticked = defineEvent("bench.tick").input(lane).payload(tick);
export const pinged = defineEvent("bench.ping").input(lane).payload(tick);

/** Options of {@link eventsBenchServer}. */
export interface EventsBenchOptions {
  /** The Redis URL (`redis://127.0.0.1:port`); none: the store in memory (no queue then). */
  readonly redis?: string;
  /** The BullMQ queue's name; none: deliveries run in this process. */
  readonly queue?: string;
  /** The receiver's origin, allowed although it is http on loopback. */
  readonly receiver: string;
}

/** The bench's server; `close()` closes its queue and its store's connection. */
export async function eventsBenchServer(options: EventsBenchOptions) {
  let store: ResultStore = createMemoryResultStore();
  let client: Redis | undefined;
  if (options.redis !== undefined) {
    client = new Redis(options.redis, { maxRetriesPerRequest: 1, lazyConnect: true });
    client.on("error", () => {});
    await client.connect();
    store = redisResultStore(client);
  }
  const url = options.redis === undefined ? undefined : new URL(options.redis);
  const queue = options.queue === undefined || url === undefined ? undefined : bullmqQueue({
    connection: { host: url.hostname, port: Number(url.port) },
    name: options.queue,
    keepCompletedMs: 0,
  });
  const server = createServer({
    name: "events-bench",
    version: "1.0.0",
    secret: EVENTS_BENCH_SECRET,
    resultStore: store,
    ...(queue === undefined ? {} : { queue }),
    events: { allowCallbacks: [options.receiver] },
  }).event(ticked).event(pinged);
  return {
    server,
    close: async () => {
      await queue?.close();
      client?.disconnect();
    },
  };
}

/**
 * Subscribes a callback to an event over MCP-lite's JSON-RPC endpoint (the challenge answered by the receiver).
 *
 * @returns The subscription's id.
 */
export async function subscribe(
  server: { fetch(request: Request): Promise<Response> },
  name: string,
  laneName: string,
  url: string,
  secret: string,
): Promise<string> {
  const response = await server.fetch(
    new Request("http://127.0.0.1/mcp-lite/v1/rpc", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "events/subscribe",
        params: { name, arguments: { lane: laneName }, delivery: { mode: "webhook", url, secret } },
      }),
    }),
  );
  const message = await response.json();
  if (message.result?.id === undefined) throw new Error(`events/subscribe: ${JSON.stringify(message)}`);
  return message.result.id;
}
