/**
 * Where the results of deferred work (`ctx.defer()`) wait to be redeemed. The interface is three
 * async methods so a shared store (Redis, a database) can stand in for the in-memory default, which
 * only the instance that ran the work can read.
 *
 * @module
 */
import type { InputRequest } from "./call-sink.ts";
import type { ErrorCode } from "./error.ts";
import type { ToolResult } from "./result.ts";

/**
 * The state of one deferred job (or of an MCP task). While the job waits for the client, it is
 * `input_required` with its outstanding questions; answers delivered on another instance wait in
 * `answers` until the instance running the job picks them up. A continuation task keeps here what its
 * id cannot: answers, its latest state, and its terminal status once seen.
 */
export type StoredResult =
  & (
    | {
      readonly status: "working";
      readonly answers?: Readonly<Record<string, unknown>>;
      /** A continuation task's latest state, from the promise its `.redeem()` last re-issued. */
      readonly continued?: { readonly state: unknown };
    }
    | {
      readonly status: "input_required";
      readonly requests: Readonly<Record<string, InputRequest>>;
      readonly answers?: Readonly<Record<string, unknown>>;
    }
    | { readonly status: "completed"; readonly result: ToolResult }
    | { readonly status: "failed"; readonly error: { code: ErrorCode; message: string; data?: unknown } }
    | { readonly status: "cancelled" }
  )
  & {
    /** When the entry was written, ms since the epoch (absent in entries written without a clock). */
    readonly at?: number;
  };

/** A store of deferred results, keyed by an id the promise token carries. Values are JSON. */
export interface ResultStore {
  /** Reads an entry; `undefined` when it is unknown or expired. */
  get(id: string): Promise<StoredResult | undefined>;
  /** Writes an entry, replacing any, to expire after `ttlMs`. */
  set(id: string, entry: StoredResult, ttlMs: number): Promise<void>;
  /** Removes an entry. */
  delete(id: string): Promise<void>;
}

/** Options of {@link createMemoryResultStore}. */
export interface MemoryResultStoreOptions {
  /** The most entries kept (default 1 000); the oldest go first. */
  maxEntries?: number;
  /** The most bytes of JSON kept (default 32 MiB); the oldest go first. */
  maxBytes?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
}

interface Slot {
  readonly entry: StoredResult;
  readonly size: number;
  readonly expiresAt: number;
}

/**
 * Creates the in-memory result store: bounded by count and bytes, entries expiring after their TTL.
 * It lives in one process; servers behind a load balancer need a shared store instead.
 *
 * @param options The bounds and the clock.
 * @returns The store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryResultStore } from "./result-store.ts";
 * const store = createMemoryResultStore({ maxEntries: 2 });
 * await store.set("a", { status: "working" }, 60_000);
 * assert.deepEqual(await store.get("a"), { status: "working" });
 * ```
 */
export function createMemoryResultStore(options: MemoryResultStoreOptions = {}): ResultStore {
  const maxEntries = options.maxEntries ?? 1_000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot>();
  let bytes = 0;

  const drop = (id: string) => {
    const slot = slots.get(id);
    if (slot === undefined) return;
    bytes -= slot.size;
    slots.delete(id);
  };

  return {
    get(id) {
      const slot = slots.get(id);
      if (slot === undefined) return Promise.resolve(undefined);
      if (now() >= slot.expiresAt) {
        drop(id);
        return Promise.resolve(undefined);
      }
      return Promise.resolve(slot.entry);
    },
    set(id, entry, ttlMs) {
      const size = id.length + JSON.stringify(entry).length;
      if (size > maxBytes) {
        return Promise.reject(new RangeError(`a result of ${size} bytes exceeds the store's limit of ${maxBytes}`));
      }
      drop(id); // re-inserting moves the entry to the young end
      const time = now();
      for (const [key, slot] of slots) { // expired entries first, then the oldest, until it fits
        if (time < slot.expiresAt && slots.size < maxEntries && bytes + size <= maxBytes) break;
        drop(key);
      }
      slots.set(id, { entry, size, expiresAt: time + ttlMs });
      bytes += size;
      return Promise.resolve();
    },
    delete(id) {
      drop(id);
      return Promise.resolve();
    },
  };
}
