/**
 * The age of a store's memory of DPoP proofs (RFC 9449 §11.1). A store that comes back empty (Redis
 * restarted without persistence, an in-memory store in a new process) has forgotten the `jti`s it
 * took, so a proof accepted just before could be accepted again. A marker kept in the store says
 * when its memory began; a proof that may predate it is taken only with a nonce issued since (§8).
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import { storeSpace } from "../store/store-space.ts";

/** The marker's key in the `dpop` namespace. */
const EPOCH_KEY = "epoch";
/** How long the marker is kept: far beyond any proof's window; when it expires, a new memory begins. */
const EPOCH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * When the store's memory of proofs began, in ms since the epoch: the marker's time, written (first writer wins, on
 * every instance sharing the store) when the store has none, as the time of this call, not of the store's answer: an
 * authorization server asks as it is made, and an assertion issued while a slow store answers was never used with it.
 *
 * @param store The server's shared store.
 * @returns The start of its memory.
 * @throws What the store throws (it is down).
 */
export async function memoryStart(store: SharedStore): Promise<number> {
  const at = Date.now();
  const epoch = storeSpace<number>(store, "dpop");
  const marker = await epoch.get(EPOCH_KEY);
  if (typeof marker === "number") return marker;
  // Taken once: the first instance to write the marker sets the time for all.
  if (await epoch.putIfAbsent(EPOCH_KEY, at, EPOCH_TTL_MS)) return at;
  const taken = await epoch.get(EPOCH_KEY);
  return typeof taken === "number" ? taken : at;
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
