/**
 * The behaviour every `JournalStore` promises, as test cases any runner runs (`node:test`, `Deno.test`, `bun:test`,
 * Vitest): a journal loads back whole as appended, the first entry of a name wins, also among concurrent writers,
 * journals of two jobs never meet, and entries expire. Memory (a result store's entries), Redis and PostgreSQL pass
 * them in this repository's tests; a store of your own runs them the same way.
 *
 * @module
 */
import type { JournalEntry, JournalStore } from "../journal-store.ts";
import { expiresAfterItsLifetime, same } from "../../store/cases/case-checks.ts";

/** A journal's entries by name, for comparing loads (a store returns them in no order). */
const byName = (entries: readonly JournalEntry[]) => [...entries].sort((a, b) => a.name < b.name ? -1 : 1);

/**
 * The options of {@link journalStoreCases}.
 *
 * @example
 * ```ts
 * import type { JournalStoreCasesOptions } from "@mcplite/sdk/testing";
 * // Jobs of their own on a backend that other test runs share.
 * const options: JournalStoreCasesOptions = { prefix: `ci-${crypto.randomUUID()}-` };
 * ```
 */
export interface JournalStoreCasesOptions {
  /** The prefix of every job id the cases write, unique to this run (default a random one). */
  readonly prefix?: string;
}

/**
 * The conformance cases of a journal store: register each with the test runner at hand. The store is opened once, by the
 * first case that runs; each case writes jobs of its own under `prefix`, so runs sharing one backend never meet. One
 * case waits for a 500 ms TTL to lapse (bounded at 15 s).
 *
 * @param open Opens the store under test (called once, by the first case that runs).
 * @param options The prefix of the job ids the cases write.
 * @returns The cases, each a name and the function that runs it (it throws when the store breaks the contract).
 *
 * @example Each case is a name and a function: register them with your runner (`node:test`'s `it`, `Deno.test`,
 * `bun:test`'s `test`: `for (const { name, run } of cases) it(name, run);`), or run them
 * ```ts
 * import { createMemoryResultStore } from "../result-store.ts";
 * import { journalStoreFromResults } from "../result-store-journals.ts";
 * import { journalStoreCases } from "../../testing/mod.ts";
 *
 * // Room for a journal of 1,001 entries beside their list (the default keeps 1,000 entries).
 * const cases = journalStoreCases(() => journalStoreFromResults(createMemoryResultStore({ maxEntries: 5_000 })));
 * for (const { run } of cases) await run(); // each throws, naming what the store got wrong
 * ```
 */
export function journalStoreCases(
  open: () => JournalStore | Promise<JournalStore>,
  options: JournalStoreCasesOptions = {},
): ReadonlyArray<{ readonly name: string; run(): Promise<void> }> {
  let opened: Promise<JournalStore> | undefined;
  const storeOf = () => opened ??= Promise.resolve(open());
  const prefix = options.prefix ?? `conformance:${crypto.randomUUID()}:`;
  let n = 0;
  const id = () => `${prefix}${++n}`;
  return [
    {
      name: "loads a journal whole, as appended: names, places, JSON values, times",
      async run() {
        const store = await storeOf();
        const job = id();
        same(await store.load(job), [], "a job never written");
        const entries: JournalEntry[] = [
          { name: "fetch", position: 1, value: { rows: [1, "two", { three: null }], text: "é ✓ \u2028" }, at: 1 },
          { name: "~sleep:1", position: 2, value: 1_790_000_000_000, at: 2 },
          { name: "none", position: 3, at: 3 }, // a step that returned nothing
          { name: "~backoff:2", position: 0, value: 0, at: 4 }, // outside the run's order
          { name: "null", position: 4, value: null, at: 5 },
        ];
        for (const entry of entries) same(await store.append(job, entry, 10_000), entry, `appending "${entry.name}"`);
        same(byName(await store.load(job)), byName(entries), "the journal loaded");
      },
    },
    {
      name: "keeps the first entry of a name: a later append is answered with it",
      async run() {
        const store = await storeOf();
        const job = id();
        const first: JournalEntry = { name: "charge", position: 1, value: { id: "ch_1" }, at: 1 };
        same(await store.append(job, first, 10_000), first, "the first append");
        const second: JournalEntry = { name: "charge", position: 2, value: { id: "ch_2" }, at: 2 };
        same(await store.append(job, second, 10_000), first, "a second append of the name");
        same(await store.load(job), [first], "the journal");
      },
    },
    {
      name: "lets exactly one of many concurrent appends of a name win, and answers each with it",
      async run() {
        const store = await storeOf();
        const job = id();
        const writers = Array.from(
          { length: 20 },
          (_, i): JournalEntry => ({ name: "race", position: 1, value: i, at: i }),
        );
        const kept = await Promise.all(writers.map((entry) => store.append(job, entry, 10_000)));
        const winner = (await store.load(job))[0];
        if (winner === undefined) throw new Error("no entry kept of 20 concurrent appends");
        for (const entry of kept) same(entry, winner, "what an append was answered with");
        same((await store.load(job)).length, 1, "entries of the name");
      },
    },
    {
      name: "keeps the journals of two jobs apart, and loads 1,000 entries of one",
      async run() {
        const store = await storeOf();
        const [a, b] = [id(), id()];
        await store.append(a, { name: "x", position: 1, value: "a", at: 1 }, 10_000);
        await store.append(b, { name: "x", position: 1, value: "b", at: 1 }, 10_000);
        same((await store.load(a)).map((entry) => entry.value), ["a"], "job a's journal");
        same((await store.load(b)).map((entry) => entry.value), ["b"], "job b's journal");
        const many = Array.from(
          { length: 1_000 },
          (_, i): JournalEntry => ({ name: `s${i}`, position: i + 2, value: i, at: i }),
        );
        for (let i = 0; i < many.length; i += 100) {
          await Promise.all(many.slice(i, i + 100).map((entry) => store.append(a, entry, 10_000)));
        }
        same((await store.load(a)).length, 1_001, "entries of a journal of 1,001");
      },
    },
    {
      name: "expires a journal's entries after their TTL",
      async run() {
        const store = await storeOf();
        const job = id();
        await expiresAfterItsLifetime(
          (ttlMs) => store.append(job, { name: "a", position: 1, value: 1, at: 1 }, ttlMs),
          async () => (await store.load(job)).length > 0,
          "a journal's entry",
        );
        const again: JournalEntry = { name: "a", position: 1, value: 2, at: 2 };
        same(await store.append(job, again, 10_000), again, "an append after the expiry");
      },
    },
  ];
}
