/**
 * A remote prompt's get or resource's read, forwarded as the caller's (./proxied-prompt.ts, ./proxied-resource.ts):
 * within the caller's answer budget (./answer-budget.ts), in its trace, the remote's result metadata kept; a failure
 * answered as a protocol error, and one of the remote's own told to it. The options every forwarded request is sent
 * with (the tool's calls too: ./proxied-tool.ts) come from {@link forwardOptions}.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import { callerTrace } from "../core/call/caller-trace.ts";
import type { Client } from "../client/client.ts";
import { isResponseTooLarge } from "../client/response-bound.ts";
import { answerBudget } from "./answer-budget.ts";
import type { HopOptions } from "./hop-options.ts";
import type { Remote } from "./remote.ts";
import { remoteError } from "./remote-error.ts";
import { remoteResultMeta } from "./remote-meta.ts";

/** What a request forwarded to the remote is sent with. */
export interface ForwardOptions {
  /** The caller's signal, its answer's bytes counted (./answer-budget.ts). */
  readonly signal: AbortSignal;
  /** The trace the call runs in (W3C Trace Context), so that one trace spans both hops. */
  readonly traceContext?: Readonly<Record<string, string>>;
}

/**
 * The options of a request forwarded for a call.
 *
 * @param ctx The call's context.
 * @param signal The signal to send it with (its answer budget's).
 * @returns The signal, and the call's trace when it carries one.
 */
export function forwardOptions(ctx: CallContext, signal: AbortSignal): ForwardOptions {
  const trace = callerTrace(ctx);
  return trace === undefined ? { signal } : { signal, traceContext: trace };
}

/**
 * Forwards a read (a prompt's get, a resource's read) to the remote through the caller's client.
 *
 * @param ctx The call's context: its caller, signal, trace and result metadata.
 * @param remote The remote, told of a failure of its own.
 * @param hop How the second hop goes.
 * @param send Sends the request on the client, with the options given.
 * @returns The remote's result, its `_meta` for this hop set on the call's result.
 * @throws The budget's refusal, a protocol error naming the answer's bound, or the remote's error mapped.
 */
export async function forwardRead<T extends { _meta?: unknown }>(
  ctx: CallContext,
  remote: Remote,
  hop: HopOptions,
  send: (client: Client, options: ForwardOptions) => Promise<T>,
): Promise<T> {
  const budget = answerBudget(ctx);
  try {
    const options = forwardOptions(ctx, budget.signal);
    const [result, wire] = await hop.withClient(
      ctx,
      async (client) => [await send(client, options), client.wire] as const,
    );
    const meta = remoteResultMeta(result._meta, wire);
    if (meta !== undefined) ctx.resultMeta(meta);
    return result;
  } catch (error) {
    const answered = budget.answerFor(error, false);
    if (answered !== undefined && !isResponseTooLarge(error)) throw answered; // the budget's refusal
    remote.failed(error);
    throw answered ?? remoteError(error, hop.retryAfterMs, hop.name);
  }
}
