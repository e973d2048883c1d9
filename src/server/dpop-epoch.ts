/**
 * The age of a store's memory of DPoP proofs (RFC 9449 §11.1). A store that comes back empty (Redis
 * restarted without persistence, an in-memory store in a new process) has forgotten the `jti`s it
 * took, so a proof accepted just before could be accepted again. A marker kept in the store says
 * when its memory began; a proof that may predate it is taken only with a nonce issued since (§8).
 *
 * @module
 */
import type { ResultStore } from "../jobs/result-store.ts";

/** Where the marker lives in the result store, apart from results (whose ids are random). */
const EPOCH_KEY = "dpop-epoch";
/** How long the marker is kept: far beyond any proof's window; when it expires, a new memory begins. */
const EPOCH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * When the store's memory of proofs began, in ms since the epoch: the marker's time, written (first writer wins, on
 * every instance sharing the store) when the store has none, as the time of this call, not of the store's answer: an
 * authorization server asks as it is made, and an assertion issued while a slow store answers was never used with it.
 *
 * @param store The server's result store.
 * @returns The start of its memory.
 * @throws What the store throws (it is down).
 */
export async function memoryStart(store: ResultStore): Promise<number> {
  const at = Date.now();
  const marker = await store.get(EPOCH_KEY);
  if (marker?.at !== undefined) return marker.at;
  // An ended entry is never replaced: the first instance to write the marker sets the time for all.
  if (await store.set(EPOCH_KEY, { status: "cancelled", at }, EPOCH_TTL_MS)) return at;
  return (await store.get(EPOCH_KEY))?.at ?? at;
}

/**
 * Whether a proof may have been accepted before the store's memory began. A proof is accepted while
 * its `iat` is within `windowSec` of the server's clock, so one accepted before `start` has an `iat`
 * before `start + windowSec`; without an `iat`, any proof until two windows after `start`.
 *
 * @param iat The proof's `iat`, in seconds, if known.
 * @param start When the memory began, ms.
 * @param windowSec The policy's window.
 * @returns Whether the proof needs a nonce issued since `start`.
 */
export function mayPredate(iat: number | undefined, start: number, windowSec: number): boolean {
  const window = windowSec * 1000;
  return iat === undefined ? Date.now() < start + 2 * window : iat * 1000 < start + window;
}
