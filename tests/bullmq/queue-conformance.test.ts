/**
 * `bullmqQueue()` passes the queue conformance cases (`workQueueCases()`) on a real redis-server and, with
 * BullMQ's Postgres backend, on a real PostgreSQL, each started by the test: every case opens its handles
 * on a queue of its own, and closes them.
 */
import { after, before } from "node:test";
import { createPostgresBackend } from "bullmq";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { describeWorkQueue } from "../helpers/work-queue-conformance.ts";

if (REDIS_MISSING) console.error(`bullmq queue conformance on redis-server: skipped: ${REDIS_MISSING}`);
if (POSTGRES_MISSING) console.error(`bullmq queue conformance on PostgreSQL: skipped: ${POSTGRES_MISSING}`);

let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;

before(async () => {
  [redis, postgres] = await Promise.all([
    REDIS_MISSING ? undefined : startRedis(),
    POSTGRES_MISSING ? undefined : startPostgres(),
  ]);
});

after(async () => {
  await Promise.all([redis?.stop(), postgres?.remove()]);
});

describeWorkQueue("bullmqQueue on redis-server", (name) => {
  const { hostname, port } = new URL(redis!.url);
  return bullmqQueue({ connection: { host: hostname, port: Number(port) }, name });
}, REDIS_MISSING);

describeWorkQueue("bullmqQueue on PostgreSQL", (name) =>
  bullmqQueue({
    backend: createPostgresBackend,
    connection: { connectionString: postgres!.url, migrate: true }, // BullMQ makes its schema on first use
    name,
  }), POSTGRES_MISSING);
