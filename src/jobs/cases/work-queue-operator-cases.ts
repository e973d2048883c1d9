/**
 * The cases of `workQueueCases()` for what a queue shows operators (`mcplite jobs`, a board), each run only by a queue
 * that has the optional methods it needs: `inspect` lists jobs with what `add` was told, by state and limit, one job
 * by id and none for an unknown one, a failure's reason; `log` lines read back in order; `about`'s task id shown while
 * the job's data stays as added; `retry` delivers a failed job again with its `RunAgain`, the data `replace()` gave
 * delivered next. Internal to `workQueueCases()`.
 *
 * @module
 */
import type { QueueItem, RunAgain } from "../work-queue.ts";
import { sleep } from "../../internal/sleep.ts";
import { allOf, type Bench, deliveredExactly, intact, type Job, same } from "./work-queue-bench.ts";

/** A case's body on its own bench (its queue, closed when it ends). */
export type OnBench = (body: (bench: Bench) => Promise<void>) => () => Promise<void>;

/** The operator cases, each run on a bench of `onBench`. */
export function operatorCases(onBench: OnBench): { readonly name: string; run(): Promise<void> }[] {
  return [
    {
      name: "inspect (if it has it): each job with what add was told, latest first, by limit and state; none unknown",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        if (web.inspect === undefined) return;
        const about = [{ tool: "report", callId: 7 }, { tool: "ledger", callId: "c-2" }, undefined] as const;
        const jobs = about.map(() => bench.job());
        for (const [i, job] of jobs.entries()) {
          await web.add(job.id, job.data, about[i]);
          await sleep(5); // the latest first: jobs added in distinct milliseconds, as a queue may time them
        }
        const listed = await (await bench.handle()).inspect!({});
        const ours = listed.filter((item) => jobs.some((job) => job.id === item.id));
        same(ours.map((item) => item.id), jobs.map((job) => job.id).reverse(), "the jobs listed, the latest first");
        for (const item of ours) {
          const told = about[jobs.findIndex((job) => job.id === item.id)];
          if (typeof item.state !== "string" || item.state === "") throw new Error(`job ${item.id} has no state`);
          // A queue need not keep add's `about`; what it shows of it is that job's own.
          if (item.tool !== undefined && item.tool !== told?.tool) mismatch(item, "tool", told?.tool);
          if (item.callId !== undefined && item.callId !== told?.callId) mismatch(item, "callId", told?.callId);
        }
        same((await web.inspect({ limit: 2 })).map((item) => item.id), [jobs[2].id, jobs[1].id], "limit 2");
        same(await web.inspect({ id: `${jobs[0].id}-never-added` }), [], "an id never added");
        const [one] = await web.inspect({ id: jobs[1].id });
        if (one?.id !== jobs[1].id) throw new Error(`inspect({ id }) of job ${jobs[1].id} gave ${json(one)}`);
      }),
    },
    {
      name: "inspect (if it has it): a job whose run resolved { failed } shows its reason, and its state selects it",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        if (web.inspect === undefined) return;
        const [failing, waiting] = [bench.job("fails"), bench.job("waits")];
        const reason = `ledger for ${failing.id} refused the write`;
        const seen = bench.seen<string>();
        const taker = bench.take(await bench.handle(), (data) => {
          seen.add(data);
          return Promise.resolve({ failed: reason });
        }, 1);
        await web.add(failing.id, failing.data, { tool: "ledger" });
        await seen.until(allOf([failing]), "the failing job");
        await taker.close(); // the other job stays in the queue, untaken
        await web.add(waiting.id, waiting.data, { tool: "report" });
        const failed = await bench.poll(async () => {
          const [item] = await web.inspect!({ id: failing.id });
          return item?.failedReason === undefined && item?.finishedAt === undefined ? undefined : item;
        }, `job ${failing.id} shown as ended`);
        if (failed.failedReason !== reason) mismatch(failed, "failedReason", reason);
        const [still] = await web.inspect({ id: waiting.id });
        if (still === undefined || still.state === failed.state) {
          throw new Error(`a job never taken shows as ${json(still)}, beside a failed one ${json(failed)}`);
        }
        const ids = (await web.inspect({ states: [failed.state] })).map((item) => item.id);
        if (!ids.includes(failing.id) || ids.includes(waiting.id)) {
          throw new Error(`inspect({ states: [${json(failed.state)}] }) gave ${json(ids)}`);
        }
        deliveredExactly(seen.items, [failing], 1, "a job that failed");
      }),
    },
    {
      name: "log (if it has it, with inspect): a running job's lines, in order, in inspect of that job only",
      run: onBench(async (bench) => {
        const worker = await bench.handle();
        if (worker.log === undefined || worker.inspect === undefined) return;
        const jobs = [bench.job("one"), bench.job("two")];
        const lines = (job: Job) => [1, 2, 3].map((n) => `${job.id}: step "s${n}" ended after ${n} ms, 8 B of JSON`);
        const seen = bench.seen<string>();
        bench.take(worker, (data) => {
          const job = jobs.find((each) => each.data === data)!;
          for (const line of lines(job)) worker.log!(job.id, line);
          seen.add(data);
          return Promise.resolve("done");
        }, 2);
        const web = await bench.handle();
        for (const job of jobs) await web.add(job.id, job.data);
        await seen.until(allOf(jobs), "both jobs");
        worker.log(jobs[0].id, "a line once its run resolved: dropped or kept, never an error");
        for (const job of jobs) {
          const item = await bench.poll(async () => {
            const [found] = await web.inspect!({ id: job.id });
            return (found?.log?.length ?? 0) >= 3 ? found : undefined;
          }, `the log of job ${job.id}`);
          same(item.log!.slice(0, 3), lines(job), `the log of job ${job.id}`);
        }
      }),
    },
    {
      name: "about (if it has it, with inspect): a task id told after add is shown, the job delivered as added",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        if (web.about === undefined || web.inspect === undefined) return;
        const job = bench.job(`{"awkward":"data"} $1 %s`);
        await web.add(job.id, job.data, { tool: "report", callId: 3 });
        web.about(job.id, { taskId: `task-${job.id}` });
        const item = await bench.poll(async () => {
          const [found] = await web.inspect!({ id: job.id });
          return found?.taskId === undefined ? undefined : found;
        }, `the task id of job ${job.id}`);
        if (item.taskId !== `task-${job.id}`) mismatch(item, "taskId", `task-${job.id}`);
        if (item.tool !== undefined && item.tool !== "report") mismatch(item, "tool", "report");
        const seen = bench.seen<string>();
        bench.take(await bench.handle(), (data) => (seen.add(data), Promise.resolve("done")), 1);
        const check = intact([job]);
        await seen.until((items) => (check(items), allOf([job])(items)), "the job, once its task id was told");
      }),
    },
    {
      name:
        "retry (if it has it): a job whose run resolved { failed } runs again, told so; replace() is what comes next",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        if (web.retry === undefined) return;
        const [failing, done] = [bench.job("fails"), bench.job("is done")];
        const rerun = `${failing.data} (its new run)`;
        const seen = bench.seen<string>();
        const told: (RunAgain | undefined)[] = [];
        bench.take(await bench.handle(), async (data, again) => {
          seen.add(data);
          if (again === undefined) return data === failing.data ? { failed: "the ledger refused the write" } : "done";
          told.push(again);
          await again.replace(rerun); // the new run's job: what any later delivery of it is
          return { delayMs: 1 };
        }, 1);
        await web.add(failing.id, failing.data);
        await web.add(done.id, done.data);
        await seen.until(allOf([failing, done]), "both jobs");
        // Refused until the queue has recorded the failure (a run's end reaches it after the run): asked again.
        await bench.poll(async () => await web.retry!(failing.id, { from: "write" }) || undefined, "a retry");
        await seen.until((items) => items.includes(rerun), "the failed job again, then its new run's job");
        if (told.length !== 1 || told[0]?.from !== "write") {
          throw new Error(
            `the failed job was told ${json(told.map((again) => again?.from ?? null))}, not once "write"`,
          );
        }
        if (await web.retry(done.id)) throw new Error(`retry delivered again job ${done.id}, which never failed`);
        if (await web.retry(`${failing.id}-never-added`)) throw new Error("retry delivered a job never added");
        same(seen.items.filter((data) => data === failing.data).length, 2, "the failed job's deliveries");
      }),
    },
  ];
}

const json = (value: unknown) => JSON.stringify(value);

/** Fails the case: `item` shows `field` as something else than `expected`. */
function mismatch(item: QueueItem, field: keyof QueueItem, expected: unknown): never {
  throw new Error(`job ${item.id} shows ${field} ${json(item[field])}, not ${json(expected)}`);
}
