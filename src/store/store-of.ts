/**
 * The shared store of a result store: the one it is a view of (`resultStore.store`, which every store of this SDK
 * carries), or, for a result store of the user's own written before the store contract, an adapter that keeps each
 * record as an entry of it. The adapter is the one place that still writes a record as a job state (a final record
 * as a cancelled entry, any other as a working one, the value in `continued.state`), since an entry is all such a
 * store keeps; its `compareAndSet` is a read then a write (such a store has no compare-and-set of any value), and a
 * `putIfAbsent` writes a final entry (its first-writer-wins is for ended entries only).
 *
 * @module
 */
import { canonicalJson } from "../internal/canonical-json.ts";
import type { SharedStore } from "./shared-store.ts";

/**
 * A result store as the features see one of the user's own (`ResultStore`, structurally: the store contract sits
 * below jobs, which define it). An entry is `working`, `input_required` or ended; ended entries are never replaced.
 */
interface EntryStore {
  get(id: string): Promise<Entry | undefined>;
  set(id: string, entry: Entry, ttlMs: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  addMember?(key: string, member: string, ttlMs: number): Promise<void>;
  removeMember?(key: string, member: string): Promise<void>;
  members?(key: string): Promise<readonly string[]>;
  readonly store?: SharedStore;
}

/** A job entry, as far as a record kept in one needs. */
export type Entry = { readonly status: string; readonly continued?: { readonly state?: unknown } };

/**
 * Whether a job entry has ended (completed, failed or cancelled): the result store's rule, which its `hasEnded()` is,
 * written once here, below the jobs layer, since the adapter of a store of the user's own and a store that kept
 * entries before the store contract without a mark of its own for them (Deno KV's) read an ended entry as final.
 *
 * @param entry The entry.
 * @returns Whether it is final.
 */
export const ended = (entry: Entry): boolean => entry.status !== "working" && entry.status !== "input_required";

/**
 * What a feature may be given to keep its records in: a result store (of this SDK: it carries its `store`), or one
 * of the user's own of which the feature's options asked less than all (`eventWebhook({ store })`: `set` and
 * `delete`).
 */
export type RecordsHolder = Pick<EntryStore, "set" | "delete"> & Partial<EntryStore>;

/**
 * The shared store a result store's features keep their records in.
 *
 * @param results The result store.
 * @returns Its `store`, or the adapter over it (which holds no state of its own).
 */
export function sharedStoreOf(results: RecordsHolder): SharedStore {
  return results.store ?? entriesAsRecords(results);
}

/** A record as an entry: `final` as an ended one (never replaced), else a running one. */
function entryOf(value: unknown, final: boolean): Entry {
  return { status: final ? "cancelled" : "working", continued: { state: value } };
}

/** The record an entry holds (`undefined` for an entry written before records were: a mark, read only as taken). */
function valueOf(entry: Entry | undefined): unknown {
  return entry?.continued?.state;
}

/** What a store without sets answers when a feature asks for one. */
function noSets(): never {
  return missing("sets (addMember, removeMember, members)");
}

/** What a store of the user's own answers when a feature asks for what it lacks. */
function missing(what: string): never {
  throw new TypeError(
    `this resultStore keeps no ${what}, which this feature needs: give one that does (every store of @mcplite/sdk does)`,
  );
}

function entriesAsRecords(results: RecordsHolder): SharedStore {
  const read = (key: string) => results.get?.(key) ?? missing("get");
  return {
    get: async (key) => valueOf(await read(key)),
    put: (key, value, ttlMs, options) => results.set(key, entryOf(value, options?.final === true), ttlMs),
    putIfAbsent: (key, value, ttlMs) => results.set(key, entryOf(value, true), ttlMs),
    async compareAndSet(key, expected, next, ttlMs) {
      const entry = await read(key);
      if (entry !== undefined && ended(entry)) return false;
      const now = valueOf(entry);
      if ((now === undefined ? "" : canonicalJson(now)) !== (expected === undefined ? "" : canonicalJson(expected))) {
        return false;
      }
      return await results.set(key, entryOf(next, false), ttlMs);
    },
    delete: (key) => results.delete(key),
    addMember: async (key, member, ttlMs) => await (results.addMember?.(key, member, ttlMs) ?? noSets()),
    removeMember: async (key, member) => await (results.removeMember?.(key, member) ?? noSets()),
    members: async (key) => await (results.members?.(key) ?? noSets()),
  };
}

/**
 * A record as a feature reads it, where it may have been written before the store contract as a job entry in the same
 * key: a running one kept it in `continued.state` (saved programs, event subscriptions and heads), a completed one in
 * `result.structuredContent` (event logs and their occurrences). For the records that live long enough to meet an
 * upgrade; written again, a record takes its own form.
 *
 * @param value What the store answered.
 * @returns The record.
 */
export function recordOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const entry = value as Entry & { readonly result?: { readonly structuredContent?: unknown } };
  if (entry.status === "working" && entry.continued !== undefined) return entry.continued.state;
  if (entry.status === "completed" && entry.result?.structuredContent !== undefined) {
    return entry.result.structuredContent;
  }
  return value;
}
