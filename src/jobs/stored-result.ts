/**
 * What a result store keeps (`StoredResult`) and promises (`ResultStore`), where the results of deferred work
 * (`ctx.defer()`) wait to be redeemed: three async methods, so a shared store (Redis, a database) can stand in for
 * the in-memory default (./result-store.ts), which only the instance that ran the work can read.
 *
 * @module
 */
import type { InputRequest } from "../core/call/call-sink.ts";
import type { ErrorCode } from "../errors/error.ts";
import type { ToolResult } from "../core/results/result.ts";
import type { JournalStore } from "./journal-store.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { ended } from "../store/store-of.ts";

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
      /** What the job waits for, as its task's `statusMessage` says it (`work.waitFor()`: a signal). */
      readonly waiting?: string;
    }
    | {
      readonly status: "input_required";
      readonly requests: Readonly<Record<string, InputRequest>>;
      readonly answers?: Readonly<Record<string, unknown>>;
    }
    | {
      readonly status: "completed";
      readonly result: ToolResult;
      /**
       * The result's one text block was its `structuredContent`'s JSON and is left out of the entry (the
       * value is stored once, not twice); the server writes the block back on reading it.
       */
      readonly textIsStructured?: true;
    }
    // `code`: an ErrorCode, or the JSON-RPC number a ProtocolError was raised with (kept as raised)
    | { readonly status: "failed"; readonly error: { code: ErrorCode | number; message: string; data?: unknown } }
    | { readonly status: "cancelled" }
  )
  & {
    /** When the entry was written, ms since the epoch (absent in entries written without a clock). */
    readonly at?: number;
    /**
     * A queued job's end: its work's last progress report (progress, total, message; `null` where a store's JSON wrote
     * an absent one), for a follower whose queue carries it after the end.
     */
    readonly progress?: readonly [progress: number, total?: number | null, message?: string | null];
  };

/**
 * A store of deferred results, keyed by an id the promise token carries. Values are JSON.
 *
 * **First writer wins**: once an entry has ended (completed, failed or cancelled), it is never
 * replaced, so a job's result and a concurrent cancellation (or a second writer, on any instance) can
 * never both win. A store shared by instances makes that check and the write one atomic operation
 * (compare-and-set); `tests/helpers/result-store-conformance.ts` holds the suite every store passes.
 */
export interface ResultStore {
  /** Reads an entry; `undefined` when it is unknown or expired. */
  get(id: string): Promise<StoredResult | undefined>;
  /**
   * Writes an entry to expire after `ttlMs`, replacing one still running (working or waiting for
   * input), atomically: an entry that has ended stays as it is.
   *
   * @returns Whether it was written (`false`: the entry had ended already).
   */
  set(id: string, entry: StoredResult, ttlMs: number): Promise<boolean>;
  /** Removes an entry. */
  delete(id: string): Promise<void>;
  /**
   * Optional: sets of strings beside the entries, for a feature's indexes (event subscriptions). A set has a key
   * of its own (an entry and a set may share a key without meeting) and one lifetime for all its members.
   * Adds `member` to the set at `key` (adding it again changes nothing), making the set live at least `ttlMs`
   * from now: a longer lifetime it has is kept, never shortened.
   */
  addMember?(key: string, member: string, ttlMs: number): Promise<void>;
  /** Optional (with {@link ResultStore.addMember}): removes `member` from the set at `key`; an absent one is no error. */
  removeMember?(key: string, member: string): Promise<void>;
  /**
   * Optional (with {@link ResultStore.addMember}): the members of the set at `key`, in no order; `[]` when the key
   * is unknown or its set has expired.
   */
  members?(key: string): Promise<readonly string[]>;
  /**
   * Optional: where jobs keep their journals on this store's backend (`redisResultStore()`: a hash per job;
   * `postgresResultStore()`: a table keyed by job and step), which the server takes unless given a `journalStore`.
   * Without it, the server keeps journals in this store's entries, at a read per step to load one.
   */
  readonly journalStore?: JournalStore;
  /**
   * Optional: the shared store this result store is a view of, where the server's other features keep their
   * records (event subscriptions and logs, replay marks, flow control, saved programs), each in a namespace of its
   * own. The stores of this SDK carry theirs; without it, those records are kept as entries of this store.
   */
  readonly store?: SharedStore;
}

/**
 * Whether an entry has ended: completed, failed or cancelled. An ended entry is never replaced.
 *
 * @param entry The entry.
 * @returns Whether it is final.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasEnded } from "./stored-result.ts";
 * assert.equal(hasEnded({ status: "cancelled" }), true);
 * assert.equal(hasEnded({ status: "working" }), false);
 * ```
 */
export function hasEnded(entry: StoredResult): boolean {
  return ended(entry); // the one rule: the store contract's adapters read entries written before it by it too
}
