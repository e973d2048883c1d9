/**
 * A call whose tool code threw, as its outcome: the mapping of `failure.ts`, reported or counted by the
 * server's runtime (apart from it, so that the mapping needs no runtime).
 *
 * @module
 */
import { withResultMeta } from "./call-context.ts";
import { failureFromError } from "../results/failure.ts";
import type { ToolCall } from "./middleware.ts";
import type { FinalOutcome } from "./outcome.ts";
import { budgetsOf, type Runtime } from "../instance/runtime.ts";

/**
 * A call whose tool code threw, as its outcome: {@link failureFromError} reported to the server's
 * `onError` with the call (masked under `maskErrors`), and the call's `_meta` on the result. A call its caller gave up on (its signal
 * aborted: cancelled, disconnected, past its deadline) is counted in the server's metrics instead of
 * reported: a caller can abort at will, and each abort is not the server's failure.
 *
 * @param call The call.
 * @param error What was thrown.
 * @param runtime The server's runtime (`registry.runtime`): its error reporter and its counters.
 * @returns The failure outcome.
 * @throws {ProtocolError} As {@link failureFromError}.
 */
export function failedCall(
  call: ToolCall,
  error: unknown,
  runtime: Runtime,
): FinalOutcome {
  const aborted = call.ctx.signal.aborted;
  if (aborted) budgetsOf(runtime).callAborted();
  const result = failureFromError(error, aborted ? () => undefined : (e) => runtime.reportUnexpected(e, call));
  return { kind: "failure", result: withResultMeta(result, call.ctx) };
}
