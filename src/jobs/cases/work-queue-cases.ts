/**
 * The behaviour every `WorkQueue` promises the server and its workers, as test cases any runner runs (`node:test`,
 * `Deno.test`, `bun:test`, Vitest): a job kept until a taker starts, delivered with its data and start, to one run at
 * a time, at most `concurrency` at once per taker; again when its run rejects or gives it back, or once the delay it
 * asked for has passed; never again once done; `close()` waits for its runs; progress reaches a watcher elsewhere;
 * what operators read (`inspect`, `log`, `about`, where a queue has them). `bullmqQueue()` (Redis, PostgreSQL) passes.
 *
 * @module
 */
import type { WorkQueue } from "../work-queue.ts";
import { sleep } from "../../internal/sleep.ts";
import { allOf, Bench, deliveredExactly, idOf, intact, same } from "./work-queue-bench.ts";
import { operatorCases } from "./work-queue-operator-cases.ts";
import { flowCases } from "./work-queue-flow-cases.ts";
import { MAX_TIMER_MS } from "../../internal/timer-ms.ts";

/** How long a case waits for any one thing the queue should do, by default, in ms (a real queue on a loaded machine). */
const WAIT_MS = 20_000;
/** How long a case watches for a delivery that must not come (a finished job again), in ms. */
const QUIET_MS = 1_000;
/** How long a case's job sleeps (`{ delayMs }`), in ms. */
const DELAY_MS = 1_500;
/** The data of a job as long as a server's job token may be by default (`tokens.maxBytes`). */
const LONG = "x".repeat(16_384);
/** Printable ASCII that a queue which builds JSON, SQL or a command from its data would garble. */
const AWKWARD = `"quoted" 'single' \\back\\slash %s $1 {"json":[1]} ;-- <tag> & \`tick\``;

/** A job's update, as `WorkQueue.progress` carries it: its progress, or a log line. */
type Update = Parameters<NonNullable<WorkQueue["progress"]>>[1];

/**
 * The options of {@link workQueueCases}.
 *
 * @example
 * ```ts
 * import type { WorkQueueCasesOptions } from "@mcplite/sdk/testing";
 * // Queues on a Redis that other test runs share: names of this run's own.
 * const options: WorkQueueCasesOptions = { prefix: `ci-${crypto.randomUUID()}-` };
 * // A queue in memory, where nothing is slow: each wait of a case bounded at 5 s, not 20 s.
 * const quick: WorkQueueCasesOptions = { waitMs: 5_000 };
 * ```
 */
export interface WorkQueueCasesOptions {
  /**
   * The prefix of every queue name and job id the cases use, unique to this run (default a random one; letters,
   * digits and `-` only, as BullMQ takes them).
   */
  readonly prefix?: string;
  /**
   * How long a case waits for any one thing the queue should do, in ms (default 20,000): a kit run against an
   * in-memory or test queue can fail sooner. Above 0 and at most 2^31 - 1; below 2,000 a queue that keeps the contract
   * may fail the case of a job that asks to sleep 1,500 ms.
   */
  readonly waitMs?: number;
}

/**
 * The conformance cases of a job queue: register each with the test runner at hand. Each case opens the
 * handles it needs on a queue of its own, named under `prefix` (a handle is what one process opens: a web
 * instance adds on one, a worker takes on another), and closes them when it ends (with their `close()`, when
 * they have one). Every wait is bounded at `waitMs` (20 s unless told), so a queue that does nothing fails each case
 * within that, naming what did not happen; a case that finds nothing wrong ends within a few seconds (on BullMQ, the
 * case of a rejected run waits its 1 s backoff).
 *
 * Not among them: a job whose taker's process dies mid-run is delivered again, as its next start (that takes
 * killing a process; `tests/bullmq/workers.test.ts` does it to BullMQ). Every case checks that a delivery of a
 * job whose runs all settled (done, given back, asleep, rejected) is its first start.
 *
 * @param open Opens a handle on the queue called `name`: handles of one name share its jobs, those of two
 *   names never meet (for BullMQ, `(name) => bullmqQueue({ connection, name })`).
 * @param options The prefix of the queue names and job ids the cases use, and the bound of each wait.
 * @returns The cases, each a name and the function that runs it (it throws when the queue breaks the contract).
 * @throws {RangeError} When `waitMs` is not a number above 0 and at most 2^31 - 1.
 *
 * @example Each case is a name and a function: register them with your runner (`node:test`'s `it`, `Deno.test`,
 * `bun:test`'s `test`: `for (const { name, run } of cases) it(name, run);`), or run them
 * ```ts
 * import type { WorkQueue } from "../work-queue.ts";
 * import { workQueueCases } from "../../testing/mod.ts";
 *
 * // A queue of one process: every handle of a name is that queue.
 * function memoryQueue(): WorkQueue {
 *   const jobs: string[] = [];
 *   const idle = new Set<() => void>();
 *   const wakeAll = () => (idle.forEach((wake) => wake()), idle.clear());
 *   const push = (data: string) => (jobs.push(data), wakeAll());
 *   return {
 *     add: (_id, data) => Promise.resolve(push(data)),
 *     take(run, { concurrency }) {
 *       let open = true;
 *       const loop = async () => {
 *         while (open) {
 *           const data = jobs.shift();
 *           if (data === undefined) await new Promise<void>((wake) => idle.add(wake));
 *           else {
 *             // One process: no run dies mid-way, so every delivery is the job's first start.
 *             await run(data, 1).then(
 *               (ended) => {
 *                 if (ended === "again") push(data); // given back at shutdown: again, now
 *                 else if (typeof ended === "object" && "delayMs" in ended) setTimeout(() => push(data), ended.delayMs);
 *               },
 *               () => setTimeout(() => push(data), 100), // the store was out of reach: again, later
 *             );
 *           }
 *         }
 *       };
 *       const loops = Array.from({ length: concurrency }, loop);
 *       return { close: () => (open = false, wakeAll(), Promise.all(loops).then(() => {})) };
 *     },
 *   };
 * }
 *
 * const queues = new Map<string, WorkQueue>();
 * const open = (name: string) => queues.get(name) ?? queues.set(name, memoryQueue()).get(name)!;
 * // In memory, nothing is slow: a case that waits in vain fails after 5 s, not 20 s.
 * for (const { run } of workQueueCases(open, { waitMs: 5_000 })) await run(); // each throws, naming what it got wrong
 * ```
 */
