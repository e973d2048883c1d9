/**
 * A queued `work.sleep()` no code of the work can swallow: its run suspends (the sleep's promise never settles, the
 * worker hands the job back to the queue with the delay), so a `try/catch` around it, or a retry wrapper around the
 * whole work (as `p-retry` is used), still sleeps the whole time, sees no error, and nothing is logged as one. On
 * BullMQ over a real redis-server and over a real PostgreSQL, the web side and the worker in the test's process.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { defineTool, runWorker } from "../../mod.ts";
import type { WorkQueue } from "../../src/types.ts";
import { tokenOf } from "../helpers/instances.ts";
import { redeemedWithin } from "../helpers/outcome.ts";
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { queuedInProcess } from "../helpers/queued-in-process.ts";

/** The work's sleep, in ms. */
const SLEEP_MS = 1_500;
/** How long a job may take to end, at most: a bound for a loaded machine, not a measure. */
const END_MS = 30_000;

const servers = queueBackends("a suspended wait");

const QUEUES: { on: string; missing: string | false; open(): WorkQueue & { close(): Promise<void> } }[] =
  bullmqBackends(servers).map(({ on, missing, queue }) => ({
    on: `BullMQ on ${on}`,
    missing,
    open: () => queue(`wait-${crypto.randomUUID()}`),
  }));

/** Runs `run` again on any error, up to `attempts` times in all: the shape of `p-retry`, as a user wraps work. */
async function retrying<T>(run: () => Promise<T>, attempts: number, failed: unknown[]): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await run();
    } catch (error) {
      failed.push(error);
      if (attempt >= attempts) throw error;
    }
  }
}

/** A queued server whose tools sleep under a `try/catch` and under a retry wrapper, recording what they see. */
function waitingServer(queue: WorkQueue) {
  const seen = { caught: [] as unknown[], retried: [] as unknown[], errors: [] as unknown[] };
  const errorLine = (...line: unknown[]) => seen.errors.push(line);
  const quiet = () => {};
  const server = queuedInProcess("waits", queue, {
    logger: { debug: quiet, info: quiet, warn: errorLine, error: errorLine },
    onError: (error) => void seen.errors.push(error),
  }).server
    .tool(
      defineTool("logged_sleep").describe("Sleeps inside a logging try/catch").input(v.object({ ms: v.number() }))
        .longRunning().defer(async ({ ms }, work) => {
          const wakeAt = await work.step("wake", () => Date.now() + ms); // on the servers' clock, as the sleep's own
          try {
            await work.sleep(ms);
          } catch (error) {
            seen.caught.push(error); // a logging wrapper: it would have answered early
          }
          return { woke: Date.now() >= wakeAt };
        }),
    )
    .tool(
      defineTool("retried_sleep").describe("A step and a sleep, the whole work in a retry wrapper")
        .input(v.object({ ms: v.number() }))
        .longRunning().defer(({ ms }, work) =>
          retrying(
            async () => {
              const started = await work.step("started", () => Date.now());
              await work.sleep(ms);
              return { woke: Date.now() >= started + ms };
            },
            3,
            seen.retried,
          )
        ),
    );
  return { server, seen };
}

for (const { on, missing, open } of QUEUES) {
  describe(`a queued work.sleep() nobody can swallow (${on})`, { skip: missing }, () => {
    for (const tool of ["logged_sleep", "retried_sleep"] as const) {
      it(`${tool}: sleeps its whole time, and no error reaches the work or the logs`, { timeout: 60_000 }, async () => {
        const queue = open();
        const { server, seen } = waitingServer(queue);
        const worker = runWorker(server, { concurrency: 1 });
        try {
          const outcome = await redeemedWithin(server, tokenOf(await server.call(tool, { ms: SLEEP_MS })), END_MS);
          assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
          const { woke } = (outcome as { result: { structuredContent?: unknown } }).result
            .structuredContent as { woke: boolean };
          // The instants the work recorded, on the servers' clock: it went on at its wake time or after.
          assert.equal(woke, true, "the work went on before its wake time");
          assert.deepEqual(seen.caught, [], "the work's catch saw the sleep");
          assert.deepEqual(seen.retried, [], "the retry wrapper saw the sleep");
          assert.deepEqual(seen.errors, [], "an error was logged");
        } finally {
          await worker.close();
          await queue.close();
        }
      });
    }
  });
}
