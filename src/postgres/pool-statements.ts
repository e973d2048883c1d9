/**
 * What the PostgreSQL stores share: a statement bounded in time, tables made once (under an advisory lock, for
 * instances that start at once), and a sweep of expired rows at most once a minute.
 *
 * @module
 */

/** What the stores need of a node-postgres `Pool` (npm `pg`): its `query(text, values)`. */
export interface PoolLike {
  /** Runs one statement (or several, as one simple query without values). */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** A table name the stores write into SQL: letters, digits and `_`, optionally after a schema and a dot. */
const TABLE_NAME = /^([a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/;

/** How often, at most, a store deletes rows that expired (reads never see them): once a minute. */
const SWEEP_EVERY_MS = 60_000;

/** What makes a statement sent after it, in the same simple query, run on one snapshot. */
export const ONE_SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;";

/**
 * Checks a table name before it is written into SQL.
 *
 * @param table The name.
 * @returns The name.
 * @throws {TypeError} When it is not a plain SQL name.
 */
export function checkedTable(table: string): string {
  if (!TABLE_NAME.test(table)) throw new TypeError(`the table name ${JSON.stringify(table)} is not a plain SQL name`);
  return table;
}

/**
 * Bounds statements in time: one with no answer within `timeoutMs` fails.
 *
 * @param timeoutMs The longest wait, in ms.
 * @returns The bound, for one statement's promise.
 */
export function boundedBy(timeoutMs: number): <T>(statement: Promise<T>) => Promise<T> {
  return async <T>(statement: Promise<T>): Promise<T> => {
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
}

/**
 * Makes tables once: instances that start at once make them one after the other, the statements running as one
 * transaction (one simple query) holding an advisory lock named after them until it ends. Without it, concurrent
 * CREATE TABLE IF NOT EXISTS fail all but one in PostgreSQL's catalog.
 *
 * @param pool The pool.
 * @param bounded The bound on one statement.
 * @param name The lock's name.
 * @param tables The statements that make them.
 * @returns What makes them, once (again after a failure).
 */
export function creation(
  pool: PoolLike,
  bounded: <T>(statement: Promise<T>) => Promise<T>,
  name: string,
  tables: string,
): () => Promise<unknown> {
  let created: Promise<unknown> | undefined;
  return () =>
    created ??= bounded(pool.query(`SELECT pg_advisory_xact_lock(hashtext('mcplite:${name}')); ${tables}`))
      .catch((error) => {
        // Made meanwhile by a process that did not take the lock (unique_violation, duplicate_table): there it is.
        if (["23505", "42P07"].includes((error as { code?: string }).code ?? "")) return;
        created = undefined; // tried again by the next operation
        throw error;
      });
}

/**
 * Runs `what` (a deletion of expired rows) at most once a minute; a failed one is tried again by the next call.
 *
 * @param what The sweep.
 * @returns What starts it, when its time has come.
 */
export function sweeper(what: () => Promise<unknown>): () => void {
  let sweptAt = 0;
  return () => {
    if (Date.now() - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = Date.now();
    what().catch(() => sweptAt = 0);
  };
}
