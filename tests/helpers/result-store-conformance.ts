/**
 * The behaviour every `ResultStore` promises, as one suite run against each implementation (memory,
 * Redis, Deno KV): entries read back as written, expire, are deleted, and the first final entry wins,
 * also among concurrent writers.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { ResultStore, StoredResult } from "../../src/core/result-store.ts";

/** A store to test. */
export interface StoreUnderTest {
  readonly store: ResultStore;
  /** Ids unique to this run, so runs sharing one engine never meet. */
  readonly prefix: string;
  /** The store's bound on one entry, in bytes: an entry of more is refused. */
  readonly maxBytes: number;
}

const done = (text: string): StoredResult => ({
  status: "completed",
  result: { content: [{ type: "text", text }] },
});

/**
 * Describes the conformance suite of a store.
 *
 * @param name The store's name, for the report.
 * @param open Opens the store (once, before the first test).
 * @param options `skip`: a reason to skip (a missing engine); `close`: runs after the last test.
 */
export function describeResultStore(
  name: string,
  open: () => Promise<StoreUnderTest>,
  options: { skip?: string | false; close?: () => Promise<void> } = {},
): void {
  describe(`ResultStore conformance: ${name}`, { skip: options.skip }, () => {
    let opened: Promise<StoreUnderTest> | undefined;
    const get = () => opened ??= open();
    let n = 0;
    const id = async () => `${(await get()).prefix}${++n}`;

    after(async () => {
      await options.close?.();
    });

    it("reads back what it wrote, replaces a running entry, and deletes", async () => {
      const { store } = await get();
      const key = await id();
      assert.equal(await store.get(key), undefined);
      assert.equal(await store.set(key, { status: "working", at: 1 }, 10_000), true);
      assert.deepEqual(await store.get(key), { status: "working", at: 1 });
      const asking: StoredResult = {
        status: "input_required",
        requests: { who: { method: "elicitation/create", params: { message: "Who?" } } },
      };
      assert.equal(await store.set(key, asking, 10_000), true);
      assert.deepEqual(await store.get(key), asking);
      assert.equal(await store.set(key, done("ok"), 10_000), true);
      assert.deepEqual(await store.get(key), done("ok"));
      await store.delete(key);
      assert.equal(await store.get(key), undefined);
    });

    it("never replaces an entry that has ended: the first writer wins", async () => {
      const { store } = await get();
      for (const first of [done("result"), { status: "cancelled" } as StoredResult]) {
        const key = await id();
        await store.set(key, { status: "working" }, 10_000);
        assert.equal(await store.set(key, first, 10_000), true);
        assert.equal(await store.set(key, { status: "cancelled" }, 10_000), false);
        assert.equal(await store.set(key, done("second"), 10_000), false);
        assert.equal(await store.set(key, { status: "working" }, 10_000), false);
        assert.deepEqual(await store.get(key), first);
      }
    });

    it("lets exactly one of many concurrent final writers win", async () => {
      const { store } = await get();
      const key = await id();
      await store.set(key, { status: "working" }, 10_000);
      const writers: StoredResult[] = Array.from(
        { length: 20 },
        (_, i) => i % 2 === 0 ? done(`writer ${i}`) : { status: "cancelled" },
      );
      const won = await Promise.all(writers.map((entry) => store.set(key, entry, 10_000)));
      assert.equal(won.filter(Boolean).length, 1);
      assert.deepEqual(await store.get(key), writers[won.indexOf(true)]);
    });

    it("expires entries after their TTL, after which the id can be written again", async () => {
      const { store } = await get();
      const key = await id();
      // A TTL the test's own read cannot outlast on a loaded machine (50 ms left little room, against Redis),
      // then a bounded wait for the expiry.
      await store.set(key, { status: "cancelled" }, 2_000);
      assert.ok(await store.get(key));
      const deadline = Date.now() + 15_000;
      while (await store.get(key) !== undefined) {
        assert.ok(Date.now() < deadline, "still there 15 s after its 2 s TTL");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(await store.set(key, { status: "working" }, 10_000), true);
    });

    it("refuses an entry larger than its bound with a RangeError, keeping the one stored", async () => {
      const { store, maxBytes } = await get();
      const key = await id();
      await store.set(key, { status: "working" }, 10_000);
      await assert.rejects(store.set(key, done("x".repeat(maxBytes)), 10_000), RangeError);
      assert.deepEqual(await store.get(key), { status: "working" });
    });
  });
}
