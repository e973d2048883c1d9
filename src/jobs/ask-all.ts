/**
 * Asking every outstanding question of parked work at once, on the context of the call that reaches
 * the client (a `redeem` call, an MCP call held open for a client without tasks).
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { InputRequest } from "../core/call/call-sink.ts";

/** What asking gave: the answers that came, by key, and the first refusal, if any. */
export interface Asked {
  /** The answers, by key. */
  readonly answers: Record<string, unknown>;
  /** Why a question could not be asked or was not answered (the first such reason), if one was not. */
  readonly refused: unknown;
}

/**
 * Asks the questions together, and waits for each to be answered or refused: the answers that came
 * are worth handing over even when another question was refused.
 *
 * @param ctx The context that asks.
 * @param requests The questions, by key.
 * @returns The answers and the first refusal.
 */
export async function askAll(ctx: CallContext, requests: Readonly<Record<string, InputRequest>>): Promise<Asked> {
  const questions = Object.entries(requests);
  const settled = await Promise.allSettled(questions.map(([key, request]) => ctx.requestInput(key, request)));
  const answers: Record<string, unknown> = {};
  let refused: unknown;
  settled.forEach((s, i) => s.status === "fulfilled" ? answers[questions[i][0]] = s.value : refused ??= s.reason);
  return { answers, refused };
}
