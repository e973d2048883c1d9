/**
 * Many instances on one Redis: deferred work started on any instance is redeemed on any other, a job
 * whose instance stops fails within its lease, and resource updates reach listeners on every instance.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 MCPLITE_SECRET=... deno run -A --unstable-no-legacy-abort examples/scale-out.ts
 *   REDIS_URL=... deno run -A --unstable-no-legacy-abort examples/scale-out.ts --demo
 *     (two instances in this process: starts a job on one, redeems it on the other, exits)
 *
 * Every instance needs the same MCPLITE_SECRET (tokens made on one verify on the others) and the same
 * Redis. Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1).
 */
import * as v from "valibot";
import { createClient } from "redis";
import { createServer, defineTool, env, serve } from "../mod.ts";
import { redisNotifier, redisResultStore } from "../src/redis/mod.ts";

/** Work that runs on the instance that took the call; its result waits in Redis for any instance. */
const crawl = defineTool("crawl_site")
  .type("action")
  .describe("Crawls a site in the background; redeem the token (on any instance) for the page count")
  .input(v.object({ url: v.pipe(v.string(), v.url()) }))
  .longRunning({ retryAfterMs: 200 })
  .handle(({ url }, ctx) =>
    ctx.defer(async (signal) => {
      for (let page = 1; page <= 3; page++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        signal.throwIfAborted();
      }
      return { url, pages: 3 };
    })
  );

/** A connected Redis client; commands fail at once while Redis is down instead of queueing. */
export async function connectRedis(url: string): Promise<ReturnType<typeof createClient>> {
  const client = createClient({ url, disableOfflineQueue: true });
  client.on("error", (error) => console.error("redis:", error.message));
  return await client.connect();
}

/**
 * One instance: results in Redis, notifications through Redis pub/sub.
 *
 * @param redis A connected client.
 * @param secret The secret every instance shares.
 * @returns The server and its notifier (close it when the instance stops).
 */
export function instance(redis: ReturnType<typeof createClient>, secret?: string) {
  const notifier = redisNotifier(redis);
  const server = createServer({
    name: "scale-out",
    version: "1.0.0",
    secret,
    resultStore: redisResultStore(redis),
    notifier,
  }).tool(crawl);
  return { server, notifier };
}

async function demo(redisUrl: string): Promise<void> {
  const secret = crypto.randomUUID() + crypto.randomUUID(); // shared by both instances
  const redis = await connectRedis(redisUrl);
  const a = instance(redis, secret), b = instance(redis, secret);
  const [la, lb] = await Promise.all([a.server, b.server].map((s) => serve(s, { port: 0, quiet: true })));
  const rpc = async (base: string, name: string, args: unknown) => {
    const response = await fetch(`${base}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    });
    return (await response.json()).result;
  };
  try {
    let result = await rpc(la.url, "crawl_site", { url: "https://example.com" });
    console.log(`A: ${result._meta.response_type}`);
    for (let i = 0; result._meta.response_type === "promise" && i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, result._meta.retry_after_ms));
      result = await rpc(lb.url, "redeem", { promise: result._meta.promise_token });
      console.log(`B: ${result._meta.response_type}`);
    }
    console.log(JSON.stringify(result.structuredContent));
  } finally {
    await Promise.all([la.close(), lb.close()]);
    a.notifier.close();
    b.notifier.close();
    redis.destroy();
  }
}

if (import.meta.main) {
  const redisUrl = env("REDIS_URL") ?? "redis://127.0.0.1:6379";
  const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
  const args = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
  if (args.includes("--demo")) await demo(redisUrl);
  else {
    const listener = await serve(instance(await connectRedis(redisUrl)).server, { quiet: true }); // secret: MCPLITE_SECRET
    console.log(`scale-out instance listening on ${listener.url} (results and notifications on ${redisUrl})`);
  }
}
