/**
 * A `JournalStore` on PostgreSQL: one table, a row per job and step (as DBOS's `operation_outputs`, keyed by workflow
 * and function), so resuming a job reads its journal in one `SELECT`, and a step is appended by one `INSERT`.
 *
 * @module
 */
import type { JournalEntry, JournalStore } from "../jobs/journal-store.ts";
import { boundedBy, checkedTable, creation, ONE_SNAPSHOT, sweeper } from "./pool-statements.ts";

/**
 * The options of {@link postgresJournalStore}.
 *
 * @example
 * ```ts
 * import type { PostgresJournalStoreOptions } from "@mcplite/sdk/postgres";
 * // A schema of the app's own, and a database farther away than the default wait allows for.
 * const options: PostgresJournalStoreOptions = { table: "mcp.journal", timeoutMs: 5_000 };
 * ```
 */
export interface PostgresJournalStoreOptions {
  /** The table (default `"mcplite_results_journal"`), optionally schema-qualified: letters, digits and `_`. */
  readonly table?: string;
  /** The longest wait for one statement, in ms (default 2 000), as `postgresResultStore()`'s. */
  readonly timeoutMs?: number;
}

/** A row as the store reads it (`at`: a `bigint`, which node-postgres gives as text). */
type Row = { name: string; position: number; value: string | null; at: string | number };

/**
 * Creates a journal store on PostgreSQL: a row per job and step (`PRIMARY KEY (job, name)`) holding the step's place,
 * JSON value and time, appended by `INSERT … ON CONFLICT DO NOTHING` (first writer wins; a row past its expiry is
 * written over), loaded by one `SELECT`, expiring with the job by the database's clock; rows past their expiry are
 * deleted by an append at most once a minute. It makes its table on first use (`CREATE TABLE IF NOT EXISTS`).
 * `postgresResultStore()` brings one on the same pool (`<table>_journal`), which the server takes; make one yourself
 * for `createServer({ journalStore })` only to keep journals elsewhere than the results.
 *
 * @param pool A node-postgres `Pool` (npm `pg`), or anything with its `query(text, values)`.
 * @param options The table and the longest wait for one statement.
 * @returns The store.
 *
 * @example
 * ```ts ignore
 * import pg from "pg";
 * import { createServer } from "@mcplite/sdk";
 * import { postgresJournalStore, postgresResultStore } from "@mcplite/sdk/postgres";
 * const pool = new pg.Pool({ connectionString: "postgres://app@10.0.0.6/app" }).on("error", () => {});
 * // The result store's own journal store, as the server would take it, in a schema of its own.
 * const server = createServer({
 *   name: "app",
 *   version: "1.0.0",
 *   resultStore: postgresResultStore(pool),
 *   journalStore: postgresJournalStore(pool, { table: "jobs.journal" }),
 * });
 * ```
 */
export function postgresJournalStore(
  pool: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }> },
  options: PostgresJournalStoreOptions = {},
): JournalStore {
  const table = checkedTable(options.table ?? "mcplite_results_journal");
  const bounded = boundedBy(options.timeoutMs ?? 2_000);
  const made = creation(
    pool,
    bounded,
    table,
    `CREATE TABLE IF NOT EXISTS ${table} (job text NOT NULL, name text NOT NULL, position integer NOT NULL, ` +
      `value text, at bigint NOT NULL, expires_at timestamptz NOT NULL, PRIMARY KEY (job, name))`,
  );
  const query = async (text: string, values: unknown[]) => {
    await made();
    return await bounded(pool.query(text, values));
  };
  // On one snapshot, as the result store's sweep (PostgreSQL 15 §13.2.2): a row written over after it expired, as
  // the sweep waits for it, fails the sweep rather than being deleted.
  const sweep = sweeper(() => {
    const expired = `SELECT job, name FROM ${table} WHERE expires_at < clock_timestamp() LIMIT 1000`;
    return query(`${ONE_SNAPSHOT} DELETE FROM ${table} WHERE (job, name) IN (${expired})`, []);
  });
  const columns = "name, position, value, at";
  return {
    async load(job) {
      const { rows } = await query(
        `SELECT ${columns} FROM ${table} WHERE job = $1 AND expires_at > clock_timestamp()`,
        [job],
      );
      return (rows as Row[]).map(entryOf);
    },
    async append(job, entry, ttlMs) {
      const value = entry.value === undefined ? null : JSON.stringify(entry.value);
      const { rowCount } = await query(
        `INSERT INTO ${table} AS kept (job, name, position, value, at, expires_at) ` +
          `VALUES ($1, $2, $3, $4, $5, clock_timestamp() + $6 * interval '1 millisecond') ` +
          `ON CONFLICT (job, name) DO UPDATE SET position = EXCLUDED.position, value = EXCLUDED.value, ` +
          `at = EXCLUDED.at, expires_at = EXCLUDED.expires_at WHERE kept.expires_at <= clock_timestamp()`,
        [job, entry.name, entry.position, value, entry.at, Math.max(1, Math.ceil(ttlMs))],
      );
      sweep();
      if (rowCount === 1) return entry;
      // Another writer's row stands: a statement of its own, whose snapshot holds that writer's commit.
      const { rows } = await query(`SELECT ${columns} FROM ${table} WHERE job = $1 AND name = $2`, [job, entry.name]);
      const kept = rows[0] as Row | undefined;
      return kept === undefined ? entry : entryOf(kept);
    },
  };
}

/** An entry from its row. */
function entryOf(row: Row): JournalEntry {
  const { name, position, value, at } = row;
  return { name, position, ...value === null ? {} : { value: JSON.parse(value) }, at: Number(at) };
}
