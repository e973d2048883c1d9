/**
 * `workQueueCases()` (`@mcplite/sdk/testing`) fails the queues that break the contract, each on the case that
 * names what it broke (here the cases are called directly, as a runner would); the queue of
 * `tests/helpers/memory-queue.ts` passes them (tests/core/queued-jobs.test.ts), and so does it with what a queue
 * shows operators (`inspect`, `log`, `about`) kept beside it, as below.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { QueueItem, WorkQueue } from "../../src/types.ts";
import { workQueueCases } from "../../src/testing/mod.ts";
import { failureOfCase } from "../helpers/case-failure.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";

type Update = Parameters<NonNullable<WorkQueue["progress"]>>[1];

/**
 * The kit's bound on each wait here (`waitMs`; 20 s by default, for a real queue): a broken queue in memory fails a
 * case that waits in vain within it. Above the 1.5 s a case's job sleeps, with room for a loaded machine.
 */
const WAIT_MS = 5_000;

/** Runs the case named `name` against `broken(a memory queue)`, one per name; what it threw, or `undefined`. */
async function failureOf(
  broken: (queue: WorkQueue) => WorkQueue,
  name: RegExp,
  options: { removes?: boolean } = {},
): Promise<unknown> {
  const queues = new Map<string, WorkQueue>();
  const open = (name: string) => queues.get(name) ?? queues.set(name, broken(memoryQueue(options).queue)).get(name)!;
  return await failureOfCase(workQueueCases(open, { waitMs: WAIT_MS }), name);
}

