/**
 * `postgresResultStore()` on a real PostgreSQL (started by the test): the store conformance cases, three server
 * instances sharing it, a result larger than its bound and one under a raised bound, a frozen server (SIGSTOP)
 * that makes each operation fail within `timeoutMs`, then serves again, and the sets' tables (made when first needed,
 * swept).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import type { ResultStore } from "../../mod.ts";
import { postgresResultStore } from "../../src/postgres/mod.ts";
import { describeSharedInstances } from "../helpers/instances.ts";
import { assertTooLarge, exportThrough } from "../helpers/large-results.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";

if (POSTGRES_MISSING) console.error(`postgres: skipped: ${POSTGRES_MISSING}`);

let server: PostgresServer | undefined;
let pool: pg.Pool | undefined;
let shared: ResultStore | undefined;

before(async () => {
  if (POSTGRES_MISSING) return;
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 20 });
  pool.on("error", () => {}); // an idle connection broken by a restart: the store reports what matters
});

after(async () => {
  await pool?.end();
  await server?.remove();
});

describeResultStore("postgres", () => postgresResultStore(pool!, { table: "conformance" }), {
  maxBytes: 1 << 20,
  skip: POSTGRES_MISSING,
});

describeSharedInstances(
  "postgres",
  () => shared ??= postgresResultStore(pool!, { table: "instances" }),
  POSTGRES_MISSING,
);

describe("postgresResultStore", { skip: POSTGRES_MISSING }, () => {
  it("fails a result past the default 1 MiB saying how to get past it, and passes a raised bound", async () => {
    assertTooLarge(await exportThrough(postgresResultStore(pool!, { table: "large" }), 2 << 20), 1 << 20);
    const raised = await exportThrough(postgresResultStore(pool!, { table: "large", maxBytes: 8 << 20 }), 5 << 20);
    assert.deepEqual(raised, { type: "text", text: "x".repeat(5 << 20) });
  });

  it("refuses a table name that is not a plain SQL name, before any statement", () => {
    assert.throws(() => postgresResultStore(pool!, { table: "results; DROP TABLE x" }), TypeError);
    assert.throws(() => postgresResultStore(pool!, { table: 'a"b' }), TypeError);
  });

  it("fails each operation within timeoutMs while PostgreSQL is frozen, and serves again once it answers", async () => {
    const store = postgresResultStore(pool!, { table: "frozen", timeoutMs: 300 });
    const entry = { status: "completed" as const, result: { content: [{ type: "text" as const, text: "kept" }] } };
    assert.equal(await store.set("a", entry, 60_000), true);
    server!.pause();
    try {
      await assert.rejects(store.get("a"), /PostgreSQL did not answer within 300 ms/);
    } finally {
      server!.resume();
    }
    let read: unknown;
    const deadline = Date.now() + 20_000;
    while ((read = await store.get("a").catch(() => undefined)) === undefined) {
      assert.ok(Date.now() < deadline, "PostgreSQL answered again within 20 s of SIGCONT");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(read, entry);
  });

  it("makes the sets' tables at the first set operation only, and sweeps an expired set with its members", async () => {
    const table = `sets_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const exists = async (name: string) =>
      (await pool!.query("SELECT to_regclass($1) AS found", [name])).rows[0].found !== null;
    const store = postgresResultStore(pool!, { table });
    assert.equal(await store.set("a", { status: "working" }, 60_000), true);
    assert.deepEqual([await exists(table), await exists(`${table}_sets`)], [true, false]);
    await store.addMember!("gone", "m1", 1);
    await store.addMember!("gone", "m2", 1);
    assert.deepEqual([await exists(`${table}_sets`), await exists(`${table}_members`)], [true, true]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A new store sweeps at its first add; a sweep that failed (its statement past the store's 2 s timeout, on a
    // loaded machine) is made again at the next add, so the loop adds again while it waits.
    const fresh = postgresResultStore(pool!, { table });
    await fresh.addMember!("kept", "m", 60_000);
    const rows = async () =>
      Number((await pool!.query(`SELECT count(*) AS n FROM ${table}_members WHERE id = 'gone'`)).rows[0].n) +
      Number((await pool!.query(`SELECT count(*) AS n FROM ${table}_sets WHERE id = 'gone'`)).rows[0].n);
    const deadline = Date.now() + 10_000;
    while (await rows() > 0) {
      assert.ok(Date.now() < deadline, "the expired set and its members were deleted within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await fresh.addMember!("kept", "m", 60_000);
    }
    assert.deepEqual(await store.members!("kept"), ["m"]);
  });
});
