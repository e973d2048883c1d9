/**
 * The MCP binding's options (`mcpBinding({ … })`) and their resolved form.
 *
 * @module
 */
import { type CacheHint, checkCacheHint } from "../../core/mod.ts";

/** Options of the MCP binding. */
export interface McpOptions {
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /** Items per page of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list` (default 100). */
  pageSize?: number;
  /**
   * The caching hint of `server/discover` and the lists (default `{ ttlMs: 0, scope: "public" }`:
   * revalidate each time, which the lists' `ETag` makes cheap; `list_changed` notifications tell
   * listeners when to).
   */
  listCache?: CacheHint;
  /** The default caching hint of `resources/read` (default `{ ttlMs: 0, scope: "private" }`). */
  readCache?: CacheHint;
  /**
   * How many 2025-era sessions (the negotiated version, client capabilities and log level that
   * `initialize` and `logging/setLevel` set) this instance remembers, least recently used first out
   * (default 10 000).
   */
  sessionLimit?: number;
  /**
   * Serves `resources/directory/read` for skill directories and declares `directoryRead: true` in the
   * `io.modelcontextprotocol/skills` extension (SEP-2640; default `false`).
   */
  directoryRead?: boolean;
}

/** The MCP options with every default applied. */
export interface McpSettings {
  /** Items per list page. */
  readonly pageSize: number;
  /** The hint of discover and the lists. */
  readonly listCache: CacheHint;
  /** The default hint of reads. */
  readonly readCache: CacheHint;
  /** The session table's size. */
  readonly sessionLimit: number;
  /** Whether skill directories can be listed (`resources/directory/read`). */
  readonly directoryRead: boolean;
}

/**
 * Applies the defaults.
 *
 * @param options The options.
 * @returns The settings.
 * @throws {TypeError} When a value is out of range.
 */
export function resolveMcpSettings(options: McpOptions = {}): McpSettings {
  const o = options;
  const pageSize = o.pageSize ?? 100;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new TypeError("mcp.pageSize must be a positive integer");
  const sessionLimit = o.sessionLimit ?? 10_000;
  if (!Number.isSafeInteger(sessionLimit) || sessionLimit < 1) {
    throw new TypeError("mcp.sessionLimit must be a positive integer");
  }
  return Object.freeze({
    pageSize,
    listCache: checkCacheHint(o.listCache ?? { ttlMs: 0, scope: "public" }, "mcp.listCache"),
    readCache: checkCacheHint(o.readCache ?? { ttlMs: 0, scope: "private" }, "mcp.readCache"),
    sessionLimit,
    directoryRead: o.directoryRead === true,
  });
}
