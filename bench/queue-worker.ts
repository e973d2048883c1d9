/**
 * A worker process of the queue bench: `runWorker()` (what `mcplite worker` runs) on the bench's server
 * (`bench/queue-server.ts`), from the environment: `BACKEND` (`redis` or `postgres`), `URL`, `QUEUE`,
 * `CONCURRENCY` (default 8, `runWorker()`'s), `KEEP_COMPLETED_MS` (`bullmqQueue`'s, when set). Says `ready` on stderr once it takes jobs; SIGTERM (or the
 * end of stdin) drains it and exits 0. Started by `bench/queue-run.ts`, on its runtime.
 *
 * @module
 */
import process from "node:process";
import { runWorker } from "../mod.ts";
import { type Backend, queueBenchServer } from "./queue-server.ts";

const { server, close } = await queueBenchServer({
  backend: process.env.BACKEND as Backend,
  url: process.env.URL!,
  queue: process.env.QUEUE!,
  keepCompletedMs: process.env.KEEP_COMPLETED_MS ? Number(process.env.KEEP_COMPLETED_MS) : undefined,
});
const worker = runWorker(server, { concurrency: Number(process.env.CONCURRENCY ?? 8), drainMs: 5_000 });
process.stderr.write("ready\n");

let stopping: Promise<void> | undefined;
const stop = () => {
  stopping ??= (async () => {
    await worker.close();
    await close();
    process.exit(0);
  })();
};
const deno = (globalThis as { Deno?: { addSignalListener(signal: string, handler: () => void): void } }).Deno;
if (deno) deno.addSignalListener("SIGTERM", stop);
else process.on("SIGTERM", stop);
process.stdin.on("end", stop); // the bench exited without a word
process.stdin.resume();
