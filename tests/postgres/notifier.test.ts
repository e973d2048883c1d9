/**
 * `postgresNotifier()` over LISTEN/NOTIFY on a real PostgreSQL (started by the test): the Notifier contract, three
 * MCP instances relaying changes to each other's listeners, and a listener that hears again after PostgreSQL was
 * killed (`kill -9`) and started again, the outage told to `onError` once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { postgresNotifier } from "../../src/postgres/mod.ts";
import { waitFor } from "../helpers/long-running.ts";
import { assertAcrossInstances, assertNotifierContract } from "../helpers/notifier-instances.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";

if (POSTGRES_MISSING) console.error(`postgres notifier: skipped: ${POSTGRES_MISSING}`);

let server: PostgresServer | undefined;
let pool: pg.Pool | undefined;

before(async () => {
  if (POSTGRES_MISSING) return;
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url });
  pool.on("error", () => {}); // idle connections broken by the kill below
});

after(async () => {
  await pool?.end();
  await server?.remove();
});

/** How many connections listen on `channel` (each one's last statement was its LISTEN). */
async function listening(channel: string): Promise<number> {
  const { rows } = await pool!.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1", [
    `LISTEN ${channel}`,
  ]);
  return rows[0].n;
}

const channelName = () => `test_${crypto.randomUUID().replaceAll("-", "_")}`;

describe("postgresNotifier", { skip: POSTGRES_MISSING }, () => {
  it("gives each message to every listener of one notifier, until each unsubscribes", async () => {
    const channel = channelName();
    await assertNotifierContract(postgresNotifier(pool!, { channel }), () => listening(channel));
  });

  it("carries resource updates and list changes raised on A to listeners on B and C", async () => {
    const channel = channelName();
    const notifiers = [0, 1, 2].map(() => postgresNotifier(pool!, { channel }));
    await assertAcrossInstances(notifiers, async () => (await listening(channel)) === 3);
  });

  it("refuses a channel that is not a plain SQL name", () => {
    assert.throws(() => postgresNotifier(pool!, { channel: "x; NOTIFY y" }), TypeError);
  });

  it("listens again after PostgreSQL was killed and started again, telling onError once", async () => {
    const channel = channelName();
    const notifier = postgresNotifier(pool!, { channel });
    const heard: string[] = [];
    const errors: unknown[] = [];
    try {
      await notifier.subscribe((message) => heard.push(message), (error) => errors.push(error));
      await notifier.publish("before");
      await waitFor(() => heard.length === 1);
      await server!.kill();
      await waitFor(() => errors.length === 1);
      await server!.restart();
      // Published until heard: NOTIFY keeps nothing for a connection that listens later, and the notifier's
      // next try comes within its backoff (2 s at most).
      await waitFor(async () => {
        await notifier.publish("after").catch(() => {});
        return heard.includes("after");
      }, 20_000);
      assert.equal(heard[0], "before");
      assert.equal(errors.length, 1, "one report for the outage, not one per try");
    } finally {
      notifier.close();
    }
  });
});
