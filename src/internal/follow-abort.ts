/**
 * A controller that also aborts when another signal does: what `AbortSignal.any` gives for two signals,
 * without its weak references (on Deno each `any()` costs a `WeakRef` and the collector's work after it).
 *
 * @module
 */
import { noop } from "./noop.ts";

/**
 * Makes `controller` abort when `source` does (at once if it has), with the source's reason (DOM
 * Standard §3.1, "signal abort": the first abort's reason stands).
 *
 * @param controller The controller to abort.
 * @param source The signal it follows.
 * @returns Stops following: call it once the controller's work is over, so that a long-lived source
 *   does not keep it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { followAbort } from "./follow-abort.ts";
 *
 * const request = new AbortController();
 * const call = new AbortController();
 * followAbort(call, request.signal);
 * request.abort(new Error("the client went away"));
 * assert.equal((call.signal.reason as Error).message, "the client went away");
 * ```
 */
export function followAbort(controller: AbortController, source: AbortSignal): () => void {
  if (source.aborted) {
    controller.abort(source.reason);
    return noop;
  }
  const follow = () => controller.abort(source.reason);
  source.addEventListener("abort", follow, { once: true });
  return () => source.removeEventListener("abort", follow);
}
