/**
 * Many instances on PostgreSQL: `postgresResultStore(pool)` shares the results of `ctx.defer()` work (and MCP
 * task state) between every server instance using the same database, with jobs' journals in a table keyed by job and
 * step (`postgresJournalStore()`, which it brings), and `postgresNotifier(pool)` carries
 * list_changed and resource-updated notifications between them over LISTEN/NOTIFY. Bring a node-postgres pool
 * (npm `pg`, with `@types/pg` for its types: it ships none); this entry point imports nothing of it.
 *
 * @module
 */
export { postgresNotifier, type PostgresNotifierOptions } from "./postgres-notifier.ts";
export { postgresResultStore, type PostgresResultStoreOptions } from "./postgres-result-store.ts";
export { postgresJournalStore, type PostgresJournalStoreOptions } from "./postgres-journal-store.ts";
