/**
 * Many instances on Redis: `redisResultStore(client)` shares the results of `ctx.defer()` work (and
 * MCP task state) between every server instance using the same Redis, with jobs' journals in a hash per job
 * (`redisJournalStore()`, which it brings), and `redisNotifier(client)`
 * carries list_changed and resource-updated notifications between them. Bring a connected client of
 * npm `redis` (node-redis 5); this entry point imports nothing of it.
 *
 * @module
 */
export type { RedisClientLike } from "./redis-client-like.ts";
export { redisResultStore, type RedisResultStoreOptions } from "./redis-result-store.ts";
export { redisJournalStore, type RedisJournalStoreOptions } from "./redis-journal-store.ts";
export { redisNotifier, type RedisNotifierOptions, type RedisPubSubClientLike } from "./redis-notifier.ts";
