import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "redis";
import { defineTool } from "../../mod.ts";
import { redisNotifier } from "../../src/redis/mod.ts";
import { modernRequest } from "../helpers/request.ts";
import { waitFor } from "../helpers/long-running.ts";
import { mcpServer, SseReader } from "../bindings/mcp/mcp-helpers.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

/** How long a listener waits for the next event before the message counts as lost. */
const NEXT_MS = 5_000;

let server: RedisServer | undefined;
let client: ReturnType<typeof createClient> | undefined;

before(async () => {
  if (REDIS_MISSING) return;
  server = await startRedis();
  client = await createClient({ url: server.url }).connect();
});

after(async () => {
  client?.destroy();
  await server?.stop();
});

async function listen(instance: { fetch(request: Request): Promise<Response> }, notifications: object) {
  const stream = new SseReader(await instance.fetch(modernRequest("subscriptions/listen", { notifications }, "s")));
  assert.equal((await stream.next()).method, "notifications/subscriptions/acknowledged");
  return stream;
}

describe("redisNotifier: notifications across instances", { skip: REDIS_MISSING }, () => {
  it("carries resource updates and list changes raised on A to listeners on B and C", async () => {
    const channel = `test:${crypto.randomUUID()}`;
    const notifiers = [0, 1, 2].map(() => redisNotifier(client!, { channel }));
    const [a, b, c] = notifiers.map((notifier) => mcpServer({ notifier }));
    await waitFor(async () => (await client!.pubSubNumSub(channel))[channel] === 3);
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
  });
});
