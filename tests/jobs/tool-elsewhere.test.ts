/**
 * A queued job that reaches a worker whose server lacks its tool (another version of the server module, as in a
 * rolling deploy: an instance of the new version queued it, one of the old took it) goes back to the queue asleep, with
 * one warning, its entry still working, and a worker that has the tool runs it to its end; ten minutes after it was
 * queued, a worker without the tool ends it as a failure saying why (`src/jobs/tool-elsewhere.ts`). Before, the
 * first worker without the tool failed it at once.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker, type ServerOptions } from "../../mod.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { answered, ended, failedWith, promised } from "../helpers/outcome.ts";
import { ROLLOUT_MS } from "../../src/jobs/tool-elsewhere.ts";

const quiet = () => {};

/** Both versions' shared options, and the warnings each worker's server gave. */
function deployment() {
  const { queue, delays } = memoryQueue();
  const warnings: string[] = [];
  const options: ServerOptions = {
    name: "rolling",
    version: "1",
    secret: SECRET,
    resultStore: createMemoryResultStore(),
    queue,
    logger: { debug: quiet, info: quiet, warn: (line: unknown) => void warnings.push(String(line)), error: quiet },
  };
  return { options, delays, warnings };
}

/** The version both have: one tool with declared work. */
const sync = defineTool("sync").describe("Syncs the ledger").longRunning({ retryAfterMs: 5 }).defer(() => ({
  synced: 1,
}));
/** What the new version adds. */
const report = defineTool("report").describe("Builds the month's report").input(v.object({ month: v.string() }))
  .longRunning({ retryAfterMs: 5 }).defer(({ month }) => ({ month, pages: 3 }));

describe("a queued job of a tool the worker's server lacks (a rolling deploy)", () => {
  it("goes back to the queue, warned once, and a worker of the version that has the tool runs it", async () => {
    const { options, delays, warnings } = deployment();
    const accepting = createServer(options).tool(sync).tool(report); // the new version's instance: it queues
    const old = runWorker(createServer(options).tool(sync));
    let current: ReturnType<typeof runWorker> | undefined;
    try {
      const call = await accepting.call("report", { month: "2026-11" });
      const { token } = promised(call);
      // The old worker took it twice (delivered again a second after it was handed back), and ran nothing.
      await waitFor(() => delays.length >= 2);
      assert.equal(warnings.filter((line) => line.includes('tool "report"')).length, 1, warnings.join("\n"));
      assert.match(warnings[0]!, /another version of the server module.*delivers it again/);
      promised(await accepting.call("redeem", { promise: token })); // still working, for its caller
      // The rollout replaces the old worker with one of the new version: the job runs there, to its result.
      await old.close();
      current = runWorker(createServer(options).tool(sync).tool(report));
      assert.deepEqual(answered(await ended(accepting, call)), { month: "2026-11", pages: 3 });
      // The tool both have runs on either, as before.
      assert.deepEqual(answered(await ended(accepting, await accepting.call("sync", {}))), { synced: 1 });
    } finally {
      await old.close();
      await current?.close();
    }
  });

  it("fails, saying why, once no worker that has it took it in the ten minutes since it was queued", async () => {
    const { options } = deployment();
    const accepting = createServer(options).tool(sync).tool(report);
    const call = await accepting.call("report", { month: "2026-11" });
    // A worker without the tool, its clock ten minutes on: the rollout never brought one that has it.
    const later = { ...options, tokens: { now: () => Date.now() + ROLLOUT_MS } };
    const old = runWorker(createServer(later).tool(sync));
    try {
      const text = failedWith(await ended(accepting, call));
      assert.match(text, /no tool "report" with declared work/);
      assert.match(text, /10 minutes since it was queued: it runs another version of the server/);
    } finally {
      await old.close();
    }
  });
});
