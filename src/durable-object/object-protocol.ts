/**
 * What the result store and the notifier say to their Durable Object, and how an entry lies in the object's
 * storage: one object per entry, its JSON split into chunks a Durable Object's storage takes (a value is at most
 * 128 KiB on the key-value backend; a chunk of 32 768 UTF-16 code units is at most 64 KiB), written in one `put()`
 * (at most 128 keys), so that an entry is written whole or not at all.
 *
 * @module
 */
/** The URL the store's requests go to: a Durable Object stub's `fetch()` needs one; the object reads the path only. */
export const OBJECT_URL = "https://mcplite-durable-object/result";

/**
 * The URL of the notifier's requests to its object: a WebSocket upgrade subscribes, a `POST` of a message publishes
 * it, a `GET` counts the subscribed sockets.
 */
export const NOTIFIER_URL = "https://mcplite-durable-object/notifier";

/** The UTF-16 code units of one chunk: at most 64 KiB, under the key-value backend's 128 KiB per value. */
export const CHUNK_UNITS = 32_768;

/** The most chunks of one entry: one `put()` writes at most 128 keys, the entry's metadata among them. */
export const MAX_CHUNKS = 127;

/** The most bytes of one entry's JSON a store takes (4 000 000: {@link MAX_CHUNKS} chunks always hold it). */
export const MAX_ENTRY_BYTES = 4_000_000;

/**
 * A request of the store to its object: a record's (`get`, `set`, `delete`), a set's (`add`, `remove`, `members`). A
 * `set` writes unless the record kept is final (`ended`), and only `if` it is absent, or its JSON is the one given
 * (`null`: absent), when asked.
 */
export type ObjectRequest =
  | { readonly op: "get" }
  | {
    readonly op: "set";
    readonly json: string;
    readonly ended: boolean;
    readonly ttlMs: number;
    readonly if?: "absent" | { readonly json: string | null };
  }
  | { readonly op: "delete" }
  | { readonly op: "add"; readonly member: string; readonly ttlMs: number }
  | { readonly op: "remove"; readonly member: string }
  | { readonly op: "members" };

/**
 * The object's answer: the entry's JSON (`get`, `null`: none), whether it was written (`set`), or the set's members
 * (`members`).
 */
export interface ObjectAnswer {
  readonly json?: string | null;
  readonly written?: boolean;
  readonly members?: readonly string[];
}

/** The storage key of an entry's metadata. */
export const META_KEY = "meta";

/** The storage key of a set's lifetime (`{ expiresAt }`), beside its members (`member:<member>`, listed by prefix). */
export const SET_KEY = "set";

/** The prefix of a set member's storage key. */
export const MEMBER_PREFIX = "member:";

/** The entry's metadata, beside its chunks (`chunk:0`, `chunk:1`, ...). */
export interface EntryMeta {
  /** Whether the entry has ended (completed, failed or cancelled): it is never replaced. */
  readonly ended: boolean;
  /** When it expires, ms since the epoch. */
  readonly expiresAt: number;
  /** How many chunks its JSON fills. */
  readonly chunks: number;
}

/**
 * The storage key of chunk `n`.
 *
 * @param n The chunk's index.
 * @returns Its key.
 */
export function chunkKey(n: number): string {
  return `chunk:${n}`;
}

/**
 * Whether a request is one the object takes (it is reachable through its binding only, but may be routed to).
 *
 * @param body The request's JSON.
 * @returns Whether it is an {@link ObjectRequest}.
 */
export function isObjectRequest(body: unknown): body is ObjectRequest {
  if (typeof body !== "object" || body === null) return false;
  const { op, json, ended, ttlMs, member, if: condition } = body as Record<string, unknown>;
  if (op === "get" || op === "delete" || op === "members") return true;
  if (op === "remove") return typeof member === "string";
  const lifetime = typeof ttlMs === "number" && Number.isFinite(ttlMs) && ttlMs > 0;
  if (op === "add") return typeof member === "string" && lifetime;
  const when = condition === undefined || condition === "absent" ||
    (typeof condition === "object" && condition !== null &&
      (typeof (condition as { json?: unknown }).json === "string" || (condition as { json?: unknown }).json === null));
  return op === "set" && typeof json === "string" && typeof ended === "boolean" && lifetime && when;
}
