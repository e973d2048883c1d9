/**
 * Durable delivery of MCP Events, broken for real (issue 77): a redis-server, two web instances and `mcplite worker`
 * processes (tests/helpers/queued-server.ts with `order.shipped`) on one BullMQ queue and one Redis store, and a
 * receiver on 127.0.0.1 that checks every signature. A subscription taken on instance A, an event emitted on B:
 * delivered once, by a worker; the receiver down across retries and a worker's death: delivered after, with the
 * same `webhook-id`; a worker
 * `kill -9`'d inside an attempt: delivered by the next, any duplicate with the same `webhook-id`; 410: it ends. And
 * 20 occurrences held by a killed worker, a worker's SIGTERM, redis-server kill -9'd and restarted on its append-only
 * file, Redis refusing writes as B emits (the emit fails: no occurrence lost unheard). Workers on the tests' runtime
 * (Bun, Deno) and on Node 22; the first and the kill on BullMQ's PostgreSQL backend too.
 */
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { countsUntil, jobUntil } from "../helpers/bullmq-counts.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import {
  killQueueProcesses,
  type QueueBackend,
  type QueueProcess,
  startWeb,
  startWorkerOf,
} from "../helpers/queue-processes.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { modernRequest } from "../helpers/request.ts";
import { newSecret, type Received, type Receiver, startReceiver } from "./receiver.ts";

/** BullMQ's lock on a running job: a killed worker's delivery moves on within one to two of these. */
const LOCK_MS = 2_000;
/**
 * The retry schedule (`events.retryDelaysMs`): seven attempts over 10 s, of which an outage that a worker's death
 * spans takes three or four. The first wait leaves a test the time to stop redis-server before the retry.
 */
const RETRY_DELAYS_MS = [1_000, 1_000, 2_000, 2_000, 2_000, 2_000];
/** How long a delivery may take to arrive or a queue to drain, at most: a bound for a loaded machine. */
const WITHIN_MS = 45_000;

if (REDIS_MISSING) console.error(`durable delivery on redis-server: skipped: ${REDIS_MISSING}`);
if (POSTGRES_MISSING) console.error(`durable delivery on PostgreSQL: skipped: ${POSTGRES_MISSING}`);
let redis: RedisServer | undefined;
let receiver: Receiver;
const secrets: string[] = [];
before(async () => {
  receiver = await startReceiver(() => secrets);
  if (!REDIS_MISSING) redis = await startRedis();
});
/** The workers of the test running, each test's own: killed after it (`kill -9`: its end may leave one busy). */
const workers = new Set<QueueProcess>();
afterEach(async () => {
  const running = [...workers];
  workers.clear();
  for (const worker of running) worker.kill("SIGKILL");
  await Promise.all(running.map((worker) => worker.exited));
});
after(async () => {
  await killQueueProcesses(); // the web instances the tests shared too
  await receiver.close();
  await redis?.stop();
});

/** Where a deployment's queue and store live: a redis-server, or PostgreSQL (BullMQ's Postgres backend). */
type On = Pick<QueueBackend, "url" | "variable">;

/**
 * A deployment (on the file's redis-server by default): its queue, how its processes start, and its web instances A
 * and B, which the tests of a backend share ({@link onRedis}, {@link onPostgres}: a start is half a second of CPU);
 * each test subscribes and emits for a customer of its own, starts the workers it needs, and leaves the queue drained.
 */
function deployment(on: On = { url: redis!.url, variable: "REDIS_URL" }) {
  const backend: QueueBackend = {
    ...on,
    queue: `events-${crypto.randomUUID()}`,
    lockMs: LOCK_MS,
  };
  const env = { EVENTS_ALLOW: receiver.url, EVENTS_RETRY_MS: RETRY_DELAYS_MS.join(",") };
  let webs: Promise<QueueProcess[]> | undefined;
  return {
    backend,
    web: () => startWeb(backend, env),
    /** A and B, started by the first test that asks, within its timeout (Bun bounds a before() hook by --timeout). */
    webs: async (): Promise<[QueueProcess, QueueProcess]> => {
      const [a, b] = await (webs ??= Promise.all([startWeb(backend, env), startWeb(backend, env)]));
      return [a, b];
    },
    /** Starts a worker, killed after the test. */
    worker: async (runtime?: string, ...options: string[]) => {
      const worker = await startWorkerOf({ runtime, env }, backend, ...options);
      workers.add(worker);
      return worker;
    },
    /** Waits until BullMQ holds none of the queue's jobs unfinished, and none failed. */
    drained: () =>
      countsUntil(
        backend.url,
        backend.queue,
        (counts) => counts.waiting + counts.active + counts.delayed + counts.prioritized === 0 && counts.failed === 0,
        WITHIN_MS,
      ),
  };
}

