/**
 * The consumer of `bench/queue-raw.ts`'s two-process rows, a child process on the parent's runtime: a BullMQ
 * `Worker` (concurrency 8, as `runWorker()`'s) on `QUEUE` at `URL` (`BACKEND`: `redis` or `postgres`). Each job
 * awaits its `ms`, then with `FLOOR=1` (or `3`, which first reads the job's entry) writes its result once to the floor's store (`bench/queue-floor-store.ts`)
 * under its `key`. Lines on stdin `expect <n>` reset a count of jobs done; it says `done` on stdout when the
 * count reaches n (`ok` when it read the line), and `ready` on stderr once it takes jobs. The end of stdin closes it.
 *
 * @module
 */
import process from "node:process";
import { floorResult, floorStore } from "./queue-floor-store.ts";
import { bullmqOn } from "./queue-processes.ts";

const backend = process.env.BACKEND as "redis" | "postgres";
const url = process.env.URL!;
const design = process.env.FLOOR === "3";
const store = process.env.FLOOR === "1" || design ? floorStore(backend, url) : undefined;
const { Worker, connection } = bullmqOn(backend, url);

let done = 0, expected = Infinity;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const worker = new Worker(process.env.QUEUE!, async (job) => {
  const { i, ms, key } = job.data as { i: number; ms: number; key?: string };
  if (ms > 0) await sleep(ms);
  // The design's floor (FLOOR=3): the job's entry read before it runs (a job cancelled meanwhile is not run).
  if (design && key !== undefined && await store!.read(key) === undefined) throw new Error(`no entry ${key}`);
  if (store !== undefined && key !== undefined) await store.write(key, floorResult(i));
  if (++done === expected) process.stdout.write("done\n");
}, { connection, concurrency: 8 });
worker.on("error", (error) => console.error(`worker: ${error}`));
await worker.waitUntilReady();
process.stderr.write("ready\n");

let input = "";
process.stdin.on("data", (chunk) => {
  input += chunk;
  for (let nl = input.indexOf("\n"); nl !== -1; nl = input.indexOf("\n")) {
    const line = input.slice(0, nl);
    input = input.slice(nl + 1);
    if (line.startsWith("expect ")) {
      done = 0;
      expected = Number(line.slice("expect ".length));
      process.stdout.write("ok\n");
    }
  }
});
process.stdin.on("end", async () => {
  await worker.close();
  await store?.close();
  process.exit(0);
});
