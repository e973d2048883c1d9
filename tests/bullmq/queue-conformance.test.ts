/**
 * `bullmqQueue()` passes the queue conformance cases (`workQueueCases()`) on a real redis-server and, with
 * BullMQ's Postgres backend, on a real PostgreSQL, each started by the test: every case opens its handles
 * on a queue of its own, and closes them.
 */
import { createPostgresBackend } from "bullmq";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { POSTGRES_MISSING } from "../helpers/postgres-server.ts";
import { REDIS_MISSING } from "../helpers/redis-server.ts";
import { queueBackends } from "../helpers/queue-backends.ts";
import { describeWorkQueue } from "../helpers/work-queue-conformance.ts";

const servers = queueBackends("bullmq queue conformance");

describeWorkQueue("bullmqQueue on redis-server", (name) => {
  const { hostname, port } = new URL(servers.redis!.url);
  return bullmqQueue({ connection: { host: hostname, port: Number(port) }, name });
}, REDIS_MISSING);

describeWorkQueue("bullmqQueue on PostgreSQL", (name) =>
  bullmqQueue({
    backend: createPostgresBackend,
    connection: { connectionString: servers.postgres!.url, migrate: true }, // BullMQ makes its schema on first use
    name,
  }), POSTGRES_MISSING);
