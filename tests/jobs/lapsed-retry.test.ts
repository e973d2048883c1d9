/**
 * At-least-once delivery by reads, on a real Redis: over a result store of the user's own (here Redis's, with no shared
 * store beneath), instances keep no queue, and a read of a stopped instance's job starts it again (a store of this SDK
 * keeps a queue in it that does so unread: tests/jobs/instances-queue.test.ts). Three live instances and, per test,
 * instances that stop mid-run (listener closed, Redis connection destroyed: nobody renews the lease). A `retry` job
 * whose instance stopped is started again on one live instance and the client's redeem (MCP-lite) or `tasks/get` (MCP
 * 2026-07-28 tasks) gets its real result, the claim on its start kept in the job's journal; a job without `retry` fails
 * as before; a `retry` job fails once its attempts are spent. The race for the start on a real PostgreSQL too.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "redis";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import pg from "pg";
import type { ResultStore } from "../../mod.ts";
import { postgresResultStore } from "../../src/postgres/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { POSTGRES_MISSING, startPostgres } from "../helpers/postgres-server.ts";
import { asOwnStore } from "../helpers/instances.ts";
import { waitFor } from "../helpers/long-running.ts";
import { modernRequest, toolsCall } from "../helpers/request.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { type RetryCounters, retryInstance, type RetryInstanceOptions } from "../helpers/retry-jobs.ts";

if (REDIS_MISSING) console.error(`redis job retry: skipped: ${REDIS_MISSING}`);
if (POSTGRES_MISSING) console.error(`postgres job retry: skipped: ${POSTGRES_MISSING}`);

const LEASE_MS = 300;
/** How long a redeem waits for a lapsed lease's outcome: far above two leases, far below the token's hour. */
const LAPSE_WAIT_MS = 10_000;
const TASKS = {
  _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } },
};
type Redis = ReturnType<typeof createClient>;
interface Instance {
  readonly url: string;
  readonly counters: RetryCounters;
  /** Stops it: its listener closes and its Redis connection goes, so its lease lapses. */
  stop(): Promise<void>;
}

let redis: RedisServer | undefined;
const running: Instance[] = [];
let live: Instance[] = [];

/** An instance on the file's Redis. */
async function instance(options: RetryInstanceOptions): Promise<Instance> {
  const client: Redis = createClient({ url: redis!.url, disableOfflineQueue: true });
  client.on("error", () => {});
  await client.connect();
  return await instanceOn(options, redisResultStore(client), () => client.isOpen && client.destroy());
}

/** An instance on `resultStore`, serving on 127.0.0.1; `disconnect` drops its connections to the store. */
async function instanceOn(
  options: RetryInstanceOptions,
  resultStore: ResultStore,
  disconnect: () => unknown,
): Promise<Instance> {
  const { server, counters } = retryInstance(options, { resultStore: asOwnStore(resultStore), leaseMs: LEASE_MS });
  const listener: Listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await listener.close();
    await disconnect();
  };
  const made = { url: listener.url, counters, stop };
  running.push(made);
  return made;
}

async function lite(url: string, name: string, args: unknown) {
  const response = await fetch(url + "/mcp-lite/v1/calltools", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall(name, args)),
    signal: AbortSignal.timeout(5_000),
  });
  return await response.json();
}

async function mcp(url: string, method: string, params: Record<string, unknown>) {
  const request = modernRequest(method, { ...params, ...TASKS });
  const response = await fetch(url + "/mcp", {
    method: "POST",
    headers: request.headers,
    body: await request.text(),
    signal: AbortSignal.timeout(5_000),
  });
  return await response.json();
}

function tokenOf(body: { result: { _meta: { response_type: string; promise_token: string } } }): string {
  assert.equal(body.result._meta.response_type, "promise", JSON.stringify(body));
  return body.result._meta.promise_token;
}

/**
 * Redeems on every live instance at once, round after round, until one answers something else than a promise; `rounds`
 * counts the rounds (the last one's answer included).
 */
async function redeemOnAll(token: string, on: readonly Instance[] = live, rounds = { count: 0 }) {
  let end: { result: { _meta: { response_type: string }; structuredContent?: unknown; content?: unknown } } | undefined;
  await waitFor(async () => {
    const bodies = await Promise.all(on.map((each) => lite(each.url, "redeem", { promise: token })));
    rounds.count++;
    end = bodies.find((body) => body.result._meta.response_type !== "promise");
    return end !== undefined;
  }, LAPSE_WAIT_MS);
  return end!;
}

