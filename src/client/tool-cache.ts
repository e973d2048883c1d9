/**
 * The client's `tools/list` cache: in memory, per client, honouring `ttlMs`/`cacheScope` (or HTTP
 * `Cache-Control`) and revalidating with the list's `ETag`. Only lists are cached: never a call's
 * result, and so never the retry of an input round.
 *
 * @module
 */
import type { ToolInfo, ToolListing } from "./transport.ts";

interface Entry {
  readonly tools: ToolInfo[];
  readonly ttlMs: number;
  readonly expiresAt: number;
  readonly etag: string | undefined;
  readonly scope: NonNullable<ToolListing["cacheScope"]>;
  readonly authKey: string | undefined;
  /** Read on the side (finding the wire) and not yet given to `listTools()`. */
  readonly handed: boolean;
}

/** One client's cached tool list. */
export class ToolCache {
  #entry: Entry | undefined;

  /**
   * Gives the cached list while it is fresh and may be used in this auth context; a list handed over
   * (see {@link ToolCache.hand}) is given once whatever its lifetime, as the answer it stands for.
   *
   * @param authKey The current credentials (a `private` list serves only the same ones).
   * @param now The time, in ms.
   * @returns The tools, or `undefined`.
   */
  fresh(authKey: string | undefined, now: number): ToolInfo[] | undefined {
    const entry = this.#usable(authKey);
    if (entry === undefined) return undefined;
    if (entry.handed) {
      this.#entry = { ...entry, handed: false };
      return entry.tools;
    }
    return now < entry.expiresAt ? entry.tools : undefined;
  }

  /**
   * Stores a list the transport read on its own while finding the wire: it stands for the first
   * `listTools()` answer, which would have been that very read had `listTools()` come first; then the
   * list's lifetime and `ETag` rule as for any other.
   *
   * @param listing The list read.
   * @param authKey The credentials it was read with.
   * @param now When it was read, in ms.
   */
  hand(listing: ToolListing, authKey: string | undefined, now: number): void {
    this.store(listing, authKey, now);
    this.#entry = { ...this.#entry!, handed: true };
  }

  /**
   * Gives the tag to revalidate with (`If-None-Match`), when a usable copy exists.
   *
   * @param authKey The current credentials.
   * @returns The tag, or `undefined`.
   */
  etag(authKey: string | undefined): string | undefined {
    return this.#usable(authKey)?.etag;
  }

  /**
   * Stores a listing; a 304 keeps the cached tools and renews their lifetime.
   *
   * @param listing The transport's answer.
   * @param authKey The credentials it was fetched with.
   * @param now The time, in ms.
   * @returns The tools to use.
   */
  store(listing: ToolListing, authKey: string | undefined, now: number): ToolInfo[] {
    const previous = this.#usable(authKey);
    if (listing.notModified && previous !== undefined) {
      const ttlMs = normalTtl(listing.ttlMs ?? previous.ttlMs);
      this.#entry = { ...previous, ttlMs, expiresAt: now + ttlMs, handed: false };
      return previous.tools;
    }
    const ttlMs = normalTtl(listing.ttlMs);
    this.#entry = {
      tools: listing.tools,
      ttlMs,
      expiresAt: now + ttlMs,
      etag: listing.etag,
      scope: listing.cacheScope ?? "private",
      authKey,
      handed: false,
    };
    return listing.tools;
  }

  /** Forgets the list. */
  clear(): void {
    this.#entry = undefined;
  }

  #usable(authKey: string | undefined): Entry | undefined {
    const entry = this.#entry;
    if (entry === undefined) return undefined;
    return entry.scope === "public" || entry.authKey === authKey ? entry : undefined;
  }
}

/** A missing, negative or non-finite TTL counts as 0 (MCP 2026-07-28, Caching, SEP-2549). */
function normalTtl(ttlMs: number | undefined): number {
  return typeof ttlMs === "number" && ttlMs > 0 && Number.isFinite(ttlMs) ? ttlMs : 0;
}
