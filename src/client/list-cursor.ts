/**
 * Following a paginated list's `nextCursor` to its end (MCP 2025-11-25, Pagination): every page is read,
 * however small the server's pages, and a server that loops is an error instead of a list cut short.
 *
 * @module
 */
import { rpcError } from "./errors.ts";

/** A bound against a runaway server: a million items at a page size of 100. */
const MAX_PAGES = 10_000;

/** The cursors of one list walk: each next cursor, checked to be new. */
export class ListCursor {
  readonly #method: string;
  readonly #seen = new Set<string>();

  /**
   * Starts a walk.
   *
   * @param method The list method (`tools/list`, …), for the error.
   */
  constructor(method: string) {
    this.#method = method;
  }

  /**
   * The cursor of the next page, or `undefined` when this page was the last (no `nextCursor`, or an empty one).
   *
   * @param result A page's result.
   * @returns The next cursor.
   * @throws {ProtocolError} When the server sends a cursor it sent before (it would loop forever), or too many pages.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ListCursor } from "./list-cursor.ts";
   * const walk = new ListCursor("tools/list");
   * assert.equal(walk.next({ tools: [], nextCursor: "b" }), "b");
   * assert.equal(walk.next({ tools: [] }), undefined);
   * assert.throws(() => walk.next({ nextCursor: "b" }), /sent the cursor "b" twice/);
   * ```
   */
  next(result: Record<string, unknown>): string | undefined {
    const cursor = result.nextCursor;
    if (typeof cursor !== "string" || cursor === "") return undefined;
    if (this.#seen.has(cursor)) {
      throw rpcError(`${this.#method}: the server sent the cursor ${JSON.stringify(cursor)} twice`, {
        data: result,
      });
    }
    if (this.#seen.size >= MAX_PAGES) {
      throw rpcError(`${this.#method}: the server's list goes on past ${MAX_PAGES} pages`, { data: result });
    }
    this.#seen.add(cursor);
    return cursor;
  }
}