const startedOnLive = (on: readonly Instance[] = live) => on.reduce((sum, each) => sum + each.counters.started, 0);

before(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  live = await Promise.all(["a", "b", "c"].map((name) => instance({ name })));
});

after(async () => {
  for (const each of running) await each.stop();
  await redis?.stop();
});

describe("retry jobs on three instances sharing one Redis", { skip: REDIS_MISSING }, () => {
  it("starts a retry job again on one live instance when its instance stops: MCP-lite redeem gets the result", async () => {
    const doomed = await instance({ name: "doomed", hang: true, backoffMs: 100 });
    const token = tokenOf(await lite(doomed.url, "ingest", { n: 7 }));
    assert.equal((await lite(live[0].url, "redeem", { promise: token })).result._meta.response_type, "promise");
    const before = startedOnLive();
    await doomed.stop();
    // Redis's own expiry ends the lease: real timers. The lease lapses, stays missing a whole lease,
    // then the backoff (100 ms) and the work: the answer comes within seconds, never at the first redeem after the
    // stop, which finds the lease held or missing just now (the order in ms, on a moved clock:
    // tests/core/lease-clock.test.ts).
    const rounds = { count: 0 };
    const end = await redeemOnAll(token, live, rounds);
    assert.ok(rounds.count > 1, "answered at the first redeem after the stop");
    assert.equal(end.result._meta.response_type, "answer", JSON.stringify(end));
    const { n, by } = end.result.structuredContent as { n: number; by: string };
    assert.equal(n, 7);
    assert.ok(["a", "b", "c"].includes(by), `ran on ${by}`);
    assert.equal(startedOnLive() - before, 1, "three instances raced for the second attempt: one took it");
    for (const each of live) {
      assert.deepEqual((await lite(each.url, "redeem", { promise: token })).result.structuredContent, { n: 7, by });
    }
    // The claim on that attempt is kept in the job's own store (its journal: one hash per job), not as a result.
    const keys: Redis = createClient({ url: redis!.url });
    await keys.connect();
    try {
      assert.deepEqual(await keys.keys("*attempt*"), []);
      const fields = await Promise.all((await keys.keys("mcplite:journal:*")).map((key) => keys.hKeys(key)));
      assert.deepEqual(fields.flat().filter((field) => field.startsWith("~attempt:")), ["~attempt:2"]);
    } finally {
      keys.destroy();
    }
  });

  it("starts a retry task again when its instance stops: MCP tasks/get reads it completed", async () => {
    const doomed = await instance({ name: "doomed", hang: true });
    const created = await mcp(doomed.url, "tools/call", { name: "ingest", arguments: { n: 8 } });
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const taskId = created.result.taskId;
    await doomed.stop();
    let task: { status: string; result?: { structuredContent?: unknown } } | undefined;
    await waitFor(async () => {
      const bodies = await Promise.all(live.map((each) => mcp(each.url, "tasks/get", { taskId })));
      task = bodies.map((body) => body.result).find((each) => each?.status !== "working");
      return task !== undefined;
    }, LAPSE_WAIT_MS);
    assert.equal(task?.status, "completed", JSON.stringify(task));
    assert.equal((task?.result?.structuredContent as { n: number }).n, 8);
  });

  it("runs a retried job's declared work alone, never its handler nor the middleware, kept alive by waitUntil", async () => {
    // An instance reached through server.fetch with a Worker-like host, which never takes part elsewhere.
    const client: Redis = createClient({ url: redis!.url, disableOfflineQueue: true });
    client.on("error", () => {});
    await client.connect();
    running.push({ url: "", counters: { handled: 0, started: 0 }, stop: () => Promise.resolve(client.destroy()) });
    const { server } = retryInstance({ name: "worker" }, {
      resultStore: asOwnStore(redisResultStore(client)),
      leaseMs: LEASE_MS,
    });
    const requests: unknown[] = [];
    const tools: unknown[] = [];
    server
      .use(async (call, next) => {
        if (call.name === "ingest") requests.push({ method: call.method, params: call.params, caller: call.ctx.tool });
        return await next();
      })
      .useTool(async (call, next) => {
        const outcome = await next();
        if (call.name === "ingest") tools.push({ arguments: call.arguments, kind: outcome.kind });
        return outcome;
      });
    const kept: Promise<unknown>[] = [];
    const host = { waitUntil: (work: Promise<unknown>) => void kept.push(work), passThroughOnException() {} };
    const redeem = async (token: string) => {
      const request = new Request("http://localhost/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(toolsCall("redeem", { promise: token })),
      });
      return await (await server.fetch(request, {}, host)).json();
    };

    const doomed = await instance({ name: "doomed", hang: true });
    const token = tokenOf(await lite(doomed.url, "ingest", { n: 9 }));
    await doomed.stop();
    let end: { result: { _meta: { response_type: string }; structuredContent?: unknown } } | undefined;
    await waitFor(async () => {
      const body = await redeem(token);
      if (body.result._meta.response_type !== "promise") end = body;
      return end !== undefined;
    }, LAPSE_WAIT_MS);
    assert.deepEqual(end?.result.structuredContent, { n: 9, by: "worker" }, JSON.stringify(end));
    assert.deepEqual(requests, [], "the request middleware saw the redeem only, not the work run again");
    assert.deepEqual(tools, [], "nor the tool middleware");
    assert.equal(kept.length, 1, "the retried run was handed to the host's waitUntil");
    await kept[0];
  });

  it("fails as before a job without retry, and a retry job once its attempts are spent", async () => {
    const first = await instance({ name: "first", hang: true });
    const second = await instance({ name: "second", hang: true });
    const once = tokenOf(await lite(first.url, "ingest_once", { n: 1 }));
    const twice = tokenOf(await lite(first.url, "ingest", { n: 2 })); // two starts in all
    await first.stop();
    // The second instance takes the last attempt, then stops too.
    await waitFor(
      async () => (await lite(second.url, "redeem", { promise: twice }), second.counters.started === 1),
      LAPSE_WAIT_MS,
    );
    await second.stop();
    const before = startedOnLive();
    const endOnce = await redeemOnAll(once);
    const endTwice = await redeemOnAll(twice);
    assert.match(JSON.stringify(endOnce.result.content), /instance running this job stopped before it finished"/);
    assert.match(
      JSON.stringify(endTwice.result.content),
      /instance running this job stopped before it finished \(2 attempts\)/,
    );
    assert.equal(startedOnLive(), before, "no start beyond the last attempt");
    assert.equal(first.counters.started + second.counters.started, 3);
  });
});

