/**
 * The keys a handler adds to its result's `_meta` (`ctx.resultMeta()`): which keys MCP reserves, and
 * how they join the result.
 *
 * @module
 */

/** What holds the keys a handler added: the call pipeline's context (`ToolCallContext`). */
interface ResultMetaSource {
  /** The keys `ctx.resultMeta()` added. */
  readonly "~resultMeta": Readonly<Record<string, unknown>> | undefined;
}

/**
 * Tells whether a `_meta` key is one MCP reserves (MCP 2025-06-18, Basic: `_meta`): its prefix has a
 * `modelcontextprotocol` or `mcp` label (`io.modelcontextprotocol/serverInfo`).
 *
 * @param key The key.
 * @returns `true` for a reserved key.
 */
export function isReservedMetaKey(key: string): boolean {
  const slash = key.lastIndexOf("/");
  return slash > 0 &&
    key.slice(0, slash).split(".").some((label) => label === "modelcontextprotocol" || label === "mcp");
}

/**
 * Puts the keys a handler added with `ctx.resultMeta()` into a result's `_meta`.
 *
 * @param result The result.
 * @param ctx The handler's context (one the pipeline made).
 * @returns The result (the same object when nothing was added).
 */
export function withResultMeta<R extends { _meta?: Record<string, unknown> }>(result: R, ctx: object): R {
  const extra = (ctx as ResultMetaSource)["~resultMeta"];
  return extra === undefined ? result : { ...result, _meta: { ...result._meta, ...extra } };
}

/**
 * Checks the keys a handler adds with `ctx.resultMeta()`.
 *
 * @param meta The keys.
 * @throws {TypeError} For a key MCP reserves (a prefix with a `modelcontextprotocol` or `mcp` label).
 */
export function checkResultMeta(meta: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(meta)) {
    if (isReservedMetaKey(key)) throw new TypeError(`ctx.resultMeta(): "${key}" is in a namespace MCP reserves`);
  }
}
