/**
 * The behaviour every `ResultStore` promises, as test cases any runner runs (`node:test`, `Deno.test`,
 * `bun:test`, Vitest): entries read back as written, expire, are deleted, and the first final entry wins, also
 * among concurrent writers; an entry over the store's bound is refused; sets, where the store has them, keep their
 * members. Memory, Redis (node-redis and ioredis), PostgreSQL, Deno KV and Durable Objects pass them in this
 * repository's tests; a store of your own runs them the same way.
 *
 * @module
 */
import type { ResultStore, StoredResult } from "../result-store.ts";
import { expiresAfterItsLifetime, refusedWithRangeError, same } from "../../store/cases/case-checks.ts";
import { Journal } from "../journal.ts";
import { journalStoreFromResults } from "../result-store-journals.ts";
import { setCases, type Sets } from "../../store/cases/set-cases.ts";

/** The store's sets, or `undefined` when it has none (the set cases pass: a result store's sets are optional). */
function setsOf(store: ResultStore): Sets | undefined {
  const { addMember, removeMember, members } = store;
  if (addMember === undefined && removeMember === undefined && members === undefined) return undefined;
  if (addMember === undefined || removeMember === undefined || members === undefined) {
    throw new Error("a store with sets has addMember, removeMember and members, all three");
  }
  return {
    addMember: addMember.bind(store),
    removeMember: removeMember.bind(store),
    members: members.bind(store),
  };
}

const done = (text: string): StoredResult => ({ status: "completed", result: { content: [{ type: "text", text }] } });

/**
 * The options of {@link resultStoreCases}.
 *
 * @example
 * ```ts
 * import type { ResultStoreCasesOptions } from "@mcplite/sdk/testing";
 * // A store made with maxBytes: 65 536, on a backend that other test runs share.
 * const options: ResultStoreCasesOptions = { prefix: `ci-${crypto.randomUUID()}-`, maxBytes: 65_536 };
 * ```
 */
export interface ResultStoreCasesOptions {
  /** The prefix of every id the cases write, unique to this run (default a random one). */
  readonly prefix?: string;
  /**
   * The store's bound on one entry's JSON, in bytes: a case writes past it and expects a `RangeError`. Without it,
   * that case is not among them.
   */
  readonly maxBytes?: number;
}

/**
 * The conformance cases of a result store: register each with the test runner at hand. The store is opened once,
 * by the first case that runs; each case writes ids of its own under `prefix`, so runs sharing one backend never
 * meet. One case waits for a 500 ms TTL to lapse (bounded at 15 s), and two more for a set's. The cases of sets
 * (`addMember`, `removeMember`, `members`, optional) pass a store without them untested.
 *
 * @param open Opens the store under test (called once, by the first case that runs).
 * @param options The prefix of the ids the cases write, and the store's bound on one entry.
 * @returns The cases, each a name and the function that runs it (it throws when the store breaks the contract).
 *
 * @example Each case is a name and a function: register them with your runner (`node:test`'s `it`, `Deno.test`,
 * `bun:test`'s `test`: `for (const { name, run } of cases) it(name, run);`), or run them
 * ```ts
 * import { createMemoryResultStore } from "../result-store.ts";
 * import { resultStoreCases } from "../../testing/mod.ts";
 *
 * const cases = resultStoreCases(() => createMemoryResultStore({ maxBytes: 1 << 16 }), { maxBytes: 1 << 16 });
 * for (const { run } of cases) await run(); // each throws, naming what the store got wrong
 * ```
 */
