/**
 * A deferred result whose value travels as `structuredContent` and as a text block of its JSON is stored once: a
 * 2 MiB value is a 2 MiB entry, not twice that, in the memory store and in one that keeps JSON (as Redis,
 * PostgreSQL and Deno KV do), and the result read back is the one a direct call answers, byte for byte.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import {
  createMemoryResultStore,
  createServer,
  defineTool,
  type ResultStore,
  type ToolResult,
  toolResult,
} from "../../mod.ts";
import type { StoredResult } from "../../src/jobs/result-store.ts";
import { tokenOf } from "../helpers/instances.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";

const MIB = 1024 * 1024;

type Kind = "big" | "awkward" | "annotated";
const KINDS: [Kind, ...Kind[]] = ["big", "awkward", "annotated"];

/** Values whose JSON a careless rebuild could change: key order, integer-like keys, escapes, numbers. */
const awkward = {
  b: 1,
  "10": "ten",
  "2": [-0, 1e21, 0.1, 5e-324],
  a: { "é": '\u2028\u0000"\\', lone: "\ud800", emoji: "😀" },
  none: null,
};

const report = defineTool("report")
  .describe("Builds a report of the given kind")
  .input(v.object({ kind: v.picklist(KINDS) }))
  .longRunning({ retryAfterMs: 10 })
  .handle(({ kind }, ctx) => ctx.defer(() => Promise.resolve(valueOf(kind))));

const direct = defineTool("direct")
  .describe("Answers the same report at once")
  .input(v.object({ kind: v.picklist(KINDS) }))
  .handle(({ kind }) => valueOf(kind));

function valueOf(kind: Kind): unknown {
  if (kind === "big") return { data: "x".repeat(2 * MIB) };
  if (kind === "awkward") return awkward;
  const value = { data: "kept" };
  // a block with annotations is more than the bare JSON text: kept as it is
  return toolResult({
    content: [{ type: "text", text: JSON.stringify(value), annotations: { priority: 1 } }],
    structuredContent: value,
  });
}

/** A store that keeps JSON text, as a shared store does, and records the size of each entry written. */
function jsonStore(sizes: Map<string, number>): ResultStore {
  const inner = createMemoryResultStore({ maxBytes: 64 * MIB });
  return {
    get: async (id) => {
      const kept = await inner.get(id) as { json: string } | undefined;
      return kept === undefined ? undefined : JSON.parse(kept.json) as StoredResult;
    },
    set: (id, entry, ttlMs) => {
      const json = JSON.stringify(entry);
      sizes.set(id, json.length);
      return inner.set(id, { status: entry.status, json } as unknown as StoredResult, ttlMs); // ended as the entry
    },
    delete: (id) => inner.delete(id),
  };
}

async function redeemed(store: ResultStore, kind: Kind): Promise<ToolResult> {
  const server = createServer({ name: "reports", version: "1.0.0", secret: SECRET, resultStore: store }).tool(report);
  const token = tokenOf(await server.call("report", { kind }));
  let result: ToolResult | undefined;
  await waitFor(async () => {
    const outcome = await server.call("redeem", { promise: token });
    if (outcome.kind === "promise") return false;
    assert.equal(outcome.kind, "answer");
    result = (outcome as { result: ToolResult }).result;
    return true;
  }, 30_000);
  return result!;
}

async function answered(kind: Kind): Promise<ToolResult> {
  const server = createServer({ name: "reports", version: "1.0.0" }).tool(direct);
  const outcome = await server.call("direct", { kind });
  return (outcome as { result: ToolResult }).result;
}

describe("a deferred result's value is stored once", () => {
  it("a 2 MiB value is an entry of about 2 MiB, in a store of JSON", async () => {
    const sizes = new Map<string, number>();
    const result = await redeemed(jsonStore(sizes), "big");
    const largest = Math.max(...sizes.values());
    assert.ok(largest > 2 * MIB && largest < 2 * MIB + 4096, `the entry was ${largest} characters`);
    assert.equal(JSON.stringify(result), JSON.stringify(await answered("big")));
  });

  it("the memory store counts it once: a 2 MiB value fits a 3 MiB store", async () => {
    const result = await redeemed(createMemoryResultStore({ maxBytes: 3 * MIB }), "big");
    assert.equal(JSON.stringify(result), JSON.stringify(await answered("big")));
  });

  it("reads back byte for byte what a direct call answers, whatever the JSON holds", async () => {
    for (const kind of ["awkward", "annotated"] as const) {
      const expected = JSON.stringify(await answered(kind));
      assert.equal(JSON.stringify(await redeemed(jsonStore(new Map()), kind)), expected, kind);
      assert.equal(JSON.stringify(await redeemed(createMemoryResultStore(), kind)), expected, kind);
    }
  });

  it("keeps a block with annotations as it is", async () => {
    const result = await redeemed(jsonStore(new Map()), "annotated");
    assert.deepEqual(result.content, [{ type: "text", text: '{"data":"kept"}', annotations: { priority: 1 } }]);
  });
});
