/**
 * The floor's result store for `bench/queue-raw.ts`: what any queued-job server that keeps results in a store
 * must do per job at least, by hand, on the store kinds `bench/queue.ts` uses. Redis: one `SET key value PX
 * ttl` by the worker, one `GET` by the reader. PostgreSQL: one `INSERT … ON CONFLICT DO UPDATE … WHERE` (the
 * statement and table of `postgresResultStore`) by the worker, one `SELECT` by the reader, on `pg` pools.
 *
 * @module
 */
import { Redis } from "ioredis";
import pg from "pg";

/** The table, as `postgresResultStore` makes its own. */
const TABLE = "floor_results";
const TTL_MS = 3_600_000;

/** A result as large as the bench's tools' stored result (an ended entry with `{ n }` as text and structured). */
export function floorResult(n: number): string {
  const text = JSON.stringify({ n });
  return JSON.stringify({
    status: "completed",
    result: { content: [{ type: "text", text }], structuredContent: { n } },
    createdAt: Date.now(),
    ttlMs: TTL_MS,
  });
}

/** The entry of a job not ended (the design's floor writes it as the job is added). */
export const WORKING = JSON.stringify({ status: "working", createdAt: 0, ttlMs: TTL_MS });

/** One write per job, one read per job; `prepare()` makes the table (PostgreSQL) before any worker writes. */
export interface FloorStore {
  prepare(): Promise<void>;
  write(key: string, value: string): Promise<void>;
  read(key: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export function floorStore(backend: "redis" | "postgres", url: string): FloorStore {
  if (backend === "redis") {
    const client = new Redis(url, { maxRetriesPerRequest: 1 });
    client.on("error", () => {});
    return {
      prepare: () => Promise.resolve(),
      write: async (key, value) => void await client.set(`floor:${key}`, value, "PX", TTL_MS),
      read: async (key) => (await client.get(`floor:${key}`)) ?? undefined,
      close: () => Promise.resolve(client.disconnect()),
    };
  }
  const pool = new pg.Pool({ connectionString: url });
  pool.on("error", () => {});
  return {
    prepare: async () =>
      void await pool.query(
        `CREATE TABLE IF NOT EXISTS ${TABLE} (id text PRIMARY KEY, entry text NOT NULL, ended boolean NOT NULL, ` +
          `expires_at timestamptz NOT NULL)`,
      ),
    write: async (key, value) =>
      void await pool.query(
        `INSERT INTO ${TABLE} AS kept (id, entry, ended, expires_at) ` +
          `VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond') ` +
          `ON CONFLICT (id) DO UPDATE SET entry = EXCLUDED.entry, ended = EXCLUDED.ended, ` +
          `expires_at = EXCLUDED.expires_at WHERE NOT (kept.ended AND kept.expires_at > clock_timestamp())`,
        [key, value, !value.startsWith('{"status":"working"'), TTL_MS],
      ),
    read: async (key) => {
      const { rows } = await pool.query(
        `SELECT entry FROM ${TABLE} WHERE id = $1 AND expires_at > clock_timestamp()`,
        [key],
      );
      return (rows[0] as { entry: string } | undefined)?.entry;
    },
    close: () => pool.end(),
  };
}
