/**
 * A request held open as a stream of notifications (`ctx.holdOpen()`, SEP-3415 "Push": `events/stream`) on a wire
 * that carries one of its own (MCP-lite's SSE answer at `/rpc`, gRPC's `CallMethodStream`; this SDK's MCP-lite
 * extension E5): out of the request budgets ("server SDKs MUST exempt `events/stream` from any general cap on
 * concurrent requests"), and held by the server's drain until it ends.
 *
 * @module
 */
import { type AuthInfo, callerOf, type Registry } from "../core/mod.ts";
import type { Host } from "../core/call/host.ts";

/** What holding a request gives its wire. */
export interface HeldRequest {
  /** Aborts when the server drains (`server.drain()`): the method answers its last result, the stream still open. */
  readonly drained: AbortSignal;
  /** Who the caller is, for the streams' own per-caller budget: `limits.perCaller`'s key, else the subject. */
  readonly caller: string;
}

/**
 * Holds a request: exempts it from the request budgets, and has the server's drain abort `drained` and wait for
 * `ended` (the stream's last frame sent, or the client gone).
 *
 * @param registry The server's registry, whose runtime holds it.
 * @param host The request's host (its caller, and what exempts it).
 * @param auth Who the caller is (`ctx.auth`), where the host does not say.
 * @param id The request's id, as the budgets know it (`null` where the wire has none).
 * @param ended Settles once the stream ended: the drain waits for it, and the hold ends with it.
 * @returns The drain's signal and the caller's key.
 */
export function holdRequest(
  registry: Registry,
  host: Host,
  auth: AuthInfo | undefined,
  id: string | number | null,
  ended: Promise<void>,
): HeldRequest {
  host.exempt?.(id);
  const drain = new AbortController();
  const release = registry.runtime.hold(() => {
    drain.abort();
    return ended;
  });
  void ended.then(release);
  return { drained: drain.signal, caller: host.caller ?? callerOf(auth) ?? "" };
}
