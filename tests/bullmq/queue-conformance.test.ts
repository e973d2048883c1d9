/**
 * `bullmqQueue()` passes the queue conformance cases (`workQueueCases()`) on a real redis-server and, with
 * BullMQ's Postgres backend, on a real PostgreSQL, each started by the test: every case opens its handles
 * on a queue of its own, and closes them.
 */
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { describeWorkQueue } from "../helpers/work-queue-conformance.ts";

const servers = queueBackends("bullmq queue conformance");

for (const { on, missing, queue } of bullmqBackends(servers)) describeWorkQueue(`bullmqQueue on ${on}`, queue, missing);
