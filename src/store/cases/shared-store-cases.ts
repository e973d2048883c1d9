/**
 * The behaviour every `SharedStore` promises, as test cases any runner runs (`node:test`, `Deno.test`, `bun:test`,
 * Vitest): records read back as written (any JSON), replaced unless final, taken once among concurrent writers,
 * compared and set without a lost update among concurrent writers, deleted, expired; sets beside them; a record over
 * the store's bound refused. The stores of this repository pass them in its tests; a store of your own runs them the
 * same way.
 *
 * @module
 */
import type { SharedStore } from "../shared-store.ts";
import { canonicalJson } from "../../internal/canonical-json.ts";
import { expiresAfterItsLifetime, refusedWithRangeError, same } from "./case-checks.ts";
import { setCases } from "./set-cases.ts";

/**
 * The options of {@link sharedStoreCases}.
 *
 * @example
 * ```ts
 * import type { SharedStoreCasesOptions } from "@mcplite/sdk/testing";
 * // A store made with a bound of 65 536 bytes a record, on a backend that other test runs share.
 * const options: SharedStoreCasesOptions = { prefix: `ci-${crypto.randomUUID()}-`, maxBytes: 65_536 };
 * ```
 */
export interface SharedStoreCasesOptions {
  /** The prefix of every key the cases write, unique to this run (default a random one). */
  readonly prefix?: string;
  /**
   * The store's bound on one record's JSON, in bytes: a case writes past it and expects a `RangeError`. Without it,
   * that case is not among them.
   */
  readonly maxBytes?: number;
}

/**
 * The conformance cases of a shared store: register each with the test runner at hand. The store is opened once, by
 * the first case that runs; each case writes keys of its own under `prefix`, so runs sharing one backend never meet.
 * One case waits for a 500 ms lifetime to lapse (bounded at 15 s), and two more for a set's.
 *
 * @param open Opens the store under test (called once, by the first case that runs).
 * @param options The prefix of the keys the cases write, and the store's bound on one record.
 * @returns The cases, each a name and the function that runs it (it throws when the store breaks the contract).
 *
 * @example Each case is a name and a function: register them with your runner (`node:test`'s `it`, `Deno.test`,
 * `bun:test`'s `test`: `for (const { name, run } of cases) it(name, run);`), or run them
 * ```ts
 * import { createMemoryStore } from "../memory-store.ts";
 * import { sharedStoreCases } from "../../testing/mod.ts";
 *
 * const cases = sharedStoreCases(() => createMemoryStore({ maxBytes: 1 << 16 }), { maxBytes: 1 << 16 });
 * for (const { run } of cases) await run(); // each throws, naming what the store got wrong
 * ```
 */
