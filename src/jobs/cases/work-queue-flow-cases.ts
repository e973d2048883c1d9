/**
 * The cases of `workQueueCases()` for a queue's flow control (`WorkQueue.flowControl`), run only by a queue that says
 * it has it: jobs taken in the order of their priority, jobs without one first; a job added with the dedupe id of one
 * not finished is not kept (`add` answers the kept one's id), and one added after it finished is. Internal to
 * `workQueueCases()`.
 *
 * @module
 */
import { deliveredExactly, type Job, same } from "./work-queue-bench.ts";
import type { OnBench } from "./work-queue-operator-cases.ts";

/** The flow control cases, each run on a bench of `onBench`. */
export function flowCases(onBench: OnBench): { readonly name: string; run(): Promise<void> }[] {
  return [
    {
      name: "flowControl (if it has it): takes waiting jobs by priority, 1 first, those without one before them",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        if (web.flowControl !== true) return;
        const order: [Job, number | undefined][] = [[bench.job(), 5], [bench.job(), 1], [bench.job(), undefined], [
          bench.job(),
          3,
        ]];
        for (const [job, priority] of order) {
          await web.add(job.id, job.data, { tool: "report" }, { options: { priority }, input: {} });
        }
        const seen = bench.seen<string>();
        bench.take(await bench.handle(), (data) => (seen.add(data), Promise.resolve("done")), 1);
        await seen.until((items) => items.length >= order.length, "each of 4 jobs of priorities 5, 1, none, 3");
        const expected = [order[2], order[1], order[3], order[0]].map(([job]) => job.data);
        same(seen.items, expected, "the order jobs were taken in (one taker, one at a time)");
      }),
    },
    {
      name: "flowControl (if it has it): keeps one job of a dedupe id until it finished; add answers the kept one's id",
      run: onBench(async (bench) => {
        const web = await bench.handle();
        if (web.flowControl !== true) return;
        const [first, twin, later] = [bench.job(), bench.job(), bench.job()];
        // The tool's key reads the call's arguments: all three calls have the same.
        const dedupe = {
          options: { dedupe: { key: (input: unknown) => (input as { key: string }).key } },
          input: { key: first.id },
        };
        const about = { tool: "report" };
        const kept = await web.add(first.id, first.data, about, dedupe);
        if (kept !== undefined && kept !== first.id) throw new Error(`add of the first job answered ${kept}`);
        same(await web.add(twin.id, twin.data, about, dedupe), first.id, "add of its duplicate");
        const seen = bench.seen<string>();
        bench.take(await bench.handle(), (data) => (seen.add(data), Promise.resolve("done")), 1);
        await seen.until((items) => items.includes(first.data), "the first job");
        // Once the queue recorded its end (a moment after its run resolved), the id keeps a job again: asked every 50 ms, bounded.
        const { added } = await bench.poll(async () => {
          const added = await web.add(later.id, later.data, about, dedupe);
          return added === first.id ? undefined : { added };
        }, "a job of the dedupe id kept once the first ended");
        if (added !== undefined && added !== later.id) throw new Error(`a job added after the first ended: ${added}`);
        await seen.until((items) => items.includes(later.data), "the job added after the first ended");
        deliveredExactly(seen.items, [first, later], 1, "jobs of one dedupe id");
      }),
    },
  ];
}
