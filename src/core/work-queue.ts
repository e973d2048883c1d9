/**
 * The seam between the server and a job queue: with `createServer({ queue })`, the deferred work of
 * `.longRunning()` tools is added to the queue instead of run in the process that took the call, and
 * workers (`runWorker()`) take it from there. The queue owns delivery (a job whose worker dies is
 * delivered again); the shared result store owns the job's state and result (first writer wins).
 *
 * @module
 */

/**
 * A job queue, as `createServer({ queue })` and `runWorker()` use one: `bullmqQueue()` from
 * `@mcplite/sdk/bullmq` is one (BullMQ on Redis, Valkey or PostgreSQL). A job is a string the server
 * signed and sealed (its tool, arguments, caller and request metadata): the queue stores it and hands
 * it back, and never needs to read it.
 *
 * A queue of your own: `add` must not resolve before the job is kept; `take` hands each job to one
 * worker at a time, and delivers it again when that worker stops without saying it is done (a crash,
 * a lost lock), however often. The server counts the deliveries itself, in the result store, and ends a
 * job that started more often than its tool's `retry` allows.
 *
 * @example A queue of one process (what `bullmqQueue()` does across processes)
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
 * import type { WorkQueue } from "../types.ts";
 *
 * const jobs: string[] = [];
 * let wake = () => {};
 * const queue: WorkQueue = {
 *   add: (_id, data) => {
 *     jobs.push(data);
 *     wake();
 *     return Promise.resolve();
 *   },
 *   take(run) {
 *     let open = true;
 *     const loop = (async () => {
 *       while (open) {
 *         const data = jobs.shift();
 *         if (data === undefined) await new Promise<void>((resolve) => wake = resolve);
 *         else if (await run(data) === "again") jobs.push(data);
 *       }
 *     })();
 *     return {
 *       close: () => {
 *         open = false;
 *         wake();
 *         return loop;
 *       },
 *     };
 *   },
 * };
 * const server = createServer({
 *   name: "reports",
 *   version: "1.0.0",
 *   secret: "a secret of at least thirty-two bytes!",
 *   resultStore: createMemoryResultStore(), // one that every instance shares, in production
 *   queue,
 * }).tool(
 *   defineTool("report").input(v.object({ id: v.string() })).longRunning()
 *     .handle(({ id }, ctx) => ctx.defer(() => `report ${id}`)),
 * );
 * const worker = runWorker(server);
 * const first = await server.call("report", { id: "q3" });
 * assert.equal(first.kind, "promise");
 * for (let i = 0; i < 100 && first.kind === "promise"; i++) {
 *   const redeemed = await server.call("redeem", { promise: first.token });
 *   if (redeemed.kind === "answer") {
 *     assert.deepEqual(redeemed.result.content, [{ type: "text", text: "report q3" }]);
 *     break;
 *   }
 *   await new Promise((resolve) => setTimeout(resolve, 10));
 * }
 * await worker.close();
 * ```
 */
export interface WorkQueue {
  /**
   * Adds a job.
   *
   * @param id The job's id (its result-store entry): unique, so a queue that keys jobs by id may.
   * @param data The job: signed, sealed text, handed back to `take`'s `run` as is.
   * @returns When the queue keeps the job; rejects when it cannot (the call then fails as retryable).
   */
  add(id: string, data: string): Promise<void>;
  /**
   * Takes jobs, at most `options.concurrency` at once, until the returned consumer is closed.
   *
   * @param run Runs one job: resolves `"done"` when the job ended (the queue drops it), `"again"` when
   *   the worker stopped it to shut down (the queue delivers it again, now); rejects when the job should
   *   be delivered again later (the result store was out of reach).
   * @param options How many jobs run at once.
   * @returns The consumer: `close()` stops taking jobs and resolves once every `run` in progress has.
   */
  take(
    run: (data: string) => Promise<"done" | "again">,
    options: { readonly concurrency: number },
  ): { close(): Promise<void> };
  /**
   * Optional: carries a running job's progress (`ctx.progress()`) from its worker to `watch` on every
   * instance. Without it, progress reaches only streams in the worker's process.
   *
   * @param id The job's id.
   * @param update The progress so far, the total if known, and a message.
   */
  progress?(id: string, update: { progress: number; total?: number; message?: string }): void;
  /**
   * Optional: follows the progress of a job running on a worker, for a stream that pushes it
   * (MCP-lite spec v0.042 §5.3; gRPC `CallToolStream`, SSE, a held MCP call with a progress token).
   *
   * @param id The job's id.
   * @param listener Called with each update `progress` carried.
   * @returns Stops following.
   */
  watch?(id: string, listener: (update: { progress: number; total?: number; message?: string }) => void): () => void;
}
