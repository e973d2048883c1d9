/**
 * Queued jobs on BullMQ: `bullmqQueue({ connection })` is the `queue` of `createServer()` and of
 * `runWorker()`, on Redis or Valkey (or PostgreSQL, with BullMQ's `createPostgresBackend`). BullMQ's
 * locks and stalled-job check deliver the job of a worker that died to another worker; its jobs show
 * in Bull Board. This entry point imports `bullmq` (a peer dependency: `npm i bullmq`).
 *
 * @module
 */
export { bullmqQueue, type BullmqQueueOptions } from "./bullmq-queue.ts";
