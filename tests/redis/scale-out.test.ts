/**
 * Three instances behind a round-robin proxy, sharing one real Redis: deferred work started on one is
 * redeemed on the others, 1 000 concurrent redeems answer the one stored result, a stopped instance's
 * job fails within two leases, and a Redis restart answers "not done yet", then the real result.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "redis";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { createJobTools, jobServer } from "../helpers/long-running.ts";
import { readUntil, waitFor } from "../helpers/wait.ts";
import { post, toolsCall } from "../helpers/request.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

if (REDIS_MISSING) console.error(`redis scale-out: skipped: ${REDIS_MISSING}`);

const CALL = "/mcp-lite/v1/calltools";
const LEASE_MS = 300;
type Redis = ReturnType<typeof createClient>;

let redis: RedisServer | undefined;
const clients: Redis[] = [];
const listeners: Listener[] = [];
let proxy: Listener | undefined;
/** The proxy's handler: round robin over the instances. */
let route: (request: Request) => Promise<Response>;
const tools = [createJobTools(), createJobTools(), createJobTools()];
const reports: unknown[] = [];

async function connect(): Promise<Redis> {
  // Commands fail at once while Redis is down instead of queueing; errors are reported, never thrown.
  const client = createClient({ url: redis!.url, disableOfflineQueue: true });
  client.on("error", () => {});
  clients.push(await client.connect());
  return client;
}

/** An instance on its own connection to Redis, served on a free port. */
async function instance(jobTools = createJobTools()) {
  const client = await connect();
  const server =
    jobServer({ resultStore: redisResultStore(client), leaseMs: LEASE_MS, onError: (e) => reports.push(e) }, jobTools)
      .server;
  const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  listeners.push(listener);
  return { client, listener };
}

async function rpc(url: string, name: string, args: unknown) {
  const response = await fetch(url + CALL, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall(name, args)),
  });
  return await response.json();
}

/**
 * Redeems through the proxy's handler; a retryable refusal (a store command past its bound on a loaded
 * machine: "retry later", with when) is sent again after its wait, as a client does, at most 10 times; so is a
 * "not done yet" (a store read past its bound answers the same token again, MCP-lite spec v0.042 §3.6: a run
 * with a busy core saw one among 1 000).
 */