describe("workQueueCases", () => {
  it("fails a queue that garbles a long job's data, showing what it delivered", async () => {
    const error = await failureOf(
      (queue) => ({ ...queue, add: (id, data) => queue.add(id, data.slice(0, 8_192)) }),
      /keeps a job added while no taker runs/,
    );
    assert.match(String(error), /delivered with data it was not added with: ".*x… \(8192 characters\)"/);
  });

  it("fails a queue that delivers a finished job again", async () => {
    const error = await failureOf(
      (queue) => ({ ...queue, add: async (id, data) => (await queue.add(id, data), await queue.add(id, data)) }),
      /never again after its run resolved done/,
    );
    assert.match(String(error), /job conformance-[\w-]+ was delivered 2 times, not 1/);
  });

  it("fails a queue that runs more than concurrency jobs at once", async () => {
    const error = await failureOf(
      (queue) => ({ ...queue, take: (run) => queue.take(run, { concurrency: 100 }) }),
      /at most `concurrency`/,
    );
    assert.match(String(error), /6 runs at once on a taker of concurrency 2/);
  });

  it("fails a queue whose close() resolves before its taker's runs have", async () => {
    const error = await failureOf((queue) => ({
      ...queue,
      take(run, options) {
        const taker = queue.take(run, options);
        return { close: () => (void taker.close(), Promise.resolve()) };
      },
    }), /close\(\) stops/);
    assert.match(String(error), /close\(\) resolved while its taker's run was still in progress/);
  });

  it("fails a queue that counts a rejected run as a start (BullMQ's attemptsMade), naming the start it gave", async () => {
    const error = await failureOf((queue) => {
      const rejected = new Map<string, number>();
      return {
        ...queue,
        take: (run, options) =>
          queue.take((data, start) =>
            run(data, start + (rejected.get(data) ?? 0)).catch((e) => {
              rejected.set(data, (rejected.get(data) ?? 0) + 1);
              throw e;
            }), options),
      };
    }, /when its run rejects/);
    assert.match(String(error), /a delivery miscounted .*: conformance-[\w-]+ delivered as start 2/);
  });

  it("fails a queue whose remove() answers true for a job a taker runs (it would not leave a running job)", async () => {
    const error = await failureOf((queue) => ({ ...queue, remove: () => Promise.resolve(true) }), /^remove/);
    assert.match(String(error), /remove\(\) answered true for a job a taker runs/);
  });

  it("fails a queue whose remove() answers true and delivers the job all the same (a cancelled job would run)", async () => {
    const error = await failureOf(
      (queue) => {
        let first = true; // the first job asked for is said removed, and left waiting
        return { ...queue, remove: (id) => first ? (first = false, Promise.resolve(true)) : queue.remove!(id) };
      },
      /^remove/,
      { removes: true },
    );
    assert.match(String(error), /a job remove\(\) took out was delivered/);
  });

  it("fails a queue that says every delivery is the job's first (its journal would not be read)", async () => {
    const error = await failureOf((queue) => ({
      ...queue,
      take: (run, options) => queue.take((data, start) => run(data, start, true), options),
    }), /when its run rejects/);
    assert.match(String(error), /a delivery miscounted .*: conformance-[\w-]+ delivered again as its first/);
  });

  /** A queue that answers a run's `{ delayMs }` with `instead`: dropping the job, or delivering it again at once. */
  const ignoringDelays = (instead: "done" | "again") => (queue: WorkQueue): WorkQueue => ({
    ...queue,
    take: (run, options) =>
      queue.take(async (data, start) => {
        const ended = await run(data, start);
        return typeof ended === "object" ? instead : ended;
      }, options),
  });

  it("fails a queue that drops a job whose run asked to be delivered again after a delay", async () => {
    const error = await failureOf(ignoringDelays("done"), /once the delay its run resolved with has passed/);
    assert.match(String(error), /the sleeper again: not within 5000 ms/);
  });

  it("fails a queue that delivers a job asleep again at once, not after its delay", async () => {
    const error = await failureOf(ignoringDelays("again"), /once the delay its run resolved with has passed/);
    assert.match(String(error), /delivered again \d+ ms after asking for 1500 ms/);
  });

  it("bounds each wait at waitMs (a delivery, a taker's close(), what inspect shows), and refuses a waitMs out of range", async () => {
    const queues = new Map<string, WorkQueue>();
    const open = (change: (queue: WorkQueue) => WorkQueue) => (name: string) =>
      queues.get(name) ?? queues.set(name, change(memoryQueue().queue)).get(name)!;
    const quick = (change: (queue: WorkQueue) => WorkQueue) => workQueueCases(open(change), { waitMs: 300 });
    const silent = await failureOfCase(
      quick((queue) => ({ ...queue, take: () => ({ close: () => Promise.resolve() }) })), // delivers nothing
      /keeps a job added while no taker runs/,
    );
    assert.match(String(silent), /each of 3 jobs added before a taker ran: not within 300 ms/);
    const stuck = await failureOfCase(
      quick((queue) => ({
        ...queue,
        take(run, options) {
          const taker = queue.take(run, options);
          return { close: () => taker.close().then(() => new Promise<void>(() => {})) }; // closes, never says so
        },
      })),
      /keeps a job added while no taker runs/,
    );
    assert.match(String(stuck), /a taker's close\(\) did not resolve in 300 ms/);
    const unshown = await failureOfCase(
      quick((queue) => ({ ...operatorQueue(queue), about: () => {} })), // the task id told is never shown
      /a task id told after add/,
    );
    assert.match(String(unshown), /the task id of job conformance-[\w-]+: not within 300 ms/);

    for (const waitMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, "5000" as unknown as number]) {
      assert.throws(
        () => workQueueCases(open((queue) => queue), { waitMs }),
        (error) =>
          error instanceof RangeError && /waitMs must be above 0 and at most 2147483647 ms/.test(error.message),
        String(waitMs),
      );
    }
  });

  it("fails a queue with progress but no watch, and one whose watcher gets another job's progress", async () => {
    const half = await failureOf((queue) => ({ ...queue, progress: () => {}, watch: undefined }), /progress/);
    assert.match(String(half), /one of progress and watch without the other/);
    const watchers = new Set<(update: Update) => void>();
    const leaky = await failureOf((queue) => ({
      ...queue,
      progress: (_id, update) => watchers.forEach((watcher) => watcher(update)), // to every watcher, of any job
      watch: (_id, watcher) => (watchers.add(watcher), () => watchers.delete(watcher)),
    }), /progress/);
    assert.match(String(leaky), /an update of (one|the other) job/);
  });

  it("passes a queue that shows operators its jobs, and fails one that shows a job's tool, order, reason, log or data wrong", async () => {
    const operators = /^(inspect|log|about) \(if it has it/;
    const cases = (keep: (queue: WorkQueue) => WorkQueue) => {
      const queues = new Map<string, WorkQueue>();
      return workQueueCases((name) => queues.get(name) ?? queues.set(name, keep(memoryQueue().queue)).get(name)!)
        .filter((c) => operators.test(c.name));
    };
    const all = cases((queue) => operatorQueue(queue));
    assert.equal(all.length, 4);
    for (const c of all) assert.equal(await failureOfCase([c], /./), undefined, c.name);

    /** The case named `name` run on the operator queue as `broken` changes it: what it threw. */
    const failureOn = (name: RegExp, broken: (queue: WorkQueue) => WorkQueue, keep = {}) =>
      failureOfCase(cases((queue) => broken(operatorQueue(queue, keep))), name);
    const shown = (queue: WorkQueue, change: (item: QueueItem) => QueueItem): WorkQueue => ({
      ...queue,
      inspect: async (query) => (await queue.inspect!(query)).map(change),
    });
    assert.match(
      String(
        await failureOn(/each job with what add was told/, (q) => shown(q, (item) => ({ ...item, tool: "report" }))),
      ),
      /job conformance-[\w-]+-3 shows tool "report", not undefined/,
    );
    assert.match(
      String(
        await failureOn(/each job with what add was told/, (q) => ({
          ...q,
          inspect: (query) => q.inspect!({ ...query, limit: undefined }),
        })),
      ),
      /limit 2: expected \[.*\], got \[.*,.*,.*\]/,
    );
    assert.match(
      String(await failureOn(/shows its reason/, (q) => shown(q, ({ failedReason: _, ...item }) => item))),
      /shows failedReason undefined, not "ledger for conformance-[\w-]+ refused the write"/,
    );
    assert.match(
      String(
        await failureOn(
          /a running job's lines/,
          (q) => shown(q, (item) => ({ ...item, log: item.log && [...item.log].reverse() })),
        ),
      ),
      /the log of job conformance-[\w-]+: expected/,
    );
    assert.match(
      String(await failureOn(/a task id told after add/, (q) => q, { aboutReplacesData: true })),
      /delivered with data it was not added with: "\{\\"taskId\\":/,
    );
  });
});

/** What a queue keeps of a job for operators, beside the job (as BullMQ keeps its job's data and state). */
interface Kept {
  readonly id: string;
  data: string;
  state: string;
  readonly addedAt: number;
  readonly tool?: string;
  readonly callId?: string | number;
  taskId?: string;
  failedReason?: string;
  finishedAt?: number;
  readonly log: string[];
}

/**
 * `queue` with `inspect`, `log` and `about`: each job's data, state and what operators read of it kept here, the queue
 * carrying its id. `aboutReplacesData`: `about` writes the task id over the job's data (a queue that updates a job's
 * data with the new field alone).
 */
function operatorQueue(queue: WorkQueue, options: { aboutReplacesData?: boolean } = {}): WorkQueue {
  const kept = new Map<string, Kept>();
  let clock = 0;
  return {
    ...queue,
    async add(id, data, about) {
      kept.set(id, { id, data, state: "waiting", addedAt: ++clock, ...about, log: [] });
      await queue.add(id, id);
    },
    take: (run, options) =>
      queue.take(async (id, start, first) => {
        const job = kept.get(id)!;
        job.state = "active";
        const ended = await run(job.data, start, first);
        const failed = typeof ended === "object" && "failed" in ended ? ended.failed : undefined;
        if (ended === "done" || failed !== undefined) {
          job.state = failed === undefined ? "completed" : "failed";
          job.failedReason = failed;
          job.finishedAt = ++clock;
        } else job.state = "waiting";
        return ended;
      }, options),
    about(id, { taskId }) {
      const job = kept.get(id);
      if (job === undefined) return;
      if (options.aboutReplacesData) job.data = JSON.stringify({ taskId });
      job.taskId = taskId;
    },
    inspect: ({ id, states, limit = 20 }) =>
      Promise.resolve(
        [...kept.values()]
          .filter((job) => id === undefined ? states === undefined || states.includes(job.state) : job.id === id)
          .sort((a, b) => b.addedAt - a.addedAt)
          .slice(0, limit)
          .map(({ data: _, log, failedReason, ...item }) => ({
            ...item,
            ...(failedReason === undefined ? {} : { failedReason }),
            ...(id === undefined ? {} : { log: [...log] }),
          })),
      ),
    log(id, line) {
      const job = kept.get(id);
      if (job?.state === "active") job.log.push(line);
    },
  };
}