describe("retry jobs on three instances sharing one PostgreSQL", { skip: POSTGRES_MISSING }, () => {
  it("starts a stopped instance's retry job again on one of them: one claim on the attempt, a row of its journal", async () => {
    const postgres = await startPostgres();
    const pools: pg.Pool[] = [];
    const onPostgres = (options: RetryInstanceOptions) => {
      const pool = new pg.Pool({ connectionString: postgres.url, max: 5 });
      pool.on("error", () => {});
      pools.push(pool);
      return instanceOn(options, postgresResultStore(pool, { timeoutMs: 15_000 }), () => pool.end());
    };
    const three = await Promise.all(["a", "b", "c"].map((name) => onPostgres({ name })));
    try {
      const doomed = await onPostgres({ name: "doomed", hang: true, backoffMs: 100 });
      const token = tokenOf(await lite(doomed.url, "ingest", { n: 7 }));
      const before = startedOnLive(three);
      await doomed.stop(); // its pool ended: nobody renews the lease
      const end = await redeemOnAll(token, three);
      assert.equal(end.result._meta.response_type, "answer", JSON.stringify(end));
      const { n, by } = end.result.structuredContent as { n: number; by: string };
      assert.equal(n, 7);
      assert.ok(["a", "b", "c"].includes(by), `ran on ${by}`);
      assert.equal(startedOnLive(three) - before, 1, "three instances raced for the second attempt: one took it");
      // The claim is a row of the job's journal (the job store's table), none a result.
      const claims = await pools[0].query("SELECT name FROM mcplite_results_journal WHERE name LIKE '~attempt:%'");
      assert.deepEqual(claims.rows.map((row) => row.name), ["~attempt:2"]);
      assert.deepEqual((await pools[0].query("SELECT id FROM mcplite_results WHERE id LIKE '%attempt%'")).rows, []);
    } finally {
      for (const each of three) await each.stop();
      await postgres.remove();
    }
  });
});
