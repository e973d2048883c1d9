/**
 * The shared store on PostgreSQL (`SharedStore`), which `postgresResultStore()` is a view of: a record is a row of one
 * table (its JSON as text, whether it is final, when it expires by the database's clock), each conditional write one
 * statement that PostgreSQL runs under the row's lock; a set is a row of `<table>_sets` and one per member.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import { boundedBy, checkedTable, creation, ONE_SNAPSHOT, type PoolLike, sweeper } from "./pool-statements.ts";

const utf8 = new TextEncoder();

/** Options of {@link postgresStore}: those of `postgresResultStore()`. */
export interface PostgresStoreOptions {
  /** The table (default `"mcplite_results"`), optionally schema-qualified: letters, digits and `_`. */
  readonly table?: string;
  /** The most bytes of one record's JSON (default 1 MiB); a larger one is refused with a `RangeError`. */
  readonly maxBytes?: number;
  /** The longest wait for one statement, in ms (default 2 000), the wait for a connection of the pool included. */
  readonly timeoutMs?: number;
}

/**
 * Creates the shared store on PostgreSQL, its tables made on first use (see `postgresResultStore()`). A row whose
 * `expires_at` passed is absent to every operation, and is deleted by a write at most once a minute.
 *
 * @param pool A node-postgres `Pool` (npm `pg`), or anything with its `query(text, values)`.
 * @param options The table, the bound on one record, and the longest wait for one statement.
 * @returns The store.
 */
export function postgresStore(pool: PoolLike, options: PostgresStoreOptions = {}): SharedStore {
  const table = checkedTable(options.table ?? "mcplite_results");
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const bounded = boundedBy(options.timeoutMs ?? 2_000);
  const records = creation(
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
  const query = async (text: string, values: unknown[], tables = records) => {
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
  const json = (value: unknown) => {
    const text = JSON.stringify(value);
    const size = utf8.encode(text).length;
    if (size > maxBytes) throw new RangeError(`a record of ${size} bytes exceeds the store's limit of ${maxBytes}`);
    return text;
  };
  const ms = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs));
  const live = "kept.expires_at > clock_timestamp()";
  // Written where the row is absent, or as the condition on the row kept (`kept`) allows; one statement.
  const write = async (key: string, text: string, final: boolean, ttlMs: number, when: string) => {
    const { rowCount } = await query(
      `INSERT INTO ${table} AS kept (id, entry, ended, expires_at) ` +
        `VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond') ` +
        `ON CONFLICT (id) DO UPDATE SET entry = EXCLUDED.entry, ended = EXCLUDED.ended, ` +
        `expires_at = EXCLUDED.expires_at WHERE ${when}`,
      [key, text, final, ms(ttlMs)],
    );
    sweep();
    return rowCount === 1;
  };
  return {
    async get(key) {
      const { rows } = await query(`SELECT entry FROM ${table} WHERE id = $1 AND expires_at > clock_timestamp()`, [
        key,
      ]);
      const row = rows[0] as { entry: string } | undefined;
      return row === undefined ? undefined : JSON.parse(row.entry);
    },
    put: async (key, value, ttlMs, options) =>
      await write(key, json(value), options?.final === true, ttlMs, `NOT (kept.ended AND ${live})`),
    putIfAbsent: async (key, value, ttlMs) => await write(key, json(value), false, ttlMs, `NOT ${live}`),
    async compareAndSet(key, expected, next, ttlMs) {
      const text = json(next);
      if (expected === undefined) return await write(key, text, false, ttlMs, `NOT ${live}`);
      // The text compared is the one this store wrote: `JSON.stringify` of what `get()` parsed from it is that text.
      const { rowCount } = await query(
        `UPDATE ${table} SET entry = $2, ended = false, expires_at = clock_timestamp() + $3 * interval '1 millisecond' ` +
          `WHERE id = $1 AND expires_at > clock_timestamp() AND NOT ended AND entry = $4`,
        [key, text, ms(ttlMs), JSON.stringify(expected)],
      );
      return rowCount === 1;
    },
    async delete(key) {
      await query(`DELETE FROM ${table} WHERE id = $1`, [key]);
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
        [key, member, ms(ttlMs)],
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
