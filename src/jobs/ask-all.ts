/**
 * Asking every outstanding question of parked work at once, on the context of the call that reaches
 * the client (a `redeem` call, an MCP call held open for a client without tasks), and handing the answers over.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { InputRequest } from "../core/call/call-sink.ts";

/**
 * Asks the questions together, and waits for each to be answered or refused: the answers that came are handed over
 * even when another question was refused, and then the first refusal is thrown.
 *
 * @param ctx The context that asks.
 * @param requests The questions, by key.
 * @param deliver Hands the answers that came over to the work (when any came).
 * @returns When the answers are handed over.
 * @throws The first refusal, if a question could not be asked or was not answered.
 */
export async function askAll(
  ctx: CallContext,
  requests: Readonly<Record<string, InputRequest>>,
  deliver: (answers: Record<string, unknown>) => Promise<unknown>,
): Promise<void> {
  const questions = Object.entries(requests);
  const settled = await Promise.allSettled(questions.map(([key, request]) => ctx.requestInput(key, request)));
  const answers: Record<string, unknown> = {};
  let refused: unknown;
  settled.forEach((s, i) => s.status === "fulfilled" ? answers[questions[i][0]] = s.value : refused ??= s.reason);
  if (Object.keys(answers).length > 0) await deliver(answers);
  if (refused !== undefined) throw refused;
}
