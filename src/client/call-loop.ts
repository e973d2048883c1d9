/**
 * Driving a request to its end, the same way on every wire: an input round is answered through the
 * user's handlers and the request sent again (a new id, the answers, the state byte for byte); a
 * promise is redeemed with the `redeem` tool after `retry_after_ms`, `estimated_completion` or a
 * growing backoff. Tasks are left to `tasks.ts`.
 *
 * @module
 */
import type { Deadline } from "./deadline.ts";
import { rpcError } from "./errors.ts";
import type { InputHandlers } from "./input.ts";
import type { Reply } from "./transport.ts";

/** The additions a retry carries after an input round. */
export interface Round {
  /** The answers, by key. */
  inputResponses?: Record<string, unknown>;
  /** The state the server sent, unchanged. */
  requestState?: string;
}

/** Sends the request (again), with the last input round's answers. */
export type Send = (round: Round) => Promise<Reply>;

/** A reply the loop does not resolve itself. */
export type Settled = Exclude<Reply, { kind: "input_required" }>;

/** How promises are redeemed when the server gives no delay. */
export interface Backoff {
  /** The first wait, in ms (default 250). */
  initialMs?: number;
  /** The longest wait, in ms (default 10 000). */
  maxMs?: number;
}

/** What the loop needs. */
export interface LoopEnv {
  /** The call's clock and signal. */
  readonly deadline: Deadline;
  /** The user's input handlers. */
  readonly handlers: InputHandlers;
  /** The most input rounds one request may take. */
  readonly maxRounds: number;
  /** Redeem promises (`true`) or return them (`false`). */
  readonly wait: boolean;
  /** Builds the redeem request for a token; absent where promises cannot be redeemed. */
  readonly redeem?: (token: string) => Send;
  /** The backoff between redeems without a server-given delay. */
  readonly backoff: Backoff;
}

/** The longest the client sleeps before redeeming, whatever the server says (it then asks again). */
const MAX_REDEEM_WAIT_MS = 60_000;

/**
 * Sends a request and drives it until it completes, becomes a task, or (with `wait: false`) a promise.
 *
 * @param start The request, or a reply already in hand (to resume a promise).
 * @param env The clock, handlers and policy.
 * @returns The complete result, a task, or a promise.
 * @throws {ProtocolError} After too many input rounds.
 */
export async function settle(start: Send | Reply, env: LoopEnv): Promise<Settled> {
  let send: Send | undefined = typeof start === "function" ? start : undefined;
  let reply: Reply | undefined = typeof start === "function" ? undefined : start;
  let round: Round = {};
  let rounds = 0;
  let redeems = 0;
  for (;;) {
    reply ??= await send!(round);
    switch (reply.kind) {
      case "complete":
      case "task":
        return reply;
      case "promise": {
        if (!env.wait || env.redeem === undefined) return reply;
        await env.deadline.sleep(redeemDelay(reply, redeems++, env.backoff));
        send = env.redeem(reply.token);
        round = {};
        rounds = 0;
        break;
      }
      case "input_required": {
        if (++rounds > env.maxRounds) {
          throw rpcError(`The server asked for input more than ${env.maxRounds} times`, { data: reply });
        }
        if (send === undefined) throw rpcError("An input round cannot be resumed from a handle");
        const requests = reply.inputRequests;
        const answers = Object.keys(requests).length > 0
          ? await env.deadline.pause(
            // Answering loads with the first request for input (see loaded-on-demand.ts).
            import("./loaded-on-demand.ts").then((m) => m.answerInputs(requests, env.handlers, env.deadline.signal)),
          )
          : undefined;
        round = {};
        if (answers !== undefined) round.inputResponses = answers;
        if (reply.requestState !== undefined) round.requestState = reply.requestState;
        break;
      }
    }
    reply = undefined;
  }
}

/**
 * Chooses the wait before redeeming: the server's `retry_after_ms`, else the time left until its
 * `estimated_completion`, else a backoff that doubles; never more than a minute.
 *
 * @param promise The promise reply.
 * @param attempt How many redeems came before.
 * @param backoff The backoff settings.
 * @returns The wait, in ms.
 */
export function redeemDelay(promise: Extract<Reply, { kind: "promise" }>, attempt: number, backoff: Backoff): number {
  let ms: number | undefined = promise.retryAfterMs;
  if (ms === undefined && promise.estimatedCompletion !== undefined) {
    const at = Date.parse(promise.estimatedCompletion);
    if (Number.isFinite(at)) ms = at - Date.now();
  }
  if (ms === undefined || !Number.isFinite(ms)) {
    ms = Math.min(backoff.maxMs ?? 10_000, (backoff.initialMs ?? 250) * 2 ** Math.min(attempt, 16));
  }
  return Math.min(Math.max(0, ms), MAX_REDEEM_WAIT_MS);
}
