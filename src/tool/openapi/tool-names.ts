/**
 * Tool names from operation names: valid (1-64 characters of `A-Z a-z 0-9 _ . -`, MCP 2025-11-25,
 * Tools, tool names), unique and stable (the same document gives the same names, in document order).
 * A name too long keeps its head and its tail, the middle replaced by a short hash of the whole name,
 * so long names that share a prefix (Microsoft Graph's operationIds) stay distinct and readable.
 *
 * @module
 */

const MAX = 64;
const HEAD = 23; // + "_" + 8 hex digits + "_" + TAIL = 64
const TAIL = 31;

/** Hands out valid, unique tool names. */
export class ToolNames {
  readonly #taken = new Set<string>();

  /**
   * Makes a name valid and unique: other characters become `_`, a name longer than 64 keeps its first 23
   * and last 31 characters around a hash of the whole, a name taken gets `_2`, `_3`, ….
   *
   * @param wanted The name wanted, e.g. an `operationId` such as `repos/get-content`.
   * @returns The name given, e.g. `repos_get-content`.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ToolNames } from "./tool-names.ts";
   * const names = new ToolNames();
   * assert.equal(names.claim("repos/get content"), "repos_get_content");
   * assert.equal(names.claim("repos/get content"), "repos_get_content_2");
   * const long = names.claim("users.onlineMeetings.attendanceReports.attendanceRecords.GetCount-1234");
   * assert.equal(long.length, 64);
   * assert.ok(long.startsWith("users.onlineMeetings.at") && long.endsWith("ttendanceRecords.GetCount-1234"));
   * ```
   */
  claim(wanted: string): string {
    const valid = wanted.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "") || "operation";
    const base = valid.length <= MAX ? valid : `${valid.slice(0, HEAD)}_${fnv1a(valid)}_${valid.slice(-TAIL)}`;
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = base.slice(0, MAX - String(n).length - 1) + `_${n}`;
    this.#taken.add(name);
    return name;
  }
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable hash (not a security measure). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}
