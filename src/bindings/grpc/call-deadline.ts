/**
 * The one deadline helper of the gRPC binding: a unary call answers DEADLINE_EXCEEDED (or CANCELLED) on
 * time even when its handler ignores its signal (gRPC over HTTP/2 protocol, Timeouts; Connect protocol,
 * Unary-Request: `connect-timeout-ms`). Connect's handlers and the direct paths' calls (`UnaryCall`)
 * both race their work against their signal here.
 *
 * @module
 */
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";

/**
 * Settles with the work, or rejects with the reason the signal aborts with, as soon as it aborts.
 *
 * @param work The work.
 * @param signal The call's signal: it aborts on the deadline, or when the client goes away.
 * @returns The work's value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { untilAborted } from "./call-deadline.ts";
 * const late = untilAborted(new Promise(() => {}), AbortSignal.abort());
 * await assert.rejects(late, /cancelled/);
 * ```
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    }, (error: unknown) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
  });
}

/**
 * {@link untilAborted} for a Connect handler: calls without a deadline (most) wait for their work alone
 * and pay nothing.
 *
 * @param work The work.
 * @param context Connect's handler context, if the call came through Connect.
 * @returns The work's value.
 */
export function untilDeadline<T>(work: Promise<T>, context: HandlerContext | undefined): Promise<T> {
  return context === undefined || context.timeoutMs() === undefined ? work : untilAborted(work, context.signal);
}

/**
 * The deadline error Connect aborted the signal with, or CANCELLED for a client that went away.
 *
 * @param signal The call's signal, aborted.
 * @returns The error the wire carries.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Code } from "@connectrpc/connect";
 * import { abortReason } from "./call-deadline.ts";
 * assert.equal(abortReason(AbortSignal.abort()).code, Code.Canceled);
 * ```
 */
export function abortReason(signal: AbortSignal): ConnectError {
  return signal.reason instanceof ConnectError
    ? signal.reason
    : new ConnectError("the call was cancelled", Code.Canceled);
}
