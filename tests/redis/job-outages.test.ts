/**
 * Signals and a parent's cancellation while the store is down (issue 87: nothing finished lost, every answer honest): a real redis-server (with an
 * append-only file, as in production) stopped while a job waits for its signal, then started again on the same data.
 * Meanwhile `server.signal()` rejects with a retryable `unavailable` error (not `"ended"`, not the job's failure) and a
 * POST to the job's signal URL is answered 503 with `Retry-After` (not 404 or 410), and the wait, which looked for its
 * signal meanwhile, waits on (in process: the run is not ended as a stopped one); once Redis is back the signal is
 * taken once (`"taken"`, 202; a second one `"signalled"`, 409) and the job answers its payload. Cancelling a parent
 * whose three children run meanwhile is a retryable `unavailable` error that cancels nothing; once Redis is back the
 * cancellation cancels the parent and its children. A parent in process that reads its child's end as Redis goes
 * down waits the outage out and answers the child's value once Redis is back. All but the last again on the queue the
 * instances keep in the store (`queue: "store"`): the job waiting for its signal is not taken for a dead one's.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { type CallOutcome, createServer, defineTool, invoke, signals } from "../../mod.ts";
import { sleep } from "../../src/internal/sleep.ts";
import { ProtocolError } from "../../src/errors/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";
import { waitFor } from "../helpers/long-running.ts";
import type { JournalStore } from "../../src/jobs/journal-store.ts";

if (REDIS_MISSING) console.error(`redis signal outage: skipped: ${REDIS_MISSING}`);

const SECRET = "signal outages' secret: thirty-two bytes or more";
/** How long a job may take to end once signalled: a bound for a loaded machine, not a measure. */
const END_MS = 30_000;

