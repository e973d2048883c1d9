/**
 * Paged list replies with opaque cursors. Each page is serialised once per change of the registry,
 * with its `ETag` and `Cache-Control`; a request costs a cursor decode and a memo lookup.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { base64urlDecode, base64urlEncode } from "../../codec/base64url.ts";
import { utf8Encoder } from "../../internal/utf8.ts";
import { CacheSlot, registryOf } from "../../core/mod.ts";
import { CachedBody } from "./caching.ts";
import { finishResult } from "./finish-result.ts";
import type { McpContext, McpRequest } from "./mcp-request.ts";

/** Every list, whole and by page. */
const PAGED = /* @__PURE__ */ new CacheSlot<PagedList>("mcp:pages");

/** A list, whole, and its pages as served. */
interface PagedList {
  readonly all: readonly unknown[];
  readonly pages: Map<number, CachedBody>;
}

/**
 * Encodes a list position as an opaque cursor.
 *
 * @param offset The index of the next item.
 * @returns The cursor.
 */
export function encodeCursor(offset: number): string {
  return base64urlEncode(utf8Encoder.encode(`mcplite:${offset}`));
}

/**
 * Decodes a cursor; an absent cursor is the start of the list.
 *
 * @param cursor The `cursor` param.
 * @returns The index of the next item.
 * @throws {ProtocolError} `invalid_params` for a cursor this server did not issue.
 */
export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined || cursor === null) return 0;
  const bytes = typeof cursor === "string" && cursor.length <= 64 ? base64urlDecode(cursor) : undefined;
  const match = bytes && /^mcplite:(0|[1-9]\d{0,9})$/.exec(String.fromCharCode(...bytes));
  if (match) return Number(match[1]);
  throw new ProtocolError("invalid_params", "Invalid params: invalid cursor", { data: { cursor } });
}

/**
 * Answers a list method with one page.
 *
 * @param ctx The binding.
 * @param request The request (its `cursor` param picks the page).
 * @param key Names the list in the registry's memo (`mcp:tools`, `mcp:prompts`…).
 * @param field The result field (`tools`, `prompts`, `resources`, `resourceTemplates`).
 * @param items Builds the whole list of descriptors; runs once per change of the registry.
 * @param personal Whether the list depends on the caller (its scopes): then its cache scope is `private`.
 * @returns The page, serialised once.
 * @throws {ProtocolError} `invalid_params` for a bad cursor.
 */
export function listReply(
  ctx: McpContext,
  request: McpRequest,
  key: string,
  field: string,
  items: () => readonly unknown[],
  personal = false,
): CachedBody {
  const list = registryOf(ctx.core).cached(PAGED, key, () => ({ all: items(), pages: new Map<number, CachedBody>() }));
  const all = list.all;
  const offset = Math.min(decodeCursor(request.rpc.params.cursor), all.length);
  const era = request.envelope.era;
  // Pages by era and offset, under a number: no key string built per request.
  const page = era === "modern" ? offset : -1 - offset;
  let cached = list.pages.get(page);
  if (cached === undefined) {
    const { pageSize } = ctx.settings;
    const listCache = personal ? { ...ctx.settings.listCache, scope: "private" as const } : ctx.settings.listCache;
    const result: Record<string, unknown> = { [field]: all.slice(offset, offset + pageSize) };
    if (offset + pageSize < all.length) result.nextCursor = encodeCursor(offset + pageSize);
    if (era === "modern") {
      result.ttlMs = listCache.ttlMs;
      result.cacheScope = listCache.scope;
    }
    cached = new CachedBody(JSON.stringify(finishResult(result, request.envelope, ctx.serverInfo)), listCache);
    list.pages.set(page, cached);
  }
  return cached;
}
