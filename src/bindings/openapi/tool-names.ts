/**
 * Tool names from operation names: valid (1-64 characters of `A-Z a-z 0-9 _ . -`, MCP 2025-11-25,
 * Tools, tool names), unique and stable (the same document gives the same names, in document order).
 *
 * @module
 */

const MAX = 64;

/** Hands out valid, unique tool names. */
export class ToolNames {
  readonly #taken = new Set<string>();

  /**
   * Makes a name valid and unique: other characters become `_`, a name too long is cut, a name taken
   * gets `_2`, `_3`, ….
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
   * ```
   */
  claim(wanted: string): string {
    const base = (wanted.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "") || "operation").slice(0, MAX);
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = base.slice(0, MAX - String(n).length - 1) + `_${n}`;
    this.#taken.add(name);
    return name;
  }
}
