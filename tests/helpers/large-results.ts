/**
 * A deferred job whose result is as large as asked, and the failure a result over the store's bound gets: for the
 * large-result tests of each store (memory, Redis).
 */
import assert from "node:assert/strict";
import * as v from "valibot";
import { createServer, defineTool, type ResultStore } from "../../mod.ts";
import { ProtocolError } from "../../src/errors/mod.ts";
import type { StoredResult } from "../../src/jobs/result-store.ts";
import { tokenOf } from "./instances.ts";
import { SECRET, waitFor } from "./long-running.ts";

/** A tool whose deferred work answers `chars` characters of text. */
export const exportTool = defineTool("export")
  .describe("Exports a document of the given length")
  .input(v.object({ chars: v.pipe(v.number(), v.integer()) }))
  .longRunning({ retryAfterMs: 10 })
  .handle(({ chars }, ctx) => ctx.defer(() => Promise.resolve("x".repeat(chars))));

/**
 * Calls `export` on a server over `store`, redeeming until the job ends; what the redeem threw, or its value.
 */
export async function exportThrough(store: ResultStore, chars: number): Promise<unknown> {
  const server = createServer({ name: "exports", version: "1.0.0", secret: SECRET, resultStore: store })
    .tool(exportTool);
  const token = tokenOf(await server.call("export", { chars }));
  let ended: unknown;
  await waitFor(async () => {
    try {
      const outcome = await server.call("redeem", { promise: token });
      if (outcome.kind === "promise") return false;
      ended = outcome.kind === "answer" ? outcome.result.content[0] : outcome;
    } catch (error) {
      ended = error;
    }
    return true;
  }, 30_000);
  return ended;
}

/** Asserts the failure of a result over the store's bound of `limit` bytes. */
export function assertTooLarge(ended: unknown, limit: number): void {
  assert.ok(ended instanceof ProtocolError, String(ended));
  assert.match(
    ended.message,
    new RegExp(
      `^The result could not be stored: a (?:record|result) of \\d+ bytes exceeds the store's limit of ${limit}$`,
    ),
  );
  assert.deepEqual(ended.data, { reason: "result_too_large" });
}

/** A completed entry of `text`. */
const completed = (text: string): StoredResult => ({
  status: "completed",
  result: { content: [{ type: "text", text }] },
});

/**
 * A completed entry of `count` 😀 (two UTF-16 code units each), placed so that one lies across the chunk boundary
 * at `units` code units of the entry's JSON: a store that splits JSON into chunks must join the pair again.
 *
 * @param units Where a chunk ends, in UTF-16 code units of the JSON.
 * @param count How many 😀.
 * @returns The entry.
 */
export function acrossChunkBoundary(units: number, count: number): StoredResult {
  const start = JSON.stringify(completed("")).indexOf('""') + 1; // where the text begins
  const entry = completed("x".repeat((units - start + 1) % 2) + "😀".repeat(count));
  const high = JSON.stringify(entry).charCodeAt(units - 1);
  assert.ok(high >= 0xd800 && high <= 0xdbff, "a surrogate pair across the boundary");
  return entry;
}
