/**
 * Drives a streaming outcome to its end, handing each partial to the binding.
 *
 * @module
 */
import type { ToolCall } from "./middleware.ts";
import type { FinalOutcome, StreamOutcome } from "./outcome.ts";
import type { Registry } from "./registry.ts";
import { failureFromError } from "./dispatch.ts";
import { type ContentBlock, resultFromValue } from "./result.ts";

/**
 * Runs a stream to its end. The final result is the generator's return value when it has one;
 * otherwise the partials: string partials joined into one text block, other partials one text block
 * of JSON each. Stops early, closing the generator, when the call's signal aborts.
 *
 * @param registry The registry, for its error reporter.
 * @param call The call.
 * @param outcome The stream.
 * @param onPartial Receives each partial as it comes.
 * @returns The final outcome.
 */
export async function drainStream(
  registry: Registry,
  call: ToolCall,
  outcome: StreamOutcome,
  onPartial: (partial: unknown) => void,
): Promise<FinalOutcome> {
  const partials: unknown[] = [];
  const iterator = outcome.partials;
  const signal = call.ctx.signal;
  try {
    while (true) {
      const step = await iterator.next();
      if (step.done) {
        if (step.value !== undefined) {
          const result = resultFromValue(step.value);
          return result.isError === true ? { kind: "failure", result } : { kind: "answer", result };
        }
        return { kind: "answer", result: { content: joinPartials(partials) } };
      }
      if (signal.aborted) {
        await iterator.return?.();
        return failureFromError(registry, call, signal.reason ?? new Error("cancelled"));
      }
      partials.push(step.value);
      onPartial(step.value);
    }
  } catch (error) {
    return failureFromError(registry, call, error);
  }
}

function joinPartials(partials: unknown[]): ContentBlock[] {
  if (partials.length === 0) return [];
  if (partials.every((p) => typeof p === "string")) return [{ type: "text", text: partials.join("") }];
  return partials.map((p) => ({ type: "text", text: typeof p === "string" ? p : JSON.stringify(p) }));
}
