/**
 * A server whose long-running tools declare their work (`.defer(fn)`), with a BullMQ queue and a shared result
 * store (on Redis or on PostgreSQL, as tests/helpers/queued-server.ts), for the tests of declared work on workers
 * (tests/jobs/). Each step's effect is counted in Redis (`COUNTER_URL`, else `REDIS_URL`), outside the journal, so
 * a test reads how many times it ran. Exports `server` made from the environment (`REDIS_URL` or `DATABASE_URL`,
 * `QUEUE`, `LOCK_MS`, `COUNTER_URL`) for `mcplite worker`, and `jobsServer()` to make one in a test.
 */
import process from "node:process";
import * as v from "valibot";
import { type Binding, createServer, defineTool, invoke, mcpBinding, mcpLiteBinding, signals } from "../../mod.ts";
import type { PromiseRetry, WorkContext } from "../../src/types.ts";
import { NonRetryableError } from "../../src/errors/mod.ts";
import { sleep } from "../../src/internal/sleep.ts";
import { countedQueueAndStore, fromEnvironment, type QueueStoreOptions } from "./queue-store.ts";
import { readUntil } from "./wait.ts";

const SECRET = "declared jobs' secret: thirty-two bytes or more";

/** Options of {@link jobsServer}: its queue and store, and where it counts. */
export interface JobsServerOptions extends QueueStoreOptions {
  /** The Redis that counts the steps' effects and holds the gate (default `url`, which must then be Redis). */
  readonly counters?: string;
  /**
   * Its bindings (default MCP-lite's and MCP's). Workers load none more: gRPC's modules cost each process a third of a
   * second of CPU; a test that calls over gRPC gives `grpcBinding()`.
   */
  readonly bindings?: readonly Binding[];
}

/**
 * The answer of `ab`, `ab_handled` and the flaky tools: the call's number, its steps' values (their effects' counts),
 * the worker that ended it, and which start that was.
 */
export interface JobAnswer {
  readonly n: number;
  readonly a: number;
  readonly b: number;
  readonly pid: number;
  readonly attempt: number;
}

/** Where call `n`'s count of `what` (`a`, `b`, `handled`) is kept in the counters' Redis. */
export const counterKey = (queue: string, n: number, what: string): string => `${queue}:${n}:${what}`;
/** The key whose presence opens the gate inside step `b` (tests/jobs/kill-worker.test.ts). */
export const gateKey = (queue: string): string => `${queue}:gate`;

/** How long step `b` waits at its gate at most: a bound for a stuck test, not a measure. */
const GATE_MS = 60_000;

/**
 * The durable wait between steps `a` and `b`: its length does not matter (the job goes back to the queue and is
 * taken again at its wake time, which is no start), only that it is one.
 */
const BETWEEN_STEPS_MS = 200;