export function resultStoreCases(
  open: () => ResultStore | Promise<ResultStore>,
  options: ResultStoreCasesOptions = {},
): ReadonlyArray<{ readonly name: string; run(): Promise<void> }> {
  let opened: Promise<ResultStore> | undefined;
  const storeOf = () => opened ??= Promise.resolve(open());
  const prefix = options.prefix ?? `conformance:${crypto.randomUUID()}:`;
  const maxBytes = options.maxBytes;
  let n = 0;
  const id = () => Promise.resolve(`${prefix}${++n}`);
  const cases = [
    {
      name: "reads back what it wrote, replaces a running entry, and deletes",
      async run() {
        const store = await storeOf();
        const key = await id();
        same(await store.get(key), undefined, "an id never written");
        same(await store.set(key, { status: "working", at: 1 }, 10_000), true, "the first write");
        same(await store.get(key), { status: "working", at: 1 }, "the entry written");
        const asking: StoredResult = {
          status: "input_required",
          requests: { who: { method: "elicitation/create", params: { message: "Who?" } } },
        };
        same(await store.set(key, asking, 10_000), true, "a running entry replaced");
        same(await store.get(key), asking, "the entry that replaced it");
        same(await store.set(key, done("ok"), 10_000), true, "the final entry");
        same(await store.get(key), done("ok"), "the final entry read back");
        await store.delete(key);
        same(await store.get(key), undefined, "a deleted entry");
      },
    },
    {
      name: "never replaces an entry that has ended: the first writer wins",
      async run() {
        const store = await storeOf();
        for (const first of [done("result"), { status: "cancelled" } as StoredResult]) {
          const key = await id();
          await store.set(key, { status: "working" }, 10_000);
          same(await store.set(key, first, 10_000), true, `the first final entry (${first.status})`);
          same(await store.set(key, { status: "cancelled" }, 10_000), false, "a cancellation after it");
          same(await store.set(key, done("second"), 10_000), false, "a second result after it");
          same(await store.set(key, { status: "working" }, 10_000), false, "a running entry after it");
          same(await store.get(key), first, "the entry kept");
        }
      },
    },
    {
      name: "lets exactly one of many concurrent final writers win",
      async run() {
        const store = await storeOf();
        const key = await id();
        await store.set(key, { status: "working" }, 10_000);
        const writers: StoredResult[] = Array.from(
          { length: 20 },
          (_, i) => i % 2 === 0 ? done(`writer ${i}`) : { status: "cancelled" },
        );
        const won = await Promise.all(writers.map((entry) => store.set(key, entry, 10_000)));
        same(won.filter(Boolean).length, 1, "writers that won");
        same(await store.get(key), writers[won.indexOf(true)], "the winner's entry");
      },
    },
    {
      name: "keeps a job's journal (work.step()): a step's value once, read back by a later start, first writer's",
      async run() {
        const store = await storeOf();
        const job = await id();
        const jobs = journalStoreFromResults(store); // the journal as the server keeps it in a store of no journal store
        const start = (fresh: boolean, step: string) =>
          new Journal({
            id: `${job}-${step}`,
            store: jobs,
            expiresAt: Date.now() + 10_000,
            now: Date.now,
            fresh,
            queued: false,
          });
        const value = { rows: [1, "two", { three: null }], at: "2026-11-26" };
        let runs = 0;
        same(
          await start(true, "fetch").step("fetch", (key) => (runs++, key)),
          `${job}-fetch:fetch`,
          "the key a step is given",
        );
        same(
          await start(false, "fetch").step("fetch", () => (runs++, "again")),
          `${job}-fetch:fetch`,
          "a later start's read",
        );
        same(runs, 1, "runs of a recorded step");
        same(await start(true, "value").step("value", () => value), value, "a JSON value, as recorded");
        same(await start(false, "value").step("value", () => "other"), value, "the JSON value, read back");
        const racing = await Promise.all([
          start(false, "race").step("race", () => "a"),
          start(false, "race").step("race", () => "b"),
        ]);
        same(racing[0], racing[1], "two starts racing on one step: both return the first value stored");
        same(await start(true, "none").step("none", () => undefined), undefined, "a step without a value");
        same(await start(false, "none").step("none", () => "late"), undefined, "a step without a value, read back");
      },
    },
    {
      name: "expires entries after their TTL, after which the id can be written again",
      async run() {
        const store = await storeOf();
        const key = await id();
        await expiresAfterItsLifetime(
          (ttlMs) => store.set(key, { status: "cancelled" }, ttlMs),
          async () => await store.get(key) !== undefined,
          "an entry",
        );
        same(await store.set(key, { status: "working" }, 10_000), true, "a write after the expiry");
      },
    },
    ...setCases(async () => {
      const store = await storeOf();
      return {
        sets: setsOf(store),
        write: (key, value, ttlMs) => store.set(key, value, ttlMs),
        read: (key) => store.get(key),
        remove: (key) => store.delete(key),
      };
    }, id),
  ];
  if (maxBytes === undefined) return cases;
  return [...cases, {
    name: "refuses an entry larger than its bound with a RangeError, keeping the one stored",
    async run() {
      const store = await storeOf();
      const key = await id();
      await store.set(key, { status: "working" }, 10_000);
      await refusedWithRangeError(store.set(key, done("x".repeat(maxBytes)), 10_000), "an entry over the bound");
      same(await store.get(key), { status: "working" }, "the entry kept");
    },
  }];
}
