/**
 * A `ResultStore` on PostgreSQL, shared by every instance that uses the same database: one table, first writer
 * wins in one `INSERT … ON CONFLICT DO UPDATE … WHERE` statement, and the database's clock for every expiry, so
 * that instances whose clocks differ agree.
 *
 * @module
 */
import type { ResultStore } from "../jobs/result-store.ts";
import { resultStoreOver } from "../jobs/result-store-view.ts";
import { checkedTable } from "./pool-statements.ts";
import { postgresJournalStore } from "./postgres-journal-store.ts";
import { postgresStore } from "./postgres-store.ts";

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
 * step (its `journalStore`: {@link postgresJournalStore}), which the server takes. It is a view of job entries over
 * the shared store on PostgreSQL (its `store`, where the server's other features keep their records, in the same
 * tables), an ended entry written final.
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
  return resultStoreOver(
    postgresStore(pool, options),
    // Jobs' journals beside the entries, a row per step in `<table>_journal`, which the server takes.
    postgresJournalStore(pool, {
      table: `${checkedTable(options.table ?? "mcplite_results")}_journal`,
      timeoutMs: options.timeoutMs ?? 2_000,
    }),
  );
}
