import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { defineTool } from "../../mod.ts";
import { redisNotifier } from "../../src/redis/mod.ts";
import { modernRequest } from "../helpers/request.ts";
import { waitFor } from "../helpers/long-running.ts";
import { mcpServer, SseReader } from "../bindings/mcp/mcp-helpers.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

/** How long a listener waits for the next event before the message counts as lost. */
const NEXT_MS = 5_000;

let server: RedisServer | undefined;
const clients = new Map<string, TestRedisClient>();

before(async () => {
  if (REDIS_MISSING) return;
  server = await startRedis();
  for (const kind of REDIS_CLIENTS) clients.set(kind.name, await kind.connect(server.url));
});

after(async () => {
  for (const client of clients.values()) client.close();
  await server?.stop();
});

async function listen(instance: { fetch(request: Request): Promise<Response> }, notifications: object) {
  const stream = new SseReader(await instance.fetch(modernRequest("subscriptions/listen", { notifications }, "s")));
  assert.equal((await stream.next()).method, "notifications/subscriptions/acknowledged");
  return stream;
}

describe("redisNotifier: notifications across instances", { skip: REDIS_MISSING }, () => {
  for (const { name } of REDIS_CLIENTS) {
    it(`carries resource updates and list changes raised on A to listeners on B and C (${name})`, async () => {
      await acrossInstances(clients.get(name)!);
    });
  }
});

describe("redisNotifier: the Notifier contract", { skip: REDIS_MISSING }, () => {
  for (const { name } of REDIS_CLIENTS) {
    it(`gives each message to every listener of one notifier, until each unsubscribes (${name})`, async () => {
      const redis = clients.get(name)!;
      const channel = `test:${crypto.randomUUID()}`;
      const notifier = redisNotifier(redis.client, { channel });
      const [first, second]: string[][] = [[], []];
      try {
        const [stopFirst, stopSecond] = await Promise.all([
          notifier.subscribe((message) => first.push(message)),
          notifier.subscribe((message) => second.push(message)),
        ]);
        assert.equal(await redis.subscribers(channel), 1, "one subscribed connection for both listeners");
        await notifier.publish("one");
        await waitFor(() => first.length === 1 && second.length === 1);
        await stopFirst();
        await notifier.publish("two");
        await waitFor(() => second.length === 2);
        assert.deepEqual([first, second], [["one"], ["one", "two"]]);
        await stopSecond();
        assert.equal(await redis.subscribers(channel), 0, "the channel is left with its last listener");
      } finally {
        notifier.close();
      }
    });
  }
});

async function acrossInstances(redis: TestRedisClient): Promise<void> {
  const channel = `test:${crypto.randomUUID()}`;
  const notifiers = [0, 1, 2].map(() => redisNotifier(redis.client, { channel }));
  const [a, b, c] = notifiers.map((notifier) => mcpServer({ notifier }));
  await waitFor(async () => (await redis.subscribers(channel)) === 3);
  const streams = await Promise.all([
    listen(b, { resourceSubscriptions: ["docs://readme"], toolsListChanged: true }),
    listen(c, { resourceSubscriptions: ["docs://readme"], toolsListChanged: true }),
    listen(a, { resourceSubscriptions: ["docs://readme"], toolsListChanged: true }),
  ]);
  try {
    // Redis pub/sub pushes each message (nothing here polls): what is asserted is that every listener
    // gets it, once, in order; the waits only bound a lost message, with room for a loaded machine.
    a.resourceUpdated("docs://readme");
    for (const stream of streams) {
      const event = await stream.next(NEXT_MS);
      assert.equal(event.method, "notifications/resources/updated");
      assert.equal(event.params.uri, "docs://readme");
    }
    a.tool(defineTool("late").describe("Added on A").handle(() => "x"));
    for (const stream of streams) {
      assert.equal((await stream.next(NEXT_MS)).method, "notifications/tools/list_changed");
    }
    c.resourceUpdated("docs://readme"); // A heard its own change once, not echoed back: the next is C's
    assert.equal((await streams[2].next(NEXT_MS)).method, "notifications/resources/updated");
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
    for (const notifier of notifiers) notifier.close();
  }
}