export function sharedStoreCases(
  open: () => SharedStore | Promise<SharedStore>,
  options: SharedStoreCasesOptions = {},
): ReadonlyArray<{ readonly name: string; run(): Promise<void> }> {
  let opened: Promise<SharedStore> | undefined;
  const storeOf = () => opened ??= Promise.resolve(open());
  const prefix = options.prefix ?? `conformance:${crypto.randomUUID()}:`;
  let n = 0;
  const key = () => `${prefix}${++n}`;
  const cases: { readonly name: string; run(): Promise<void> }[] = [
    {
      name: "reads back any JSON it wrote, replaces a record that is not final, and deletes",
      async run() {
        const store = await storeOf();
        const k = key();
        same(await store.get(k), undefined, "a key never written");
        const values = [
          { life: "a1", n: 7, nested: { list: [1, "two", null, { three: true }] } },
          ["x", 2],
          'text with ü, 🙂 and "quotes"',
          2 ** 53 - 1,
          -0.5,
          true,
          false,
          null,
        ];
        for (const value of values) {
          same(await store.put(k, value, 10_000), true, `a put of ${canonicalJson(value)}`);
          same(await store.get(k), value, "the record read back");
        }
        await store.delete(k);
        same(await store.get(k), undefined, "a deleted record");
        await store.delete(k); // an absent one: no error
      },
    },
    {
      name: "never replaces a final record while it lives: the first final writer wins; delete removes it",
      async run() {
        const store = await storeOf();
        const k = key();
        same(await store.put(k, { state: "running" }, 10_000), true, "a record that is not final");
        same(await store.put(k, { state: "done" }, 10_000, { final: true }), true, "the first final record");
        same(await store.put(k, { state: "again" }, 10_000), false, "a put after it");
        same(await store.put(k, { state: "second" }, 10_000, { final: true }), false, "a second final record");
        same(await store.putIfAbsent(k, { state: "mark" }, 10_000), false, "a putIfAbsent after it");
        same(await store.compareAndSet(k, { state: "done" }, { state: "moved" }, 10_000), false, "a compareAndSet");
        same(await store.get(k), { state: "done" }, "the final record kept");
        await store.delete(k);
        same(await store.put(k, { state: "new" }, 10_000), true, "a put once it was deleted");
      },
    },
    {
      name: "lets exactly one of many concurrent final writers win, whatever writers that are not final do",
      async run() {
        const store = await storeOf();
        const k = key();
        await store.put(k, { writer: "first" }, 10_000);
        const writers = Array.from({ length: 20 }, (_, i) => ({ writer: i, final: i % 2 === 0 }));
        const won = await Promise.all(
          writers.map((w) => store.put(k, { writer: w.writer }, 10_000, w.final ? { final: true } : undefined)),
        );
        const finals = writers.filter((w, i) => w.final && won[i]);
        same(finals.length, 1, "final writers that won");
        same(await store.get(k), { writer: finals[0].writer }, "the final winner's record");
      },
    },
    {
      name: "takes a key once (putIfAbsent): one of many concurrent writers, and again once the record is deleted",
      async run() {
        const store = await storeOf();
        const k = key();
        const won = await Promise.all(Array.from({ length: 20 }, (_, i) => store.putIfAbsent(k, { by: i }, 10_000)));
        same(won.filter(Boolean).length, 1, "writers that took it");
        same(await store.get(k), { by: won.indexOf(true) }, "the taker's record");
        same(await store.putIfAbsent(k, { by: "late" }, 10_000), false, "a later writer");
        await store.delete(k);
        same(await store.putIfAbsent(k, { by: "after" }, 10_000), true, "a writer once it was deleted");
      },
    },
    {
      name: "compares and sets: from none, from what get() read, never from a stale read; no concurrent update lost",
      async run() {
        const store = await storeOf();
        const k = key();
        same(await store.compareAndSet(k, { n: 0 }, { n: 1 }, 10_000), false, "from a value where there is none");
        same(await store.compareAndSet(k, undefined, { n: 0, at: "start" }, 10_000), true, "from none");
        same(await store.compareAndSet(k, undefined, { n: 9 }, 10_000), false, "from none, where one stands");
        const read = await store.get(k);
        same(await store.compareAndSet(k, read, { n: 1, at: "one" }, 10_000), true, "from what get() read");
        same(await store.compareAndSet(k, read, { n: 2 }, 10_000), false, "from a stale read");
        // Twenty concurrent increments, each a read and a compare-and-set, retried while another wins.
        const increment = async () => {
          for (let tries = 0; tries < 200; tries++) {
            const now = await store.get(k) as { n: number };
            if (await store.compareAndSet(k, now, { n: now.n + 1, at: "inc" }, 10_000)) return;
          }
          throw new Error("an increment lost 200 races in a row");
        };
        await Promise.all(Array.from({ length: 20 }, increment));
        same(await store.get(k), { n: 21, at: "inc" }, "after 20 concurrent increments");
      },
    },
    {
      name: "expires records after their lifetime, after which the key can be taken again",
      async run() {
        const store = await storeOf();
        const k = key();
        await expiresAfterItsLifetime(
          (ttlMs) => store.put(k, { final: "yes" }, ttlMs, { final: true }),
          async () => await store.get(k) !== undefined,
          "a record",
        );
        same(await store.putIfAbsent(k, { again: true }, 10_000), true, "a putIfAbsent after the expiry");
      },
    },
    // The set cases, shared with the result store's.
    ...setCases(async () => {
      const store = await storeOf();
      return {
        sets: store,
        write: (k, value, ttlMs) => store.put(k, value, ttlMs),
        read: (k) => store.get(k),
        remove: (k) => store.delete(k),
      };
    }, () => Promise.resolve(key())),
  ];
  const maxBytes = options.maxBytes;
  if (maxBytes === undefined) return cases;
  return [...cases, {
    name: "refuses a record larger than its bound with a RangeError, keeping the one stored",
    async run() {
      const store = await storeOf();
      const k = key();
      await store.put(k, { kept: true }, 10_000);
      const large = "x".repeat(maxBytes);
      await refusedWithRangeError(store.put(k, large, 10_000), "a put over the bound");
      await refusedWithRangeError(store.putIfAbsent(key(), large, 10_000), "a putIfAbsent over the bound");
      same(await store.get(k), { kept: true }, "the record kept");
    },
  }];
}
