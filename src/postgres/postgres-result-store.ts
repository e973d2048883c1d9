/**
 * A `ResultStore` on PostgreSQL, shared by every instance that uses the same database: one table, first writer
 * wins in one `INSERT … ON CONFLICT DO UPDATE … WHERE` statement, and the database's clock for every expiry, so
 * that instances whose clocks differ agree.
 *
 * @module
 */
import { hasEnded, type ResultStore, type StoredResult } from "../jobs/result-store.ts";

/** A table name the store writes into SQL: letters, digits and `_`, optionally after a schema and a dot. */
const TABLE_NAME = /^([a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/;

/** How often, at most, a store deletes rows that expired (reads never see them): once a minute. */
const SWEEP_EVERY_MS = 60_000;

const utf8 = new TextEncoder();

/**
 * Creates a result store on PostgreSQL. It makes its table on first use (`CREATE TABLE IF NOT EXISTS`; the role
 * needs the right to, or make it beforehand with the statement in the guide). An entry that has ended is never
 * replaced: the write and the check are one statement, which PostgreSQL runs under the row's lock, so a job's
 * result and a concurrent cancellation on another instance never both win. Entries expire with their token (the
 * database's clock); rows past their expiry are deleted by a write at most once a minute.
 *
 * A database out of reach makes the operation fail (the server answers "send again later" on every wire), and one
 * with no answer within `timeoutMs` fails too (the wait for a connection of the pool counts: size the pool for the
 * jobs an instance starts at once). Give the pool an `error` listener: node-postgres emits one when an
 * idle connection breaks (PostgreSQL restarting), and without a listener the process exits.
 *
 * @param pool A node-postgres `Pool` (npm `pg`), or anything with its `query(text, values)`.
 * @param options `table` (default `"mcplite_results"`, optionally schema-qualified), `maxBytes` (the most bytes
 *   of one entry's JSON, default 1 MiB; a larger one is refused with a `RangeError`), `timeoutMs` (the longest
 *   wait for one statement, default 2 000).
 * @returns The store, for `createServer({ resultStore })`.
 *
 * @example
 * ```ts ignore
 * import pg from "pg"; // npm install pg @types/pg
 * import { createServer } from "@mcplite/sdk";
 * import { postgresResultStore } from "@mcplite/sdk/postgres";
 * const pool = new pg.Pool({ connectionString: "postgres://app@10.0.0.6/app" })
 *   .on("error", () => {}); // a broken idle connection: the store reports outages to the server's onError
 * const server = createServer({ name: "app", version: "1.0.0", resultStore: postgresResultStore(pool) });
 * ```
 */
export function postgresResultStore(
  pool: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }> },
  options: { readonly table?: string; readonly maxBytes?: number; readonly timeoutMs?: number } = {},
): ResultStore {
  const table = options.table ?? "mcplite_results";
  if (!TABLE_NAME.test(table)) throw new TypeError(`the table name ${JSON.stringify(table)} is not a plain SQL name`);
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const bounded = async <T>(statement: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([statement, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  let created: Promise<unknown> | undefined;
  const query = async (text: string, values: unknown[]) => {
    // Instances that start at once make the table one after the other: the two statements run as one transaction
    // (one simple query), which holds an advisory lock named after the table until it ends. Without it,
    // concurrent CREATE TABLE IF NOT EXISTS fail all but one in PostgreSQL's catalog.
    created ??= bounded(pool.query(
      `SELECT pg_advisory_xact_lock(hashtext('mcplite:${table}')); ` +
        `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, entry text NOT NULL, ended boolean NOT NULL, ` +
        `expires_at timestamptz NOT NULL)`,
    )).catch((error) => {
      // Made meanwhile by a process that did not take the lock (unique_violation, duplicate_table): there it is.
      if (["23505", "42P07"].includes((error as { code?: string }).code ?? "")) return;
      created = undefined; // tried again by the next operation
      throw error;
    });
    await created;
    return await bounded(pool.query(text, values));
  };
  let sweptAt = 0;
  const sweep = () => {
    if (Date.now() - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = Date.now();
    const expired = `SELECT id FROM ${table} WHERE expires_at < clock_timestamp() LIMIT 1000`;
    query(`DELETE FROM ${table} WHERE id IN (${expired})`, []).catch(() => sweptAt = 0);
  };
  return {
    async get(id) {
      const { rows } = await query(`SELECT entry FROM ${table} WHERE id = $1 AND expires_at > clock_timestamp()`, [id]);
      const row = rows[0] as { entry: string } | undefined;
      return row === undefined ? undefined : JSON.parse(row.entry) as StoredResult;
    },
    async set(id, entry, ttlMs) {
      const json = JSON.stringify(entry);
      const size = utf8.encode(json).length;
      if (size > maxBytes) throw new RangeError(`a result of ${size} bytes exceeds the store's limit of ${maxBytes}`);
      const { rowCount } = await query(
        `INSERT INTO ${table} AS kept (id, entry, ended, expires_at) ` +
          `VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond') ` +
          `ON CONFLICT (id) DO UPDATE SET entry = EXCLUDED.entry, ended = EXCLUDED.ended, ` +
          `expires_at = EXCLUDED.expires_at WHERE NOT (kept.ended AND kept.expires_at > clock_timestamp())`,
        [id, json, hasEnded(entry), Math.max(1, Math.ceil(ttlMs))],
      );
      sweep();
      return rowCount === 1;
    },
    async delete(id) {
      await query(`DELETE FROM ${table} WHERE id = $1`, [id]);
    },
  };
}
