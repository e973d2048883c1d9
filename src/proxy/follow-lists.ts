/**
 * The remote's lists followed: read again at once when the remote notifies a change (`list_changed` on
 * stdio, a 2025 session's stream, a 2026-07-28 `subscriptions/listen` stream), every `refreshMs` (the
 * tools revalidated with their `ETag`: an unchanged list costs a 304), and when it answers a mounted tool
 * as unknown; a change reaches the grouping server's lists, ETags and listeners.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";
import type { Mirror } from "./mirror.ts";
import type { Remote } from "./remote.ts";
import { listenRemote } from "./listen-remote.ts";

/** Follows the remote's lists. */
export interface Follower {
  /** Reads the tools again now (past the cache), after the remote answered one of them as unknown. */
  now(): void;
}

/**
 * Starts following.
 *
 * @param mirror The mirror to keep in step.
 * @param remote The remote, whose `list_changed` notifications (if its wire carries them) are heard.
 * @param refreshMs How often to read the lists again, in ms (0: never).
 * @param signal Stops following.
 * @param described Whether the remote speaks MCP 2026-07-28 (it is asked with `subscriptions/listen`), and its
 *   capabilities (which lists it says change).
 * @returns The follower.
 */
export function followLists(
  mirror: Mirror,
  remote: Remote,
  refreshMs: number,
  signal: AbortSignal | undefined,
  { modern, capabilities }: { modern: boolean; capabilities: Record<string, unknown> | undefined },
): Follower {
  let running: Promise<void> | undefined;
  // A remote out of reach keeps the lists it had: its calls answer `unavailable` meanwhile.
  const sync = (fresh: boolean) => {
    running ??= mirror.syncAll(fresh).catch(() => {}).finally(() => running = undefined);
    return running;
  };
  const changed = {
    "notifications/tools/list_changed": latest(() => mirror.syncTools(true)),
    "notifications/prompts/list_changed": latest(() => mirror.syncPrompts()),
    "notifications/resources/list_changed": latest(() => mirror.syncResources()),
  } as Record<string, () => void>;
  remote.listen?.((method) => {
    if (!signal?.aborted) changed[method]?.();
  });
  if (modern && remote.listen !== undefined) { // a client given: its stream would go unheard
    const changes = (kind: string) => isObject(capabilities?.[kind]) && capabilities[kind].listChanged === true;
    const notifications = {
      ...(changes("tools") && { toolsListChanged: true }),
      ...(changes("prompts") && { promptsListChanged: true }),
      ...(changes("resources") && { resourcesListChanged: true }),
    };
    listenRemote(remote, notifications, signal, () => {
      for (const read of Object.values(changed)) read();
    });
  }
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

/**
 * Runs a read once at a time; a change told while it runs reads once more after it, since the list it
 * is reading may predate the change.
 */
function latest(read: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) return void (again = true);
    running = true;
    void read().catch(() => {}).finally(() => {
      running = false;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return run;
}
