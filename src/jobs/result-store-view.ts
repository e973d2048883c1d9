/**
 * A result store as a typed view of job entries in a shared store: an entry is a record at the job's id, written
 * final once it has ended (`hasEnded()`), so that the store's "first final writer wins" is the result store's rule.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import type { JournalStore } from "./journal-store.ts";
import { hasEnded, type ResultStore, type StoredResult } from "./stored-result.ts";

const FINAL = { final: true } as const;

/**
 * The result store over a shared store: job entries at their ids, the store's sets as its own, and the store itself
 * as `store`, for the server's other features.
 *
 * @param store The shared store.
 * @param journalStore Where jobs keep their journals on the same backend, when it has a place of its own for them.
 * @returns The result store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory-store.ts";
 * import { resultStoreOver } from "./result-store-view.ts";
 *
 * const results = resultStoreOver(createMemoryStore());
 * assert.equal(await results.set("job", { status: "cancelled" }, 60_000), true);
 * assert.equal(await results.set("job", { status: "working" }, 60_000), false); // it has ended
 * ```
 */
export function resultStoreOver(store: SharedStore, journalStore?: JournalStore): ResultStore {
  return {
    store,
    ...journalStore === undefined ? {} : { journalStore },
    get: (id) => store.get(id) as Promise<StoredResult | undefined>,
    set: (id, entry, ttlMs) => store.put(id, entry, ttlMs, hasEnded(entry) ? FINAL : undefined),
    delete: (id) => store.delete(id),
    addMember: (key, member, ttlMs) => store.addMember(key, member, ttlMs),
    removeMember: (key, member) => store.removeMember(key, member),
    members: (key) => store.members(key),
  };
}