export function workQueueCases(
  open: (name: string) => WorkQueue | Promise<WorkQueue>,
  options: WorkQueueCasesOptions = {},
): ReadonlyArray<{ readonly name: string; run(): Promise<void> }> {
  const prefix = options.prefix ?? `conformance-${crypto.randomUUID()}-`;
  const waitMs = options.waitMs ?? WAIT_MS;
  if (typeof waitMs !== "number" || !(waitMs > 0 && waitMs <= MAX_TIMER_MS)) {
    throw new RangeError(`workQueueCases(): waitMs must be above 0 and at most ${MAX_TIMER_MS} ms, not ${waitMs}`);
  }
  let n = 0;
  /** Runs `body` on a queue of its own, then closes what it opened (failing the case if that hangs). */
  const onBench = (body: (bench: Bench) => Promise<void>) => async () => {
    const bench = new Bench(open, `${prefix}${++n}`, waitMs);
    let failed = true;
    try {
      await body(bench);
      if (bench.miscounted.length > 0) {
        throw new Error(`a delivery miscounted (its start, or whether it is the job's first): ${bench.miscounted}`);
      }
      failed = false;
    } finally {
      const closed = bench.close();
      if (failed) await closed.catch(() => {}); // the case's own error says more
      else await closed;
    }
  };
  return [
    {
      name: "keeps a job added while no taker runs, and delivers it with its data once one starts on another handle",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        const jobs = [bench.job(), bench.job(AWKWARD), bench.job(LONG)];
        for (const job of jobs) await web.add(job.id, job.data);
        const worker = await bench.handle();
        const seen = bench.seen<string>();
        bench.take(worker, (data) => (seen.add(data), Promise.resolve("done")), 2);
        const check = intact(jobs);
        await seen.until((items) => (check(items), allOf(jobs)(items)), "each of 3 jobs added before a taker ran");
      }),
    },
    {
      name: "delivers a job added while a taker runs, once: never again after its run resolved done",
      run: onBench(async (bench) => {
        const worker = await bench.handle();
        const seen = bench.seen<string>();
        bench.take(worker, (data) => (seen.add(data), Promise.resolve("done")), 1);
        const web = await bench.handle();
        const jobs = [bench.job(), bench.job(), bench.job()];
        const check = intact(jobs);
        for (const [i, job] of jobs.entries()) {
          await web.add(job.id, job.data);
          await seen.until((items) => (check(items), allOf(jobs.slice(0, i + 1))(items)), `job ${i + 1} of 3`);
        }
        await sleep(QUIET_MS); // a finished job delivered again would show up here
        deliveredExactly(seen.items, jobs, 1, `${QUIET_MS} ms after each job's run resolved done`);
      }),
    },
    {
      name:
        "remove (where the queue has it) takes out a job no taker runs, never delivered then, and leaves a running one",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        if (web.remove === undefined) return; // optional: the server reads a job's entry before it runs instead
        const [gone, held] = [bench.job(), bench.job()];
        await web.add(gone.id, gone.data);
        if (!await web.remove(gone.id)) throw new Error("remove() answered false for a job no taker ran");
        await web.add(held.id, held.data);
        const worker = await bench.handle();
        const seen = bench.seen<string>();
        let release = () => {};
        const gate = new Promise<void>((resolve) => release = resolve);
        bench.take(worker, async (data) => {
          seen.add(data);
          if (data === held.data) await gate;
          return "done";
        }, 2);
        await seen.until(allOf([held]), "the job added after the removed one");
        const removed = await web.remove(held.id);
        release();
        if (removed) throw new Error("remove() answered true for a job a taker runs");
        await sleep(QUIET_MS); // the removed job delivered all the same would show up here
        if (seen.items.includes(gone.data)) throw new Error("a job remove() took out was delivered");
        deliveredExactly(seen.items, [held], 1, `${QUIET_MS} ms after its run resolved done`);
      }),
    },
    {
      name: "never delivers again a job whose run resolved { failed } (it ended as a failure)",
      run: onBench(async (bench) => {
        const worker = await bench.handle();
        const seen = bench.seen<string>();
        bench.take(
          worker,
          (data) => (seen.add(data), Promise.resolve({ failed: "ledger for s1 refused the write" })),
          1,
        );
        const web = await bench.handle();
        const job = bench.job();
        await web.add(job.id, job.data);
        await seen.until(allOf([job]), "the job");
        await sleep(QUIET_MS); // a failed job delivered again would show up here
        deliveredExactly(seen.items, [job], 1, `${QUIET_MS} ms after its run resolved { failed }`);
      }),
    },
    {
      name: "runs at most `concurrency` jobs at once on one taker",
      run: onBench(async (bench) => {
        const worker = await bench.handle();
        const seen = bench.seen<string>();
        let running = 0;
        let most = 0;
        bench.take(worker, async (data) => {
          most = Math.max(most, ++running);
          seen.add(data);
          await sleep(100); // long enough for a queue that ignores concurrency to start the others meanwhile
          running--;
          return "done";
        }, 2);
        const web = await bench.handle();
        const jobs = Array.from({ length: 6 }, () => bench.job());
        await Promise.all(jobs.map((job) => web.add(job.id, job.data)));
        await seen.until(allOf(jobs), "each of 6 jobs on a taker of concurrency 2");
        if (most > 2) throw new Error(`${most} runs at once on a taker of concurrency 2`);
        deliveredExactly(seen.items, jobs, 1, "6 jobs on one taker");
      }),
    },
    {
      name: "hands each job to one taker at a time: 8 jobs between two takers on two handles run once in all",
      run: onBench(async (bench) => {
        const seen = bench.seen<string>();
        const running = new Set<string>();
        const twice: string[] = [];
        const run = async (data: string): Promise<"done"> => {
          if (running.has(data)) twice.push(idOf(data));
          running.add(data);
          seen.add(data);
          await sleep(50);
          running.delete(data);
          return "done";
        };
        bench.take(await bench.handle(), run, 2);
        bench.take(await bench.handle(), run, 2);
        const web = await bench.handle();
        const jobs = Array.from({ length: 8 }, () => bench.job());
        await Promise.all(jobs.map((job) => web.add(job.id, job.data)));
        await seen.until(allOf(jobs), "each of 8 jobs on two takers");
        await sleep(QUIET_MS);
        if (twice.length > 0) throw new Error(`jobs delivered to two runs at once: ${twice.join(", ")}`);
        deliveredExactly(seen.items, jobs, 1, "8 jobs on two takers");
      }),
    },
    {
      name: "delivers a job again, later, when its run rejects (the result store was out of reach)",
      run: onBench(async (bench) => {
        const worker = await bench.handle();
        const seen = bench.seen<string>();
        bench.take(worker, (data) => {
          seen.add(data);
          if (seen.items.length === 1) return Promise.reject(new Error("the result store is out of reach"));
          return Promise.resolve("done");
        }, 1);
        const job = bench.job(AWKWARD);
        await (await bench.handle()).add(job.id, job.data);
        const check = intact([job]);
        await seen.until((items) => (check(items), items.length >= 2), "the job again after its run rejected");
        await sleep(QUIET_MS);
        deliveredExactly(seen.items, [job], 2, "a job whose first run rejected and second resolved done");
      }),
    },
    {
      name: "delivers a job again once the delay its run resolved with has passed, holding no slot meanwhile",
      run: onBench(async (bench) => {
        const worker = await bench.handle();
        const seen = bench.seen<string>();
        const at = new Map<string, number[]>();
        const [sleeper, next] = [bench.job("sleeper"), bench.job("next")];
        bench.take(worker, (data) => {
          seen.add(data);
          at.set(data, [...at.get(data) ?? [], performance.now()]);
          const first = at.get(data)!.length === 1;
          return Promise.resolve(data === sleeper.data && first ? { delayMs: DELAY_MS } : "done");
        }, 1);
        const web = await bench.handle();
        await web.add(sleeper.id, sleeper.data);
        await seen.until(allOf([sleeper]), "the job that sleeps");
        await web.add(next.id, next.data); // the only slot is free while the first sleeps
        await seen.until(allOf([next]), "a job added while the other slept, on a taker of concurrency 1");
        await seen.until((items) => items.filter((data) => data === sleeper.data).length === 2, "the sleeper again");
        const [asleep, awake] = at.get(sleeper.data)!;
        if (awake - asleep < DELAY_MS - 50) {
          throw new Error(`delivered again ${Math.round(awake - asleep)} ms after asking for ${DELAY_MS} ms`);
        }
        if (at.get(next.data)![0] > awake) throw new Error("the job added meanwhile waited for the sleeper");
        await sleep(QUIET_MS);
        const [slept, others] = [
          seen.items.filter((d) => d === sleeper.data),
          seen.items.filter((d) => d !== sleeper.data),
        ];
        deliveredExactly(others, [next], 1, "the job added meanwhile");
        deliveredExactly(slept, [sleeper], 2, "a job that slept once, then resolved done");
      }),
    },
    {
      name:
        "close() stops its taker's deliveries and waits for its runs; a job given back (again) goes to another taker",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        const [first, second] = [bench.job("first"), bench.job("second")];
        const held = bench.hold();
        const a = bench.seen<string>();
        const leaving = bench.take(await bench.handle(), (data) => {
          a.add(data);
          return data === first.data ? held.ended : Promise.resolve("done");
        }, 2);
        await web.add(first.id, first.data);
        await a.until(allOf([first]), "the first job");
        let closed = false;
        const closing = leaving.close().then(() => closed = true);
        // Added once close() was called, with a slot free on the closing taker: the other taker's.
        await web.add(second.id, second.data);
        const b = bench.seen<string>();
        bench.take(await bench.handle(), (data) => (b.add(data), Promise.resolve("done")), 2);
        await b.until(allOf([second]), "a job added after one taker's close(), on the other");
        if (a.items.includes(second.data)) throw new Error("a job added after close() went to the closing taker");
        if (closed) throw new Error("close() resolved while its taker's run was still in progress");
        held.end("again"); // the worker shuts down: its job goes back to the queue
        await bench.settles(closing, "close()");
        await b.until(allOf([first]), "the job given back with again, on the other taker");
        deliveredExactly(a.items, [first], 1, "the closing taker");
        deliveredExactly(b.items, [first, second], 1, "the other taker");
      }),
    },
    {
      name:
        "has progress and watch both or neither; carries progress and log lines to a watcher of the job on another handle",
      run: onBench(async (bench) => {
        const worker = await bench.handle();
        if ((worker.progress === undefined) !== (worker.watch === undefined)) {
          throw new Error("the queue has one of progress and watch without the other");
        }
        if (worker.progress === undefined) return; // progress then stays with the worker's process
        const web = await bench.handle();
        const [full, bare] = [bench.job("full"), bench.job("bare")];
        const seen = new Map([[full.id, bench.seen<Update>()], [bare.id, bench.seen<Update>()]]);
        const stops = [...seen].map(([id, updates]) => web.watch!(id, (update) => updates.add(update)));
        try {
          bench.take(worker, async (data) => {
            const id = idOf(data);
            // Until its watcher saw one: a queue may start following a job after its first update (BullMQ does).
            for (let n = 1; seen.get(id)!.items.length === 0 && !bench.ended.signal.aborted; n++) {
              worker.progress!(
                id,
                id === full.id ? { progress: n, total: 1_000, message: `update ${n}` } : {
                  progress: n,
                },
              );
              if (id === full.id) worker.progress!(id, { log: { level: "info", data: { n }, logger: "cases" } });
              await sleep(50);
            }
            return "done";
          }, 2);
          await Promise.all([full, bare].map((job) => web.add(job.id, job.data)));
          for (const [id, updates] of seen) {
            await updates.until((items) => items.length > 0, `an update of job ${id} on its watcher`);
          }
          await seen.get(full.id)!.until((items) => items.some((u) => "log" in u), `a log line of job ${full.id}`);
          for (const update of seen.get(full.id)!.items) {
            if ("log" in update) {
              const n = (update.log.data as { n?: unknown } | null)?.n;
              same(update, { log: { level: "info", data: { n }, logger: "cases" } }, "a log line of one job");
            } else {
              const { progress } = update;
              same(update, { progress, total: 1_000, message: `update ${progress}` }, "an update of one job");
            }
          }
          for (const update of seen.get(bare.id)!.items) {
            same(
              update,
              { progress: "progress" in update ? update.progress : -1 },
              "an update of the other job (progress alone)",
            );
          }
        } finally {
          for (const stop of stops) stop();
        }
      }),
    },
    ...operatorCases(onBench),
    ...flowCases(onBench),
  ];
}
