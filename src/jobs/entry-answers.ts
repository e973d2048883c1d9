/**
 * Answers for a job parked on another instance (a shared store): they wait in its entry's `answers` until the
 * instance running it, which polls the entry while parked (`job.ts`), picks them up. Only answers to questions the
 * entry lists, of the right shape for their question, are kept.
 *
 * @module
 */
import { type InputRequest, isInputAnswer } from "../core/call/call-sink.ts";
import type { ResultStore } from "./result-store.ts";

/**
 * Keeps the client's answers in the entry of a job running elsewhere.
 *
 * @param engine The shared result store and the clock.
 * @param id The entry id.
 * @param responses The answers, by key.
 * @param ttlMs How long the entry lasts.
 * @returns `false` when the store does not hold the job (unknown, expired).
 */
export async function answerInEntry(
  engine: { readonly results: ResultStore; readonly codec: { readonly now: () => number } },
  id: string,
  responses: Readonly<Record<string, unknown>>,
  ttlMs: number,
): Promise<boolean> {
  const store = engine.results;
  const entry = await store.get(id);
  if (entry === undefined) return false;
  if (entry.status !== "input_required") return true; // nothing asked: answers are ignored
  const requests: Record<string, InputRequest> = {};
  const answers: Record<string, unknown> = { ...entry.answers };
  for (const [key, request] of Object.entries(entry.requests)) {
    if (Object.hasOwn(responses, key) && isInputAnswer(request.method, responses[key])) answers[key] = responses[key];
    else requests[key] = request;
  }
  const at = engine.codec.now();
  await store.set(
    id,
    Object.keys(requests).length > 0
      ? { status: "input_required", requests, answers, at }
      : { status: "working", answers, at },
    ttlMs,
  );
  return true;
}
