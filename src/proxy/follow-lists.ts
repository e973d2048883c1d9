/**
 * The remote's lists followed over time: read again every `refreshMs` (the tools revalidated with their
 * `ETag`, so an unchanged list costs a 304), and at once when the remote answers a mounted tool as
 * unknown; a change reaches the grouping server's lists, their `ETag`s and `list_changed` listeners.
 *
 * @module
 */
import { unrefTimer } from "../runtime/unref-timer.ts";
import type { Mirror } from "./mirror.ts";

/** Follows the remote's lists. */
export interface Follower {
  /** Reads the tools again now (past the cache), after the remote answered one of them as unknown. */
  now(): void;
}

/**
 * Starts following.
 *
 * @param mirror The mirror to keep in step.
 * @param refreshMs How often to read the lists again, in ms (0: never).
 * @param signal Stops following.
 * @returns The follower.
 */
export function followLists(mirror: Mirror, refreshMs: number, signal: AbortSignal | undefined): Follower {
  let running: Promise<void> | undefined;
  // A remote out of reach keeps the lists it had: its calls answer `unavailable` meanwhile.
  const sync = (fresh: boolean) => {
    running ??= mirror.syncAll(fresh).catch(() => {}).finally(() => running = undefined);
    return running;
  };
  if (refreshMs > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      if (signal?.aborted) return;
      timer = unrefTimer(setTimeout(() => void sync(false).then(tick), refreshMs));
    };
    signal?.addEventListener("abort", () => clearTimeout(timer), { once: true });
    tick();
  }
  return { now: () => void sync(true) };
}
