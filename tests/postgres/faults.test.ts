/**
 * PostgreSQL failing under load: three instances share one real PostgreSQL (each with a pool of its own) while
 * jobs run, and PostgreSQL is stopped (a fast shutdown) or killed with its backends (`kill -9`) mid-load, then
 * started again on the same cluster; what holds meanwhile is `survive()`'s (tests/helpers/store-faults.ts).
 */
import { describe, it } from "node:test";
import pg from "pg";
import { postgresNotifier, postgresResultStore } from "../../src/postgres/mod.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";
import { survive } from "../helpers/store-faults.ts";

if (POSTGRES_MISSING) console.error(`postgres faults: skipped: ${POSTGRES_MISSING}`);

/** Starts PostgreSQL, and breaks it with `breakIt` in the middle of `survive()`. */
async function onPostgres(breakIt: (server: PostgresServer) => Promise<void>): Promise<void> {
  const server = await startPostgres();
  const pools: pg.Pool[] = [];
  try {
    await survive({
      async instance() {
        // Room for the 15 jobs an instance starts at once (two statements each), opened before they come, as a
        // pool in service has them: 45 connections made at once on a loaded machine (a process forked for each)
        // outlasted the store's 2 s bound, and a pool of the default 10 queued the starts past it too.
        const pool = new pg.Pool({ connectionString: server.url, max: 20 });
        pool.on("error", () => {}); // the application's own listener: idle connections break with the server
        pools.push(pool);
        const warm = await Promise.all(Array.from({ length: 16 }, () => pool.connect()));
        for (const connection of warm) connection.release();
        return {
          resultStore: postgresResultStore(pool),
          notifier: postgresNotifier(pool),
          close: () => void pool.end().catch(() => {}),
        };
      },
      async listening() {
        const { rows } = await pools[0].query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN mcplite_notifications'",
        );
        return rows[0].n === 3;
      },
      break: () => breakIt(server),
      restore: () => server.restart(),
    });
  } finally {
    await server.remove();
  }
}

describe("three instances on one PostgreSQL that fails under load", { skip: POSTGRES_MISSING }, () => {
  it("survives a stop and restart: nothing lost, every redeem retryable meanwhile", async () => {
    await onPostgres((server) => server.stop());
  });

  it("survives a kill -9 of the server and its backends, and a restart: nothing lost, every redeem retryable", async () => {
    await onPostgres((server) => server.kill());
  });
});
