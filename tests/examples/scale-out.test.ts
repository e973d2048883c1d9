/** examples/scale-out.ts against a real redis-server: two instances, one job, redeemed on the other. */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { connectRedis, instance } from "../../examples/scale-out.ts";
import type { CallOutcome } from "../../mod.ts";
import { waitFor } from "../helpers/long-running.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

const cleanup: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const close of cleanup.reverse()) await close();
});

describe("examples/scale-out.ts", { skip: REDIS_MISSING }, () => {
  it("redeems on instance B the crawl started on instance A", async () => {
    const redis: RedisServer = await startRedis();
    cleanup.push(() => redis.stop());
    const client = await connectRedis(redis.url);
    cleanup.push(() => client.destroy());
    const secret = "scale-out example secret: thirty-two bytes or more";
    const a = instance(client, secret), b = instance(client, secret);
    cleanup.push(() => a.notifier.close(), () => b.notifier.close());
    const first = await a.server.call("crawl_site", { url: "https://example.com" });
    assert.equal(first.kind, "promise");
    const token = (first as Extract<CallOutcome, { kind: "promise" }>).token;
    let outcome: CallOutcome | undefined;
    await waitFor(async () => (outcome = await b.server.call("redeem", { promise: token })).kind === "answer");
    assert.deepEqual(outcome?.kind === "answer" && outcome.result.structuredContent, {
      url: "https://example.com",
      pages: 3,
    });
  });
});