/** A server with the queue and store, its counters' client, and `close()` for their connections. */
export function jobsServer(options: JobsServerOptions) {
  const { resultStore, queue, counters, close, ready } = countedQueueAndStore(options);
  const say = (line: string) => process.stderr.write(`${line}\n`); // on the worker: the tests wait for these lines
  const count = (n: number, what: string) => counters.incr(counterKey(options.queue, n, what));
  /** Waits until the test opens the gate (a key it sets in Redis), or `signal` aborts; `GATE_MS` at most. */
  const gateOpened = (who: string, signal: AbortSignal) =>
    readUntil(() => counters.exists(gateKey(options.queue)), (set) => set > 0, `${who}: the gate's opening`, {
      timeoutMs: GATE_MS,
      everyMs: 50,
      signal,
    });

  /**
   * Step `a`, a durable wait of `ms`, step `b`, each step's effect an INCR: `b` first says it is in (`job N at b`),
   * then waits for the gate, so that a test kills a worker while its jobs are inside a step, before its effect.
   */
  const steps = (ms: number) => async ({ n }: { n: number }, work: WorkContext) => {
    say(`job ${n} started`);
    const a = await work.step("a", () => count(n, "a"));
    await work.sleep(ms);
    const b = await work.step("b", async () => {
      say(`job ${n} at b`);
      await gateOpened(`job ${n}`, work.signal);
      return await count(n, "b");
    });
    say(`job ${n} finished`);
    return { n, a, b, pid: process.pid, attempt: work.attempt };
  };
  const counted = v.object({ n: v.number() });

  /**
   * A child of `parent`: its step `effect` says it is in (`child N.K at gate`), waits for the gate (saying
   * `child N.K stopped` when its signal aborts there: its job cancelled), then counts `child<K>` of call `n`.
   */
  const child = defineTool("child").describe("Waits at the gate inside a step, then counts its effect")
    .input(v.object({ n: v.number(), k: v.number() }))
    .output(v.object({ k: v.number(), made: v.number(), pid: v.number() }))
    .longRunning({ retry: { attempts: 3 } })
    .defer(async ({ n, k }, work) => {
      const made = await work.step("effect", async () => {
        say(`child ${n}.${k} at gate`);
        try {
          await gateOpened(`child ${n}.${k}`, work.signal);
        } catch (error) {
          if (work.signal.aborted) say(`child ${n}.${k} stopped`);
          throw error;
        }
        return await count(n, `child${k}`);
      });
      return { k, made, pid: process.pid };
    });

  /**
   * Step `a`, then step `b`, whose fn counts its tries (`tries`) and says each (`job N try T`): it throws a transient
   * 503 on the tries `throwsOn` (a `NonRetryableError` with `final`), and on try `hangsOn` waits until its worker is
   * killed; once it succeeds, its effect. `step` is b's own retry.
   */
  const flaky =
    (flaky: { throwsOn: number[]; hangsOn?: number; step?: PromiseRetry; final?: true }) =>
    async ({ n }: { n: number }, work: WorkContext) => {
      const a = await work.step("a", () => count(n, "a"));
      const b = await work.step("b", async () => {
        const tries = await count(n, "tries");
        say(`job ${n} try ${tries}`);
        if (tries === flaky.hangsOn) await sleep(GATE_MS, work.signal); // its worker is killed meanwhile
        if (!flaky.throwsOn.includes(tries)) return await count(n, "b");
        if (flaky.final) throw new NonRetryableError(`the ledger refused it (try ${tries})`);
        throw new Error(`503 from the ledger (try ${tries})`);
      }, flaky.step && { retry: flaky.step });
      say(`job ${n} finished`);
      return { n, a, b, pid: process.pid, attempt: work.attempt };
    };

  const server = createServer({
    name: "jobs",
    version: "1.0.0",
    secret: SECRET,
    resultStore,
    queue,
    bindings: options.bindings ?? [mcpLiteBinding(), mcpBinding()],
    signals: signals(),
  })
    .tool(
      defineTool("ab").describe("Step a, a durable wait, step b (three starts)").input(counted)
        .longRunning({ retry: { attempts: 3 } })
        .defer(steps(BETWEEN_STEPS_MS)),
    )
    .tool(
      defineTool("ab_handled").describe("ab, after a handler that counts its runs").input(counted)
        .longRunning({ retry: { attempts: 3 } })
        .defer(steps(BETWEEN_STEPS_MS))
        .handle(async ({ n }, ctx) => {
          await count(n, "handled"); // on the accepting instance, once per call
          return ctx.defer({ n });
        }),
    )
    .tool(
      defineTool("flaky_job").describe("Step b throws on tries 1 and 2; the tool retries (3 attempts)").input(counted)
        .longRunning({ retry: { attempts: 3, backoff: 100 } })
        .defer(flaky({ throwsOn: [1, 2] })),
    )
    .tool(
      defineTool("flaky_job_killed").describe("Step b throws on try 1, its worker dies in try 2; the tool retries")
        .input(counted).longRunning({ retry: { attempts: 3, backoff: 100 } })
        .defer(flaky({ throwsOn: [1], hangsOn: 2 })),
    )
    .tool(
      defineTool("flaky_step").describe("Step b throws on try 1, its worker dies in try 2; the step retries (3)")
        .input(counted).longRunning({ retry: { attempts: 2 } })
        .defer(flaky({ throwsOn: [1], hangsOn: 2, step: { attempts: 3, backoff: 100 } })),
    )
    .tool(
      defineTool("flaky_step_spent").describe("Step b throws on tries 1 and 3, its worker dies in 2; 2 step attempts")
        .input(counted).longRunning({ retry: { attempts: 2 } })
        .defer(flaky({ throwsOn: [1, 3], hangsOn: 2, step: { attempts: 2, backoff: 100 } })),
    )
    .tool(
      defineTool("refused").describe("Step b throws a NonRetryableError on try 1").input(counted)
        .longRunning({ retry: { attempts: 3 } })
        .defer(flaky({ throwsOn: [1], final: true, step: { attempts: 3 } })),
    )
    .tool(child)
    .tool(
      defineTool("parent").describe("Invokes three children in parallel and answers their results").input(counted)
        .longRunning({ retry: { attempts: 3 } })
        .defer(async ({ n }, work) => {
          say(`parent ${n} started`);
          const results = await Promise.all([1, 2, 3].map((k) => invoke(work, `child:${k}`, child, { n, k })));
          say(`parent ${n} finished`);
          return { n, results, pid: process.pid, attempt: work.attempt };
        }),
    )
    .tool(
      defineTool("approval").describe("Step a, a wait for the signal approved (a minute at most), step b")
        .input(counted).longRunning({ retry: { attempts: 3 } })
        .defer(async ({ n }, work) => {
          const a = await work.step("a", () => count(n, "a"));
          say(`job ${n} waits`); // again on each run that reaches the wait
          const { by } = await work.waitFor("approved", { timeoutMs: 60_000, schema: v.object({ by: v.string() }) });
          const b = await work.step("b", () => count(n, "b"));
          return { n, a, b, by, pid: process.pid, attempt: work.attempt };
        }),
    )
    .tool(
      defineTool("nap").describe("Sleeps ms durably, then answers").input(v.object({ n: v.number(), ms: v.number() }))
        .defer(async ({ n, ms }, work) => {
          say(`job ${n} started`);
          if (ms > 0) await work.sleep(ms);
          say(`job ${n} finished`);
          return { n, pid: process.pid };
        }),
    )
    .tool(
      defineTool("stepped").describe("Reports n steps as progress (200 ms apart), sleeping ms durably halfway")
        .input(v.object({ n: v.number(), ms: v.number() }))
        .defer(async ({ n, ms }, work) => {
          const report = async (from: number, to: number) => {
            for (let step = from; step <= to; step++) {
              await sleep(200, work.signal);
              work.progress(step, n, `step ${step}`);
            }
            return to;
          };
          const half = await work.step("first half", () => report(1, Math.floor(n / 2))); // reported once
          await work.sleep(ms);
          await report(half + 1, n);
          return { steps: n, pid: process.pid };
        }),
    );
  return {
    server,
    counters,
    close,
    /** Resolves once the store answers: a web instance listens only then, as a readiness probe would wait. */
    ready,
  };
}

/** The server of the environment's settings, for `mcplite worker`. */
const made = fromEnvironment(jobsServer);
export const server = made?.server;
/** Closes the connections of `server`. */
export const close = made?.close;
