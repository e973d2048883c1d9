/**
 * A `ResultStore` on PostgreSQL, shared by every instance that uses the same database: one table, first writer
 * wins in one `INSERT … ON CONFLICT DO UPDATE … WHERE` statement, and the database's clock for every expiry, so
 * that instances whose clocks differ agree.
 *
 * @module
 */
import { hasEnded, type ResultStore, type StoredResult } from "../jobs/result-store.ts";
import { boundedBy, checkedTable, creation, ONE_SNAPSHOT, sweeper } from "./pool-statements.ts";
import { postgresJournalStore } from "./postgres-journal-store.ts";

const utf8 = new TextEncoder();

/**
 * The options of {@link postgresResultStore}: where it keeps entries, how large one may be, and how long it waits.
 *
 * @example
 * ```ts
 * import type { PostgresResultStoreOptions } from "@mcplite/sdk/postgres";
 * // A schema of the app's own, and a database farther away than the default wait allows for.
 * const options: PostgresResultStoreOptions = { table: "mcp.results", timeoutMs: 5_000 };
 * ```
 */
export interface PostgresResultStoreOptions {
  /**
   * The table (default `"mcplite_results"`), optionally schema-qualified (`app.results`): letters, digits and `_`.
   * Sets live beside it, in `<table>_sets` and `<table>_members`.
   */
  readonly table?: string;
  /** The most bytes of one entry's JSON (default 1 MiB); a larger one is refused with a `RangeError`. */
  readonly maxBytes?: number;
  /**
   * The longest wait for one statement, in ms (default 2 000), the wait for a connection of the pool included;
   * past it the operation fails (the server answers "send again later").
   */
  readonly timeoutMs?: number;
}

/**
 * Creates a result store on PostgreSQL. It makes its table on first use (`CREATE TABLE IF NOT EXISTS`; the role
 * needs the right to, or make it beforehand with the statement in the guide). An entry that has ended is never
 * replaced: the write and the check are one statement, which PostgreSQL runs under the row's lock, so a job's
 * result and a concurrent cancellation on another instance never both win. Entries expire with their token (the
 * database's clock); rows past their expiry are deleted by a write at most once a minute. Sets (`addMember`,
 * `removeMember`, `members`) live in two more tables, `<table>_sets` and `<table>_members`, made at the first set
 * operation, expiring by the same clock and swept the same way. Jobs' journals live in `<table>_journal`, a row per
 * step (its `journalStore`: {@link postgresJournalStore}), which the server takes.
 *
 * A database out of reach makes the operation fail (the server answers "send again later" on every wire), and one
 * with no answer within `timeoutMs` fails too (the wait for a connection of the pool counts: size the pool for the
 * jobs an instance starts at once). Give the pool an `error` listener: node-postgres emits one when an
 * idle connection breaks (PostgreSQL restarting), and without a listener the process exits.
 *
 * @param pool A node-postgres `Pool` (npm `pg`), or anything with its `query(text, values)`.
 * @param options The table, the bound on one entry, and the longest wait for one statement.
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
  options: PostgresResultStoreOptions = {},
): ResultStore {
  const table = checkedTable(options.table ?? "mcplite_results");
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const bounded = boundedBy(timeoutMs);
  const entries = creation(
    pool,
    bounded,
    table,
    `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, entry text NOT NULL, ended boolean NOT NULL, ` +
      `expires_at timestamptz NOT NULL)`,
  );
  // The sets' two tables, made at the first set operation (a store that never keeps a set needs no right to).
  const [sets, members] = [`${table}_sets`, `${table}_members`];
  const setTables = creation(
    pool,
    bounded,
    sets,
    `CREATE TABLE IF NOT EXISTS ${sets} (id text PRIMARY KEY, gen timestamptz NOT NULL, ` +
      `expires_at timestamptz NOT NULL); CREATE TABLE IF NOT EXISTS ${members} (id text NOT NULL, ` +
      `member text NOT NULL, gen timestamptz NOT NULL, PRIMARY KEY (id, member))`,
  );
  const query = async (text: string, values: unknown[], tables = entries) => {
    await tables();
    return await bounded(pool.query(text, values));
  };
  const setQuery = (text: string, values: unknown[]) => query(text, values, setTables);
  // Each sweep runs on one snapshot (REPEATABLE READ, one simple query: an implicit transaction). Under READ
  // COMMITTED, a row a write renews while the sweep waits for its lock would be deleted anyway (the rows chosen
  // as expired are not read again), and a set's members added by that write, which the sweep's snapshot does not
  // hold, would outlive it, unread and never swept. On one snapshot the sweep fails instead ("could not serialize
  // access", PostgreSQL 15 §13.2.2), deleting nothing, and the next write sweeps again.
  const sweep = sweeper(() => {
    const expired = `SELECT id FROM ${table} WHERE expires_at < clock_timestamp() LIMIT 1000`;
    return query(`${ONE_SNAPSHOT} DELETE FROM ${table} WHERE id IN (${expired})`, []);
  });
  const sweepSets = sweeper(() => {
    const expired = `SELECT id FROM ${sets} WHERE expires_at < clock_timestamp() LIMIT 1000`;
    return setQuery(
      `${ONE_SNAPSHOT} WITH gone AS (DELETE FROM ${sets} WHERE id IN (${expired}) RETURNING id) ` +
        `DELETE FROM ${members} WHERE id IN (SELECT id FROM gone)`,
      [],
    );
  });
  return {
    // Jobs' journals beside the entries, a row per step in `<table>_journal`, which the server takes.
    journalStore: postgresJournalStore(pool, { table: `${table}_journal`, timeoutMs }),
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
    // A set is a row of `<table>_sets` (its lifetime, and the time it began: its generation) and a row per member
    // in `<table>_members`, read through the generation: a set added to after it expired begins a new one, so the
    // members of the one before (deleted by the sweep) are never read again. `EXCLUDED.gen` is the statement's
    // one "now", which both branches compare with.
    async addMember(key, member, ttlMs) {
      await setQuery(
        `WITH kept AS (INSERT INTO ${sets} AS s (id, gen, expires_at) ` +
          `VALUES ($1, clock_timestamp(), clock_timestamp() + $3 * interval '1 millisecond') ` +
          `ON CONFLICT (id) DO UPDATE SET ` +
          `gen = CASE WHEN s.expires_at > EXCLUDED.gen THEN s.gen ELSE EXCLUDED.gen END, ` +
          `expires_at = CASE WHEN s.expires_at > EXCLUDED.gen ` +
          `THEN GREATEST(s.expires_at, EXCLUDED.expires_at) ELSE EXCLUDED.expires_at END RETURNING gen) ` +
          `INSERT INTO ${members} (id, member, gen) SELECT $1, $2, gen FROM kept ` +
          `ON CONFLICT (id, member) DO UPDATE SET gen = EXCLUDED.gen`,
        [key, member, Math.max(1, Math.ceil(ttlMs))],
      );
      sweepSets();
    },
    async removeMember(key, member) {
      await setQuery(`DELETE FROM ${members} WHERE id = $1 AND member = $2`, [key, member]);
    },
    async members(key) {
      const { rows } = await setQuery(
        `SELECT m.member FROM ${members} m JOIN ${sets} s ON s.id = m.id AND s.gen = m.gen ` +
          `WHERE m.id = $1 AND s.expires_at > clock_timestamp()`,
        [key],
      );
      return rows.map((row) => (row as { member: string }).member);
    },
  };
}
