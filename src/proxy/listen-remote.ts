/**
 * What the proxy asks an MCP 2026-07-28 remote to tell with `subscriptions/listen` (MCP 2026-07-28,
 * Subscriptions): a listen request kept open, for the lists the remote says change (`listChanged`), or for
 * the updates of a resource a caller subscribed to; its notifications reach the proxy through the stream's
 * copy (./notice-fetch.ts) or the stdio connection's.
 *
 * @module
 */
import { sleep } from "../internal/sleep.ts";
import { LISTEN } from "./notice-fetch.ts";
import type { Remote } from "./remote.ts";

/** The longest wait before listening again after a failure, in ms. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Keeps a `subscriptions/listen` request open while `signal` is not aborted: opened again when the
 * stream ends (then `reopened` runs, for what changed meanwhile), after a growing wait when it fails,
 * and given up when the remote does not know the method.
 *
 * @param remote The remote.
 * @param notifications What to be told (`toolsListChanged`, `resourceSubscriptions`…); nothing: no listen.
 * @param signal Stops listening; without one, the proxy does not listen (nothing would close the stream).
 * @param reopened Runs after each stream but the first.
 */
export function listenRemote(
  remote: Remote,
  notifications: Record<string, unknown>,
  signal: AbortSignal | undefined,
  reopened: () => void,
): void {
  if (signal === undefined || Object.keys(notifications).length === 0) return;
  void (async () => {
    for (let failures = 0, first = true; !signal.aborted; first = false) {
      if (!first) reopened();
      const opened = Date.now();
      try {
        await remote.client.request(LISTEN, { notifications }, { signal, timeoutMs: 0 });
        // A stream the remote keeps ending at once is waited for as a failure is: no polling by listen.
        failures = Date.now() - opened > MAX_BACKOFF_MS ? 0 : failures + 1;
      } catch (error) {
        if (signal.aborted || unknownMethod(error)) return;
        failures++;
      }
      await sleep(Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures), signal).catch(() => {});
    }
  })();
}

function unknownMethod(error: unknown): boolean {
  return error instanceof TypeError || (error as { code?: unknown } | null)?.code === "method_not_found";
}
