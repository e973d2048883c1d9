/**
 * The MCP binding's options (`mcpBinding({ … })`) and their resolved form.
 *
 * @module
 */
import { type CacheHint, checkCacheHint } from "../../core/mod.ts";
import { type Capability, holdMsOf } from "../../server/mod.ts";
import { SKILLS_EXTENSION } from "../../internal/mcp-wire.ts";

/** What the binding's options add to the settings of extensions, by identifier (`McpSettings.extensions`). */
export type AddedSettings = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** No settings added to any extension's. */
export const NONE_ADDED: AddedSettings = {};

/** Options of the MCP binding. */
export interface McpOptions {
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /**
   * Items per page of `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list` and
   * `skills/list`. Default: none, every item on one page (each list still serialised once per change and
   * served with its `ETag`). Many hosts read only the first page and silently lose the rest, so set a
   * size only for clients known to follow `nextCursor` (MCP 2025-11-25, Pagination).
   *
   * @example
   * ```ts
   * import { createServer, mcpBinding } from "@mcplite/sdk";
   * createServer({ name: "big", version: "1.0.0", bindings: [mcpBinding({ pageSize: 500 })] });
   * ```
   */
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
  /**
   * How long a call of a long-running tool waits for the work to end, in ms, when the client did not
   * declare the tasks extension (every 2025 client): it then answers the tool's real result, which its
   * `outputSchema` admits. Past it, the call answers the promise as text for the model to `redeem`
   * (an `isError` result for a tool with an output schema). Default: the server's `holdMs` (30 000,
   * half the official SDKs' 60 s request timeout); `0` answers the promise at once.
   */
  holdMs?: number;
  /**
   * 2025 sessions' own streams over HTTP (MCP 2025-11-25, Transports: "Listening for Messages from the Server"):
   * `sessionStreams()`, which serves a session's `GET` stream (resource updates, list changes, logs) and
   * `resources/subscribe`, and, with `polling`, SSE polling of 2025-11-25 calls (`sessionStreams({ polling: {
   * closeAfterMs, retryMs } })`), all held in this process; its code comes with the value. Default: off, the server
   * stateless (a 2025 `resources/subscribe` over HTTP is refused, -32601).
   *
   * @example
   * ```ts
   * import { createServer, mcpBinding, sessionStreams } from "@mcplite/sdk";
   * createServer({ name: "subscribable", version: "1.0.0", bindings: [mcpBinding({ sessionStreams: sessionStreams() })] });
   * ```
   */
  sessionStreams?: Capability<"sessionStreams">;
}

/** The MCP options with every default applied. */
export interface McpSettings {
  /** Items per list page (`Infinity`: one page, the default). */
  readonly pageSize: number;
  /** The hint of discover and the lists. */
  readonly listCache: CacheHint;
  /** The default hint of reads. */
  readonly readCache: CacheHint;
  /** The session table's size. */
  readonly sessionLimit: number;
  /**
   * What the options add to the settings of the extensions served, by identifier: `directoryRead` to the
   * Skills extension's (SEP-2640), which then answers `resources/directory/read`.
   */
  readonly extensions: AddedSettings;
  /** How long a call waits for a promise's work, for a client without tasks; `undefined`: the server's `holdMs`. */
  readonly holdMs: number | undefined;
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
  const pageSize = o.pageSize ?? Infinity;
  if (pageSize !== Infinity && (!Number.isSafeInteger(pageSize) || pageSize < 1)) {
    throw new TypeError("mcp.pageSize must be a positive integer");
  }
  const sessionLimit = o.sessionLimit ?? 10_000;
  if (!Number.isSafeInteger(sessionLimit) || sessionLimit < 1) {
    throw new TypeError("mcp.sessionLimit must be a positive integer");
  }
  const holdMs = o.holdMs === undefined ? undefined : holdMsOf(o.holdMs, "mcp.holdMs");
  return Object.freeze({
    pageSize,
    listCache: checkCacheHint(o.listCache ?? { ttlMs: 0, scope: "public" }, "mcp.listCache"),
    readCache: checkCacheHint(o.readCache ?? { ttlMs: 0, scope: "private" }, "mcp.readCache"),
    sessionLimit,
    extensions: o.directoryRead === true ? { [SKILLS_EXTENSION]: { directoryRead: true } } : NONE_ADDED,
    holdMs,
  });
}
