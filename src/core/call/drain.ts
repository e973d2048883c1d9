/**
 * Draining a streaming tool: its partials go to the wire as they come, and its final value is the
 * generator's return value or the partials joined.
 *
 * @module
 */
import type { CallContext } from "./call-context.ts";
import { type ContentBlock, toolResult } from "../results/result.ts";

/**
 * Runs a stream to its end and returns its final value: the generator's return value when it has
 * one, else the partials (strings joined into one text block, others one text block of JSON each).
 * Stops early, closing the generator, when the call's signal aborts.
 *
 * @param source The stream.
 * @param ctx The call's context (its signal).
 * @param onPartial Receives each partial; its promise is waited for before the next is pulled.
 * @returns The final value.
 * @throws {Error} The signal's reason, when the call was cancelled.
 */
export async function drain(
  source: AsyncIterable<unknown>,
  ctx: CallContext,
  onPartial: ((partial: unknown) => void | Promise<void>) | undefined,
): Promise<unknown> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<unknown, unknown, undefined>;
  const partials: unknown[] = [];
  const signal = ctx.signal;
  while (true) {
    const next = await iterator.next();
    if (next.done) return next.value !== undefined ? next.value : toolResult({ content: joinPartials(partials) });
    if (signal.aborted) {
      await iterator.return?.();
      throw signal.reason ?? new Error("cancelled");
    }
    partials.push(next.value);
    const taken = onPartial?.(next.value);
    if (taken !== undefined) await taken;
  }
}

function joinPartials(partials: unknown[]): ContentBlock[] {
  if (partials.length === 0) return [];
  if (partials.every((p) => typeof p === "string")) return [{ type: "text", text: partials.join("") }];
  return partials.map((p) => ({ type: "text", text: typeof p === "string" ? p : JSON.stringify(p) }));
}