/** A deployment: see {@link deployment}. */
type Deployment = ReturnType<typeof deployment>;

/** The deployment on the file's redis-server, made by the first test on it. */
let redisDeployment: Deployment | undefined;
const onRedis = () => redisDeployment ??= deployment();

/** A JSON-RPC answer. */
// deno-lint-ignore no-explicit-any
type Answer = { result?: any; error?: { code: number; message: string } };

/** Sends an MCP 2026-07-28 request to a web instance (at most 20 s) and returns its answer, JSON or one SSE event. */
async function rpc(web: QueueProcess, method: string, params: Record<string, unknown>): Promise<Answer> {
  const request = modernRequest(method, params);
  const response = await fetch(`${web.url}/mcp`, {
    method: "POST",
    headers: request.headers,
    body: await request.text(),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  const data = text.trimStart().startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data:"))!.slice(5);
  return JSON.parse(data);
}

/**
 * Subscribes `customerId`'s orders on a web instance (the receiver answers its challenge); returns the id.
 */
async function subscribe(web: QueueProcess, customerId: string): Promise<string> {
  const secret = newSecret();
  secrets.push(secret);
  const answer = await rpc(web, "events/subscribe", {
    name: "order.shipped",
    arguments: { customerId },
    delivery: { mode: "webhook", url: `${receiver.url}/hook/${customerId}`, secret },
  });
  assert.match(answer.result?.id ?? "", /^sub_/, JSON.stringify(answer));
  return answer.result.id;
}

/** Calls `emit_shipped` on a web instance: an order of `customerId`, its event id `id`. */
function emitCall(web: QueueProcess, customerId: string, id: string): Promise<Answer> {
  return rpc(web, "tools/call", { name: "emit_shipped", arguments: { orderId: `o-${id}`, customerId, id } });
}

/** Emits an order of `customerId` on a web instance (a tool's handler calls `server.emit()`), its id `id`. */
async function emit(
  web: QueueProcess,
  customerId: string,
  id = `evt_${crypto.randomUUID()}`,
): Promise<{ eventId: string; deliveries: number }> {
  const answer = await emitCall(web, customerId, id);
  assert.equal(answer.result?.isError, undefined, JSON.stringify(answer));
  const emitted = answer.result.structuredContent ?? JSON.parse(answer.result.content[0].text);
  assert.equal(emitted.eventId, id);
  return emitted;
}

/** The requests the receiver got for an occurrence. */
const arrived = (eventId: string): Received[] => receiver.received.filter((r) => r.body.eventId === eventId);

/** Waits until `count` requests of an occurrence arrived (at most {@link WITHIN_MS}); returns them. */
async function arrivals(eventId: string, count: number, workers: readonly QueueProcess[] = []): Promise<Received[]> {
  await receiver.until(() => arrived(eventId).length >= count, `${count} requests of ${eventId}`, WITHIN_MS)
    .catch(() =>
      assert.fail(`${arrived(eventId).length} of ${count} requests in ${WITHIN_MS} ms:\n${workers.map((w) => w.log())}`)
    );
  return arrived(eventId);
}

/**
 * Asserts every request of an occurrence carries its one `webhook-id`, the event's id (SEP-3415 "Signature scheme",
 * ChatGPT's profile alike), signed, naming the subscription.
 */
function assertOneWebhookId(requests: readonly Received[], eventId: string, subscriptionId: string): void {
  const report = JSON.stringify(requests.map((r) => r.headers));
  assert.ok(requests.length > 0, report);
  assert.deepEqual(new Set(requests.map((r) => r.headers["webhook-id"])), new Set([eventId]), report);
  assert.ok(requests.every((r) => r.verified), `a signature did not verify: ${report}`);
  assert.ok(requests.every((r) => r.headers["x-mcp-subscription-id"] === subscriptionId), report);
}

/** Scenario 1 on workers of `runtime`: subscribed on A, emitted on B, queued, delivered once by the worker. */
async function onceAcrossInstances(deploy: Deployment, runtime?: string): Promise<void> {
  const [a, b] = await deploy.webs();
  const customer = `c-${crypto.randomUUID()}`;
  const subscriptionId = await subscribe(a, customer);
  const { eventId, deliveries } = await emit(b, customer);
  assert.equal(deliveries, 1);
  // No worker yet: the delivery waits in BullMQ, and no web instance sends it.
  await countsUntil(deploy.backend.url, deploy.backend.queue, (counts) => counts.waiting === 1, WITHIN_MS);
  assert.equal(arrived(eventId).length, 0);
  const worker = await deploy.worker(runtime);
  await arrivals(eventId, 1, [worker]);
  await deploy.drained();
  // The same occurrence emitted again (a caller's retry, with its id) on either instance: its delivery is one job.
  for (const web of [a, b]) assert.equal((await emit(web, customer, eventId)).deliveries, 1);
  await deploy.drained();
  assertOneWebhookId(arrived(eventId), eventId, subscriptionId);
  assert.equal(arrived(eventId).length, 1, "delivered exactly once");
}

/**
 * Scenario 3 on workers of `runtime`: the first worker `kill -9`'d inside the attempt, a second one started.
 */
async function killedMidDelivery(
  deploy: Deployment,
  runtime?: string,
  signal: "SIGKILL" | "SIGTERM" = "SIGKILL",
): Promise<void> {
  const [a, b] = await deploy.webs();
  const first = await deploy.worker(runtime, ...(signal === "SIGTERM" ? ["--drain-ms", "500"] : []));
  const customer = `c-${crypto.randomUUID()}`;
  const subscriptionId = await subscribe(a, customer);
  receiver.hold = true;
  try {
    const { eventId } = await emit(b, customer);
    await arrivals(eventId, 1, [first]); // the attempt is in flight: the receiver holds it unanswered
    first.kill(signal);
    await first.exited;
    if (signal === "SIGTERM") assert.match(first.log(), /drained\n$/, first.log()); // the attempt given back
    receiver.hold = false;
    const second = await deploy.worker(runtime);
    const requests = await arrivals(eventId, 2, [second]);
    await deploy.drained();
    // The killed (or given back) attempt reached the receiver unanswered: the duplicate is the second, the same
    // webhook-id.
    assertOneWebhookId(requests, eventId, subscriptionId);
    assert.equal(arrived(eventId).length, 2, JSON.stringify(arrived(eventId).map((r) => r.headers)));
  } finally {
    receiver.hold = false;
    receiver.release();
  }
}

/** How many occurrences the many-deliveries test emits: every one of them held on a worker at once. */
const MANY = 20;

/**
 * Scenario 3 under load: {@link MANY} occurrences held inside the attempts of one worker, a second worker running
 * beside it, the first `kill -9`'d: the second delivers each, once acknowledged, the one duplicate the same id.
 */
async function killedHoldingMany(): Promise<void> {
  const deploy = onRedis();
  const [a, b] = await deploy.webs();
  const first = await deploy.worker(undefined, "--concurrency", String(MANY));
  const customer = `c-${crypto.randomUUID()}`;
  const subscriptionId = await subscribe(a, customer);
  receiver.hold = true;
  try {
    const ids: string[] = [];
    for (let n = 0; n < MANY; n++) ids.push((await emit([a, b][n % 2], customer)).eventId);
    for (const id of ids) await arrivals(id, 1, [first]); // every attempt in flight on the first worker, held
    const second = await deploy.worker(undefined, "--concurrency", String(MANY));
    first.kill("SIGKILL");
    await first.exited;
    // The receiver saw each held connection go.
    await receiver.until(
      () => ids.every((id) => arrived(id)[0].cut),
      "each held connection cut by the kill",
      WITHIN_MS,
    );
    receiver.hold = false;
    const requests = await Promise.all(ids.map((id) => arrivals(id, 2, [second])));
    await deploy.drained();
    for (const [i, id] of ids.entries()) {
      assertOneWebhookId(arrived(id), id, subscriptionId);
      // Cut, then acknowledged once, last. A loaded machine may let the first worker's 2 s lock lapse before the
      // kill: the second then takes the attempt once more while the receiver still holds it (at least once, as
      // BullMQ's stalled jobs are), one more unanswered attempt with the same webhook-id.
      const answered = arrived(id).map((r) => r.answered);
      assert.deepEqual(answered.slice(0, 1), [undefined], `${id}: cut`);
      assert.deepEqual(answered.filter((status) => status !== undefined), [204], `${id}: acknowledged once`);
      assert.equal(answered.at(-1), 204, `${id}: acknowledged last`);
      assert.ok(requests[i].length >= 2);
    }
  } finally {
    receiver.hold = false;
    receiver.release();
  }
}

/** Each test's bound (Bun's default is 5 s): processes to start, and an outage's retries. */
const TEST = { timeout: 180_000 };

describe("durable delivery of MCP Events: two web instances, workers, BullMQ on redis-server", {
  skip: REDIS_MISSING,
}, () => {
  it("a subscription taken on A, an event emitted on B: delivered exactly once, by the worker", TEST, async () => {
    await onceAcrossInstances(onRedis());
  });

  it("the same with the worker on Node 22", { ...TEST, skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await onceAcrossInstances(onRedis(), node);
  });

  it(
    "the receiver down (its worker kill -9'd and replaced meanwhile, the next one's attempt refused too), then " +
      "back: delivered after the outage, every attempt with the same webhook-id",
    TEST,
    async () => {
      const deploy = onRedis();
      const [a, b] = await deploy.webs();
      const first = await deploy.worker();
      const customer = `c-${crypto.randomUUID()}`;
      const subscriptionId = await subscribe(a, customer);
      receiver.status = 503; // the first attempt is answered 503, the next ones find the port closed
      const down = receiver.downAfterAnswer();
      let back = false;
      try {
        const { eventId } = await emit(b, customer);
        await down;
        // Its retries wait in BullMQ (a delayed job), not in a process: the worker dies and another takes over.
        const { url, queue } = deploy.backend;
        const waiting = await jobUntil(url, queue, (job) => job.state === "delayed", WITHIN_MS);
        first.kill("SIGKILL");
        await first.exited;
        const worker = await deploy.worker();
        // The outage lasts until the new worker's attempt met the closed port and waits its retry in turn.
        await jobUntil(url, queue, (job) => job.state === "delayed" && job.starts > waiting.starts, WITHIN_MS);
        receiver.status = 204;
        await receiver.up();
        back = true;
        const requests = await arrivals(eventId, 2, [worker]);
        await deploy.drained();
        assertOneWebhookId(requests, eventId, subscriptionId);
        assert.equal(requests.length, 2, "one attempt answered 503, one after the outage (the others met no listener)");
        // Signed afresh on each attempt: the one delivered is the third or later, two retry waits (2 s) or more
        // after the first, and its webhook-timestamp (in seconds) says so.
        const [before, last] = requests.map((r) => Number(r.headers["webhook-timestamp"]));
        const waits = (RETRY_DELAYS_MS[0] + RETRY_DELAYS_MS[1]) / 1000;
        assert.ok(last - before >= waits, `webhook-timestamp ${before}, then ${last}`);
        // Still subscribed: the next occurrence is delivered at once.
        const next = await emit(a, customer);
        assert.equal(next.deliveries, 1);
        await arrivals(next.eventId, 1, [worker]);
        await deploy.drained(); // the queue the next tests share, left empty
      } finally {
        receiver.status = 204;
        if (!back) await receiver.up().catch(() => {});
      }
    },
  );

  it(
    "a worker kill -9'd mid-delivery: delivered by the next, the duplicate with the same webhook-id",
    TEST,
    async () => {
      await killedMidDelivery(onRedis());
    },
  );

  it("the same with the workers on Node 22", { ...TEST, skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await killedMidDelivery(onRedis(), node);
  });

  it(`${MANY} occurrences held inside a worker's attempts, it kill -9'd, another running: each acknowledged once`, {
    ...TEST,
  }, async () => {
    await killedHoldingMany();
  });

  it("a worker sent SIGTERM mid-delivery: its attempt given back past --drain-ms, the next one's the same webhook-id", {
    ...TEST,
  }, async () => {
    await killedMidDelivery(onRedis(), undefined, "SIGTERM");
  });

  it(
    "redis-server kill -9'd and restarted (AOF) while a delivery waits its retry: delivered after, the same webhook-id",
    TEST,
    async () => {
      // A redis-server of its own, as a production queue runs it: every write fsynced to its append-only file.
      const dir = scratchDir("mcplite-events-redis-");
      let own = await startRedis({ persistIn: dir });
      const started: QueueProcess[] = []; // its processes, on its own redis-server
      try {
        const deploy = deployment({ url: own.url, variable: "REDIS_URL" });
        const [a, b] = await Promise.all([deploy.web(), deploy.web()]);
        const worker = await deploy.worker();
        started.push(a, b, worker);
        const customer = `c-${crypto.randomUUID()}`;
        const subscriptionId = await subscribe(a, customer);
        receiver.status = 503;
        try {
          const { eventId } = await emit(b, customer);
          await arrivals(eventId, 1, [worker]); // answered 503: its retry waits in BullMQ, delayed
          await own.kill();
          receiver.status = 204;
          own = await startRedis({ port: own.port, persistIn: dir });
          const requests = await arrivals(eventId, 2, [worker]);
          await deploy.drained();
          assertOneWebhookId(requests, eventId, subscriptionId);
          assert.equal(requests.length, 2, JSON.stringify(requests.map((r) => r.headers)));
        } finally {
          receiver.status = 204;
        }
      } finally {
        for (const process of started) process.kill("SIGKILL"); // before their redis-server goes
        await Promise.all(started.map((process) => process.exited));
        await own.stop();
      }
    },
  );

  it(
    "Redis refusing writes (maxmemory) as B emits: the emit fails, no silent loss; emitted again with its id, " +
      "delivered once",
    TEST,
    async () => {
      const deploy = onRedis();
      const [a, b] = await deploy.webs();
      const customer = `c-${crypto.randomUUID()}`;
      const subscriptionId = await subscribe(a, customer);
      const admin = new Redis(redis!.url, { maxRetriesPerRequest: 1 });
      const id = `evt_${crypto.randomUUID()}`;
      try {
        // Reads still answer (the subscriptions are found), writes are refused: BullMQ cannot take the job.
        await admin.config("SET", "maxmemory", "1");
        const refused = await emitCall(b, customer, id);
        assert.equal(refused.result?.isError, true, JSON.stringify(refused));
        assert.match(JSON.stringify(refused.result.content), new RegExp(`${id}.*emit again`), JSON.stringify(refused));
      } finally {
        await admin.config("SET", "maxmemory", "0");
        admin.disconnect();
      }
      const again = await emit(a, customer, id);
      assert.equal(again.deliveries, 1);
      const worker = await deploy.worker();
      await arrivals(id, 1, [worker]);
      await deploy.drained();
      assertOneWebhookId(arrived(id), id, subscriptionId);
      assert.equal(arrived(id).length, 1);
    },
  );

  it(
    "410 from the receiver ends the subscription: a later emit delivers nothing, unsubscribe answers -32011",
    TEST,
    async () => {
      const deploy = onRedis();
      const [a, b] = await deploy.webs();
      const worker = await deploy.worker();
      const customer = `c-${crypto.randomUUID()}`;
      const subscriptionId = await subscribe(a, customer);
      receiver.status = 410;
      try {
        const { eventId, deliveries } = await emit(b, customer);
        assert.equal(deliveries, 1);
        await arrivals(eventId, 1, [worker]);
        await deploy.drained();
        assert.equal(arrived(eventId).length, 1, "410 is never retried");
      } finally {
        receiver.status = 204;
      }
      for (const web of [a, b]) assert.equal((await emit(web, customer)).deliveries, 0);
      for (const web of [a, b]) {
        const answer = await rpc(web, "events/unsubscribe", { id: subscriptionId });
        assert.equal(answer.error?.code, -32011, JSON.stringify(answer));
      }
    },
  );
});

describe("durable delivery of MCP Events on BullMQ's PostgreSQL backend, subscriptions in PostgreSQL", {
  skip: POSTGRES_MISSING,
}, () => {
  let postgres: PostgresServer | undefined;
  before(async () => void (postgres = await startPostgres()));
  after(async () => {
    await killQueueProcesses();
    await postgres?.remove();
  });
  let made: Deployment | undefined;
  const onPostgres = () => made ??= deployment({ url: postgres!.url, variable: "DATABASE_URL" });

  it("a subscription taken on A, an event emitted on B: delivered exactly once, by the worker", TEST, async () => {
    await onceAcrossInstances(onPostgres());
  });

  it(
    "a worker kill -9'd mid-delivery: delivered by the next, the duplicate with the same webhook-id",
    TEST,
    async () => {
      await killedMidDelivery(onPostgres());
    },
  );
});
