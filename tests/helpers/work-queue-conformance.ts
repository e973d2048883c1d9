/**
 * The queue conformance cases (`@mcplite/sdk/testing`, `workQueueCases()`) as one `node:test` suite, run
 * against each implementation (the in-memory queue of the tests, BullMQ on Redis and on PostgreSQL).
 */
import { describe, it } from "node:test";
import type { WorkQueue } from "../../src/types.ts";
import { workQueueCases } from "../../src/testing/mod.ts";

/**
 * Describes the conformance suite of a queue.
 *
 * @param name The queue's name, for the report.
 * @param open Opens a handle on the queue of a name (each case closes the handles it opened).
 * @param skip A reason to skip (a missing server), or `false`.
 */
export function describeWorkQueue(
  name: string,
  open: (name: string) => WorkQueue | Promise<WorkQueue>,
  skip: string | false = false,
): void {
  describe(`WorkQueue conformance: ${name}`, { skip }, () => {
    for (const { name, run } of workQueueCases(open)) it(name, run);
  });
}