async function redeemThrough(token: string) {
  for (let attempt = 1;; attempt++) {
    const body = await (await route(post(CALL, toolsCall("redeem", { promise: token })))).json();
    const notYet = body.result?._meta?.response_type === "promise";
    if ((body.result !== undefined && !notYet) || attempt === 10) return body;
    const wait = notYet ? body.result._meta.retry_after_ms : body.error?.data?.retryAfterMs;
    assert.equal(typeof wait, "number", `an honest refusal says when to retry: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 1_000))); // the wait the answer asked for
  }
}

const tokenOf = (body: { result: { _meta: { response_type: string; promise_token: string } } }) => {
  assert.equal(body.result._meta.response_type, "promise");
  return body.result._meta.promise_token;
};

before(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  const backends = await Promise.all(tools.map((t) => instance(t)));
  let next = 0;
  route = async (request: Request) => {
    const target = backends[next++ % backends.length].listener.url;
    const url = new URL(request.url);
    const body = request.method === "GET" ? undefined : await request.text();
    return await fetch(target + url.pathname + url.search, {
      method: request.method,
      headers: { "content-type": "application/json" },
      body,
    });
  };
  proxy = await serve({ fetch: route }, { port: 0, hostname: "127.0.0.1", quiet: true });
});

after(async () => {
  await proxy?.close();
  for (const listener of listeners) await listener.close();
  for (const client of clients) if (client.isOpen) client.destroy();
  await redis?.stop();
});

describe("three instances behind a round-robin proxy, on one Redis", { skip: REDIS_MISSING }, () => {
  it("redeems on the others the work deferred on one; 1 000 concurrent redeems answer the one result", async () => {
    const token = tokenOf(await rpc(proxy!.url, "crunch", {}));
    for (let i = 0; i < 3; i++) {
      assert.equal((await rpc(proxy!.url, "redeem", { promise: token })).result._meta.response_type, "promise");
    }
    for (const t of tools) t.release(11); // whichever instance ran it
    await waitFor(async () =>
      (await rpc(proxy!.url, "redeem", { promise: token })).result._meta.response_type === "answer"
    );
    // Into the proxy's handler directly: a client of its socket would share fetch's connection pool
    // with the proxy's own requests (Bun's holds 256), and wait on itself.
    const answers = await Promise.all(Array.from({ length: 1_000 }, () => redeemThrough(token)));
    for (const body of answers) {
      assert.equal(body.result?._meta.response_type, "answer", JSON.stringify(body));
      assert.deepEqual(body.result.structuredContent, { rows: 11 });
    }
  });

  it("fails, within two leases on the others, a job whose instance stopped mid-run", async () => {
    const doomed = await instance();
    const token = tokenOf(await rpc(doomed.listener.url, "crunch", {}));
    await doomed.listener.close();
    doomed.client.destroy(); // the instance is gone: nobody renews the lease
    let body: { result: { _meta: { response_type: string }; content?: unknown; isError?: boolean } };
    const kinds: string[] = [];
    // Redis's own expiry ends the lease: real timers. It fails within seconds instead of pending for the
    // token's hour, and never before the lease has stayed missing a whole lease (a store restart is not a
    // stop): the first redeem after the stop finds it held or missing just now (the order in ms, on a moved clock:
    // tests/core/lease-clock.test.ts).
    await waitFor(async () => {
      body = await rpc(proxy!.url, "redeem", { promise: token });
      kinds.push(body.result._meta.response_type);
      return body.result._meta.response_type !== "promise";
    }, 10_000);
    assert.equal(kinds[0], "promise", `not failed at the stop: ${kinds}`);
    assert.equal(body!.result.isError, true);
    assert.match(JSON.stringify(body!.result.content), /instance running this job stopped/);
  });

  it("answers 'not done yet' while Redis is down, and the result stored once it is back (even empty)", async () => {
    const fresh = createJobTools();
    const own = await instance(fresh);
    const token = tokenOf(await rpc(own.listener.url, "crunch", {}));
    const port = redis!.port;
    await redis!.stop();
    for (let i = 0; i < 3; i++) {
      const body = await rpc(proxy!.url, "redeem", { promise: token });
      // Retryable, never a failure carrying the store's message (MCP-lite spec v0.042 §3.6).
      assert.equal(body.result?._meta.response_type, "promise", JSON.stringify(body));
    }
    fresh.release(5); // its result cannot be stored yet: kept and retried, not lost
    redis = await startRedis(port);
    await waitFor(() => clients.filter((c) => c.isOpen).every((c) => c.isReady), 10_000);
    // Redis came back empty (no persistence), yet the job that finished meanwhile is delivered.
    let body: { result?: { _meta: { response_type: string }; structuredContent?: unknown } } = {};
    await waitFor(
      async () =>
        (body = await rpc(proxy!.url, "redeem", { promise: token })).result?._meta.response_type !== "promise",
      5_000,
    );
    assert.deepEqual(body.result?.structuredContent, { rows: 5 });
    assert.ok(reports.length > 0, "the store errors were reported");
  });

  it("answers a result lost with an empty restart one way, for good: not done yet, then lost (never 'not held')", async () => {
    const fresh = createJobTools();
    const own = await instance(fresh);
    const token = tokenOf(await rpc(own.listener.url, "crunch", {}));
    fresh.release(6);
    await waitFor(
      async () => (await rpc(proxy!.url, "redeem", { promise: token })).result?._meta.response_type === "answer",
      5_000,
    );
    const port = redis!.port;
    await redis!.kill();
    redis = await startRedis(port); // empty: the finished job's result is gone
    await waitFor(() => clients.filter((c) => c.isOpen).every((c) => c.isReady), 10_000);
    type Answer = {
      result?: { _meta: { response_type: string }; isError?: boolean; content?: unknown };
      error?: unknown;
    };
    const answers: string[] = [];
    const redeem = async () => {
      const body: Answer = await rpc(proxy!.url, "redeem", { promise: token });
      answers.push(
        body.error !== undefined
          ? `error ${JSON.stringify(body.error)}`
          : body.result!._meta.response_type === "promise"
          ? "not done yet"
          : `${body.result!.isError ? "failed" : "answer"} ${JSON.stringify(body.result!.content)}`,
      );
      return answers.at(-1)!;
    };
    // Until it settles (within seconds on a loaded machine)...
    await readUntil(redeem, (answer) => answer !== "not done yet", "the lost result's answer", {
      timeoutMs: 10_000,
      everyMs: 50,
    }).catch((error) => assert.fail(`${error.message}\n${answers.join("\n")}`));
    // ...then, about time itself, 3 leases more: past the lapse marker's own expiry (2 leases from its writing, a
    // lease or more before the answer).
    for (const past = AbortSignal.timeout(3 * LEASE_MS); !past.aborted;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await redeem();
    }
    const settled = answers.indexOf(answers.find((a) => a !== "not done yet")!);
    assert.ok(settled > 0, answers.join("\n"));
    // Not done yet while a lease may still be renewed, then the one answer, the same on every instance, for good.
    assert.ok(answers.slice(0, settled).every((a) => a === "not done yet"));
    assert.deepEqual(new Set(answers.slice(settled)), new Set([answers[settled]]), answers.join("\n"));
    assert.match(answers[settled], /^failed .*result of this job was lost/);
  });
});
