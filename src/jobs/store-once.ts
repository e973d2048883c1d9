/**
 * A value a handler returns travels as `structuredContent` and again as a text block holding its JSON
 * (MCP 2025-11-25, Tools: Structured Content, "a tool that returns structured content SHOULD also
 * return the serialized JSON in a TextContent block"). Stored as is, a deferred result would count
 * twice against the store's bound and cost twice its bytes in a shared store; this keeps the value
 * once and writes the text back on reading it, byte for byte (`JSON.stringify` of parsed JSON is the
 * JSON it came from).
 *
 * @module
 */
import type { ResultStore, StoredResult } from "./result-store.ts";

/**
 * Wraps a store so that a completed entry whose one text block is its `structuredContent`'s JSON is
 * written without that block, and read with it.
 *
 * @param store The store.
 * @returns The same store, each result's value kept once.
 */
export function storeOnce(store: ResultStore): ResultStore {
  const { addMember, removeMember, members } = store;
  return {
    get: async (id) => expanded(await store.get(id)),
    set: (id, entry, ttlMs) => store.set(id, compacted(entry), ttlMs),
    delete: (id) => store.delete(id),
    // The optional sets hold no results: passed through, where the store has them.
    ...addMember && { addMember: addMember.bind(store) },
    ...removeMember && { removeMember: removeMember.bind(store) },
    ...members && { members: members.bind(store) },
  };
}

/** The entry to write: a result's text left out where it is its structured content's JSON. */
function compacted(entry: StoredResult): StoredResult {
  if (entry.status !== "completed" || entry.textIsStructured) return entry;
  const { content: [block, ...more], structuredContent } = entry.result;
  // One block `{ type, text }` (annotations or _meta: kept as it is) holding the value's JSON.
  const once = structuredContent !== undefined && more.length === 0 && block?.type === "text" &&
    Object.keys(block).length === 2 && block.text === JSON.stringify(structuredContent);
  return once ? { ...entry, result: { ...entry.result, content: [] }, textIsStructured: true } : entry;
}

/** The entry as it was given: the text block written back. */
function expanded(entry: StoredResult | undefined): StoredResult | undefined {
  if (entry?.status !== "completed" || !entry.textIsStructured) return entry;
  const { textIsStructured: _, result, ...rest } = entry;
  return {
    ...rest,
    result: { ...result, content: [{ type: "text", text: JSON.stringify(result.structuredContent) }] },
  };
}
