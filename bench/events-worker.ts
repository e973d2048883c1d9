/**
 * A worker process of the events bench: `runWorker()` (what `mcplite worker` runs) on the bench's server
 * (`bench/events-server.ts`), from the environment: `REDIS` (its URL), `QUEUE`, `RECEIVER` (the origin allowed),
 * `CONCURRENCY` (default 8, `runWorker()`'s). Says `ready` on stderr once it takes jobs; SIGTERM (or the end of
 * stdin) drains it and exits 0. Started by `bench/events-run.ts`, on its runtime.
 *
 * @module
 */
import process from "node:process";
import { runWorker } from "../mod.ts";
import { eventsBenchServer } from "./events-server.ts";

const { server, close } = await eventsBenchServer({
  redis: process.env.REDIS!,
  queue: process.env.QUEUE!,
  receiver: process.env.RECEIVER!,
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
