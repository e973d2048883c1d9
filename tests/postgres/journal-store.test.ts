/**
 * `postgresJournalStore()` on a real PostgreSQL (started by the test): the journal store conformance cases, and the
 * store `postgresResultStore()` brings, which a server takes without being told: a job's journal is rows of a table
 * keyed by job and step, not entries of the result store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { createServer, defineTool } from "../../mod.ts";
import { postgresJournalStore, postgresResultStore } from "../../src/postgres/mod.ts";
import { describeJournalStore } from "../helpers/journal-store-conformance.ts";
import { SECRET } from "../helpers/long-running.ts";
import { redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../helpers/postgres-server.ts";

if (POSTGRES_MISSING) console.error(`postgres: skipped: ${POSTGRES_MISSING}`);

let server: PostgresServer | undefined;
let pool: pg.Pool | undefined;

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

describeJournalStore("postgres", () => postgresJournalStore(pool!, { table: "conformance_journal" }), {
  skip: POSTGRES_MISSING,
});
describeJournalStore("postgresResultStore()'s", () => postgresResultStore(pool!, { table: "results" }).journalStore!, {
  skip: POSTGRES_MISSING,
});

describe("a server on postgresResultStore()", { skip: POSTGRES_MISSING }, () => {
  it("keeps its jobs' journals in a table keyed by job and step, not in the result store's entries", async () => {
    const resultStore = postgresResultStore(pool!, { table: "served" });
    const tool = defineTool("stepped").describe("Two steps").longRunning().defer(async (_, work) => {
      await work.step("a", () => 1);
      await work.step("b", () => ({ two: 2 }));
      return { job: work.jobId };
    });
    const app = createServer({ name: "p", version: "1", secret: SECRET, resultStore }).tool(tool);
    const outcome = await redeemedWithin(app, tokenOf(await app.call("stepped", {})), 15_000);
    assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
    const { job } = (outcome as { result: { structuredContent?: unknown } }).result.structuredContent as {
      job: string;
    };
    const { rows } = await pool!.query(
      "SELECT name, position, value FROM served_journal WHERE job = $1 ORDER BY position",
      [
        job,
      ],
    );
    assert.deepEqual(rows, [{ name: "a", position: 1, value: "1" }, { name: "b", position: 2, value: '{"two":2}' }]);
    assert.equal(await resultStore.get(`step:${job}:a`), undefined, "no step entry in the result store");
  });

  it("refuses a table name that is not a plain SQL name, before any statement", () => {
    assert.throws(() => postgresJournalStore(pool!, { table: "journal; DROP TABLE x" }), TypeError);
  });
});