// On the queue the instances keep in the store (the default), and in process (a result store of the user's own, which
// keeps no queue): an outage is no death on either.
for (const queued of [false, true]) {
  describe(`signals and cancellations while Redis is down${queued ? ", on a queue kept in the store" : ""}`, {
    skip: REDIS_MISSING,
  }, () => {
    let redis: RedisServer;
    const dir = scratchDir("mcplite-signal-outage-"); // made as the file loads: removed after the suite
    let connected: TestRedisClient;
    /** The signal URL each job made, by its number, and a wait on one. */
    const urls = new Map<number, PromiseWithResolvers<string>>();
    const urlOf = (n: number) => urls.get(n) ?? urls.set(n, Promise.withResolvers()).get(n)!;
    let server: ReturnType<typeof makeServer>;
    /** Three children of a parent, each waiting until its job is cancelled; what each one's work was signalled. */
    const aborts: AbortSignal[] = [];
    const child = defineTool("child").describe("Waits until cancelled").input(v.object({ k: v.number() })).longRunning()
      .defer(async ({ k }, work) => {
        aborts.push(work.signal);
        await sleep(60_000, work.signal);
        return { k };
      });
    const parent = defineTool("parent").describe("Invokes three children in parallel").longRunning()
      .defer(async (_, work) => await Promise.all([1, 2, 3].map((k) => invoke(work, `child:${k}`, child, { k }))));
    /** The jobs whose journal was read while Redis was down (a wait looking for its signal). */
    const lookedDown = new Set<string>();
    /** The jobs whose next journal read stops Redis first. */
    const stopAtLoad = new Set<string>();
    /** The job whose next read from the result store stops Redis first, and that stop once it began. */
    let stopAtGet: string | undefined;
    let stopping: Promise<void> | undefined;
    /** The gated child's job id, once its work runs, and the gate it waits at. */
    const gated = { id: Promise.withResolvers<string>(), gate: Promise.withResolvers<void>() };
    const quick = defineTool("quick").describe("Waits at a gate, then answers").longRunning()
      .defer(async (_, work) => {
        gated.id.resolve(work.jobId);
        await gated.gate.promise;
        return { ok: 1 };
      });
    const relay = defineTool("relay").describe("Invokes the gated child").longRunning()
      .defer(async (_, work) => await invoke(work, "quick", quick, {}));

    function makeServer(client: TestRedisClient["client"]) {
      const store = redisResultStore(client), journals = store.journalStore!;
      // The results as the store keeps them; a read of the job `stopAtGet` names stops Redis first.
      const resultStore: typeof store = Object.assign(Object.create(store), {
        store: queued ? store.store : undefined, // none beneath: the user's own, run in process
        get: async (id: string) => {
          if (id === stopAtGet) (stopAtGet = undefined), await (stopping = redis.stop()); // down as this entry is read
          return await store.get(id);
        },
      });
      // The journals as the store keeps them, noting each job whose journal was read while Redis was down.
      const journalStore = new Proxy(journals, {
        get: (target, key) =>
          key === "load"
            ? async (id: string) => {
              if (stopAtLoad.delete(id)) await redis.stop(); // Redis goes down as this journal is read
              return await target.load(id).catch((error) => Promise.reject(lookedDown.add(id) && error));
            }
            : typeof target[key as keyof JournalStore] === "function"
            ? (target[key as keyof JournalStore] as () => unknown).bind(target)
            : target[key as keyof JournalStore],
      });
      return createServer({
        name: "outage",
        version: "1.0.0",
        secret: SECRET,
        resultStore,
        journalStore,
        signals: signals({ publicUrl: "http://localhost" }),
        onError: () => {}, // the outage, told once: what the test asserts is each answer
      }).tool(child).tool(parent).tool(quick).tool(relay).tool(
        defineTool("approve").describe("Waits for an approval").input(v.object({ n: v.number() }))
          .longRunning({ ttlMs: 120_000 })
          .defer(async ({ n }, work) => {
            await work.step("url", async () => urlOf(n).resolve(await work.signalUrl("approved")));
            return await work.waitFor("approved", { timeoutMs: 90_000, schema: v.object({ by: v.string() }) });
          }),
      );
    }

    before(async () => {
      redis = await startRedis({ persistIn: dir });
      // Commands sent while Redis is down fail at once (no offline queue), as the store's guard expects.
      connected = await REDIS_CLIENTS[0].connect(redis.url, false);
      server = makeServer(connected.client);
    });
    after(async () => {
      connected?.close();
      await redis?.stop();
    });

    /** Starts a job that waits for "approved" once its URL is made; its id, token and URL. */
    async function waiting(n: number) {
      const first: CallOutcome = await server.call("approve", { n });
      assert.equal(first.kind, "promise", JSON.stringify(first));
      const { entry, token } = first as Extract<CallOutcome, { kind: "promise" }>;
      return { job: entry!, token, url: await urlOf(n).promise };
    }

    /** Stops Redis (or lets `during` stop it), runs `during`, starts Redis again on the same data and port, and waits for the client. */
    async function outage(during: () => Promise<void>, stopFirst = true) {
      if (stopFirst) await redis.stop(); // else `during` stops it
      try {
        await during();
      } finally {
        redis = await startRedis({ port: redis.port, persistIn: dir });
        await waitFor(() => connected.client.isReady === true, END_MS, "the client's reconnection");
      }
    }

    it("server.signal(): a retryable unavailable error while down; taken once after the restart", async () => {
      const { job, token } = await waiting(1);
      stopAtLoad.add(job); // Redis goes down as the wait next looks for its signal (a look each second)
      await outage(async () => {
        await waitFor(() => lookedDown.has(job)); // the wait looked for its signal meanwhile, and waits on
        await assert.rejects(server.signal(job, "approved", { by: "ada" }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.equal(error.code, "unavailable");
          assert.ok((error.data as { retryAfterMs?: number }).retryAfterMs! > 0);
          return true;
        });
      }, false);
      assert.equal(await server.signal(job, "approved", { by: "ada" }), "taken");
      assert.equal(await server.signal(job, "approved", { by: "bob" }), "signalled");
      assert.deepEqual(answered(await redeemedWithin(server, token, END_MS)), { by: "ada" });
    });

    it("a POST to the signal URL: 503 with Retry-After while down; 202 once after the restart, then 409", async () => {
      const { job, token, url } = await waiting(2);
      const post = (body: unknown) => server.fetch(new Request(url, { method: "POST", body: JSON.stringify(body) }));
      stopAtLoad.add(job);
      await outage(async () => {
        await waitFor(() => lookedDown.has(job));
        const refused = await post({ by: "ada" });
        assert.equal(refused.status, 503, await refused.text());
        assert.ok(Number(refused.headers.get("retry-after")) > 0);
      }, false);
      const taken = await post({ by: "ada" });
      assert.equal(taken.status, 202, await taken.text());
      const again = await post({ by: "bob" });
      assert.equal(again.status, 409, await again.text());
      assert.deepEqual(answered(await redeemedWithin(server, token, END_MS)), { by: "ada" });
    });

    it("cancelling a parent: a retryable unavailable error that cancels nothing; after the restart, it and its children", async () => {
      const first = await server.call("parent", {});
      assert.equal(first.kind, "promise", JSON.stringify(first));
      const { token } = first as Extract<CallOutcome, { kind: "promise" }>;
      await waitFor(() => aborts.length === 3);
      await outage(async () => {
        await assert.rejects(server.call("redeem", { promise: token, cancel: true }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.equal(error.code, "unavailable");
          return true;
        });
        assert.ok(aborts.every((signal) => !signal.aborted)); // nothing cancelled, nothing half cancelled
      });
      const cancelled = await server.call("redeem", { promise: token, cancel: true });
      assert.notEqual(cancelled.kind, "promise", JSON.stringify(cancelled));
      await waitFor(() => aborts.every((signal) => signal.aborted));
    });

    it("cancelling a parent as Redis goes down reading its journal: unavailable; sent again after the restart, its children", async () => {
      aborts.length = 0;
      const first = await server.call("parent", {});
      const { token, entry } = first as Extract<CallOutcome, { kind: "promise" }>;
      await waitFor(() => aborts.length === 3);
      stopAtLoad.add(entry!);
      await outage(async () => {
        await assert.rejects(server.call("redeem", { promise: token, cancel: true }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.equal(error.code, "unavailable");
          return true;
        });
        assert.equal(stopAtLoad.size, 0); // the journal's read met the outage
        assert.ok(aborts.every((signal) => !signal.aborted)); // the children run on: the journal names them
      }, false);
      const cancelled = await server.call("redeem", { promise: token, cancel: true });
      assert.notEqual(cancelled.kind, "promise", JSON.stringify(cancelled));
      await waitFor(() => aborts.every((signal) => signal.aborted));
    });

    // On a queue a child's end wakes its parent through the queue (the parent reads it once woken, not as it polls).
    it("a parent in process reading its child's end as Redis goes down waits it out, and answers the child's value", {
      skip: queued && "a test of the in-process parent's reading of its child",
    }, async () => {
      const first = await server.call("relay", {});
      assert.equal(first.kind, "promise", JSON.stringify(first));
      const { token } = first as Extract<CallOutcome, { kind: "promise" }>;
      stopAtGet = await gated.id.promise;
      gated.gate.resolve(); // the child ends; the parent's read of its end stops Redis
      // Redis started again only once it has stopped: on its port, the one still stopping would refuse the new one.
      await outage(async () => (await waitFor(() => stopping !== undefined), await stopping), false);
      const end = await redeemedWithin(server, token, END_MS);
      assert.deepEqual(answered(end), { ok: 1 });
    });
  });
}
