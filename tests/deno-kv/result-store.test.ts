import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvResultStore } from "../../src/deno-kv/mod.ts";
import type { ResultStore } from "../../mod.ts";
import type { StoredResult } from "../../src/jobs/result-store.ts";
import { acrossChunkBoundary, assertTooLarge, exportThrough } from "../helpers/large-results.ts";
import { describeSharedStore } from "../helpers/shared-store-conformance.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";
import { describeSharedInstances } from "../helpers/instances.ts";

const deno = (globalThis as { Deno?: typeof Deno }).Deno;
const MISSING: string | false = typeof deno?.openKv === "function"
  ? false
  : 'Deno KV runs under Deno only (deno test --unstable-kv, or "unstable": ["kv"] in deno.json)';
if (MISSING) console.error(`deno-kv: skipped: ${MISSING}`);

let dir: string | undefined;
let kv: Deno.Kv | undefined;
let shared: ResultStore | undefined;

before(async () => {
  if (MISSING) return;
  dir = mkdtempSync(join(tmpdir(), "mcplite-kv-"));
  kv = await deno!.openKv(join(dir, "kv.sqlite3"));
  shared = denoKvResultStore(kv, { prefix: ["shared"] });
});

after(() => {
  kv?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describeResultStore(
  "deno kv",
  () => denoKvResultStore(kv!),
  { maxBytes: 393_216, skip: MISSING },
);

describeSharedInstances("deno kv", () => shared!, MISSING);

// The store contract, natively (issue 100, item 1): the shared store the result store is a view of.
describeSharedStore("deno kv", () => denoKvResultStore(kv!, { prefix: ["records"] }).store!, {
  maxBytes: 393_216,
  skip: MISSING,
});

/** Every key under `prefix`. */
async function keysUnder(prefix: string[]): Promise<unknown[][]> {
  const keys: unknown[][] = [];
  for await (const { key } of kv!.list({ prefix })) keys.push([...key]);
  return keys;
}

const completed = (text: string): StoredResult => ({
  status: "completed",
  result: { content: [{ type: "text", text }] },
});

describe("denoKvResultStore with entries larger than a KV value", { skip: MISSING }, () => {
  it("writes them in chunks and reads them whole, a character split between two chunks included", async () => {
    const prefix = ["large", crypto.randomUUID()];
    const store = denoKvResultStore(kv!, { prefix });
    const large = acrossChunkBoundary(30_000, 60_000);
    assert.equal(await store.set("a", { status: "working" }, 60_000), true);
    assert.equal(await store.set("a", large, 60_000), true);
    assert.deepEqual(await store.get("a"), large);
    assert.ok((await keysUnder(prefix)).length > 2, "the entry's metadata and its chunks");
    // Ended: a second writer loses, chunked or not.
    assert.equal(await store.set("a", completed("y".repeat(100_000)), 60_000), false);
    assert.equal(await store.set("a", { status: "cancelled" }, 60_000), false);
    assert.deepEqual(await store.get("a"), large);
    await store.delete("a");
    assert.equal(await store.get("a"), undefined);
    assert.deepEqual(await keysUnder(prefix), [], "no chunk is left behind");
  });

  it("replaces a running chunked entry with a small one, leaving none of its chunks", async () => {
    const prefix = ["large", crypto.randomUUID()];
    const store = denoKvResultStore(kv!, { prefix });
    assert.equal(await store.set("b", { status: "working", answers: { big: "z".repeat(200_000) } }, 60_000), true);
    assert.equal(await store.set("b", completed("small"), 60_000), true);
    assert.deepEqual(await store.get("b"), completed("small"));
    assert.deepEqual(await keysUnder(prefix), [[...prefix, "b"]]);
  });

  it("delivers a deferred result of 300 KB through a server, and refuses a bound KV cannot write at once", async () => {
    const raised = await exportThrough(denoKvResultStore(kv!, { prefix: ["export", crypto.randomUUID()] }), 300_000);
    assert.deepEqual(raised, { type: "text", text: "x".repeat(300_000) });
    assertTooLarge(
      await exportThrough(denoKvResultStore(kv!, { prefix: ["export", crypto.randomUUID()] }), 400_000),
      393_216,
    );
    assert.throws(() => denoKvResultStore(kv!, { maxBytes: 1 << 20 }), RangeError);
  });
});

describe("denoKvResultStore's sets", () => {
  it("are left out of a store on a KV shape without list()", () => {
    const kvLike = {
      get: () => Promise.resolve({ value: null, versionstamp: null }),
      atomic: () => {
        throw new Error("not written");
      },
    };
    const store = denoKvResultStore(kvLike);
    assert.deepEqual([store.addMember, store.removeMember, store.members], [undefined, undefined, undefined]);
  });

  it("keep a member's key under the set's, each with the set's lifetime, lengthened for every member", {
    skip: MISSING,
  }, async () => {
    const prefix = ["sets", crypto.randomUUID()];
    const at = Date.now(); // the store's clock, standing still: the lifetimes are read against it, not the time taken
    const store = denoKvResultStore(kv!, { prefix, now: () => at });
    await store.addMember!("k", "a", 1_000);
    await store.addMember!("k", "b", 60_000);
    const held = new Map<string, number>();
    for await (const { key, value } of kv!.list({ prefix })) {
      held.set(JSON.stringify(key), (value as { expiresAt: number }).expiresAt);
    }
    assert.deepEqual(
      [...held.keys()].sort(),
      [
        JSON.stringify([...prefix, "k", true]),
        JSON.stringify([...prefix, "k", true, "a"]),
        JSON.stringify([...prefix, "k", true, "b"]),
      ].sort(),
    );
    assert.equal(new Set(held.values()).size, 1, "one lifetime, the set's, on each key");
    const [until] = held.values();
    assert.ok(until >= at + 60_000 && until <= at + 90_000, "60 s asked, up to half of it more");
  });
});
